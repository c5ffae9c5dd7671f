#include "cascade/box.h"

#include <algorithm>
#include <thread>

#include "cascade/error.h"
#include "cascade/iir.h"
#include "cascade/sat.h"

namespace cascade {

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

// Adds sign·F(x) to `terms`, F the cumulative coverage Σ_{t=0..x} e_map(t) for x ≥ −1, continued
// below −1 so that F(x) − F(x−1) = e_map(x) everywhere: then a window is F(x1) − F(x0−1).
// Whole periods of the extension cover every index alike, which keeps F a handful of terms.
void add_cumulative(std::vector<AxisTerm> &terms, int64_t sign, int64_t n, int64_t x, Boundary boundary) {
    auto add = [&](int64_t c, int64_t k) {
        if (k >= 0 && c != 0) terms.push_back({sign * c, k});  // P(−1) is empty
    };
    // One period p, as q whole periods and a remainder r: x + 1 = q·p + r, 0 ≤ r < p.
    auto split = [&](int64_t p, int64_t &q, int64_t &r) {
        q = floor_div(x + 1, p);
        r = x + 1 - q * p;
    };
    int64_t q, r;
    switch (boundary) {
        case Boundary::none:
        case Boundary::zero:
            add(1, std::clamp<int64_t>(x, -1, n - 1));
            break;
        case Boundary::clamp:  // past the ends, the edge index e_{n−1} = P(n−1) − P(n−2) repeats
            if (x < 0) {
                add(x + 1, 0);
            } else if (x < n) {
                add(1, x);
            } else {
                add(x - n + 2, n - 1);
                add(-(x - n + 1), n - 2);
            }
            break;
        case Boundary::periodic:
            split(n, q, r);
            add(q, n - 1);
            add(1, r - 1);
            break;
        case Boundary::reflect:  // a period is 0..n−1 then n−1..0: twice P(n−1)
            split(2 * n, q, r);
            add(2 * q, n - 1);
            if (r <= n) {
                add(1, r - 1);
            } else {  // the reversed part is a suffix: P(n−1) − P(2n−r−1)
                add(2, n - 1);
                add(-1, 2 * n - r - 1);
            }
            break;
        case Boundary::mirror:  // a period is 0..n−1 then n−2..1: P(n−1) + P(n−2) − P(0)
            if (n == 1) {
                add(x + 1, 0);
                break;
            }
            split(2 * n - 2, q, r);
            add(q, n - 1);
            add(q, n - 2);
            add(-q, 0);
            if (r <= n) {
                add(1, r - 1);
            } else {
                add(1, n - 1);
                add(1, n - 2);
                add(-1, 2 * n - 2 - r);
            }
            break;
    }
}

// Σ coefficient·(k + 1): how many samples of the image the window covers, repeats counted.
int64_t coverage(const std::vector<AxisTerm> &terms) {
    int64_t sum = 0;
    for (const AxisTerm &t : terms) sum += t.coefficient * (t.k + 1);
    return sum;
}

struct Axis {
    std::vector<std::vector<AxisTerm>> terms;  // per output position
    std::vector<int64_t> coverage;
};

Axis axis_terms(int n, int radius, Boundary boundary) {
    Axis axis;
    for (int64_t x = 0; x < n; x++) {
        axis.terms.push_back(box_axis_terms(n, x - radius, x + radius, boundary));
        axis.coverage.push_back(coverage(axis.terms.back()));
    }
    return axis;
}

// Runs body(y) for y in [0, count) on a few threads.
template <class Body>
void parallel_rows(int count, const Body &body) {
    int threads = std::clamp<int>(int(std::thread::hardware_concurrency()), 1, 16);
    threads = std::min(threads, count);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([&, t] {
            for (int y = t; y < count; y += threads) body(y);
        });
    for (auto &thread : pool) thread.join();
}

}  // namespace

std::vector<AxisTerm> box_axis_terms(int64_t n, int64_t x0, int64_t x1, Boundary boundary) {
    if (n < 1) throw Error("box_axis_terms: the axis is empty");
    std::vector<AxisTerm> terms;
    if (x1 < x0) return terms;
    add_cumulative(terms, 1, n, x1, boundary);
    add_cumulative(terms, -1, n, x0 - 1, boundary);
    std::sort(terms.begin(), terms.end(), [](const AxisTerm &a, const AxisTerm &b) { return a.k < b.k; });
    std::vector<AxisTerm> merged;
    for (const AxisTerm &t : terms) {
        if (!merged.empty() && merged.back().k == t.k)
            merged.back().coefficient += t.coefficient;
        else
            merged.push_back(t);
        if (merged.back().coefficient == 0) merged.pop_back();
    }
    return merged;
}

Image box_mean(const Image &input, int radius, Boundary boundary, DeviceChoice device) {
    if (radius < 0) throw Error("radius must be a non-negative integer");
    if (input.width < 1 || input.height < 1 || input.channels < 1) throw Error("the input image is empty");
    require_finite(input);
    const int w = input.width, h = input.height;
    const size_t plane = size_t(w) * h;

    // Float32 tables of an image grow with its mean, and the differences of large entries cancel
    // catastrophically: the tables are of the input less each channel's mean. The float32 mean is
    // subtracted exactly (Sterbenz) for samples within a factor 2 of it, and added back as such.
    std::vector<double> means(input.channels);
    Image centered(w, h, input.channels);
    for (int c = 0; c < input.channels; c++) {
        const float *in = input.data.data() + c * plane;
        double sum = 0;
        for (size_t i = 0; i < plane; i++) sum += in[i];
        const float mean = float(sum / double(plane));
        means[c] = mean;
        float *out = centered.data.data() + c * plane;
        for (size_t i = 0; i < plane; i++) out[i] = in[i] - mean;
    }
    SatOptions options;
    options.device = device;
    const Image sat = summed_area_table(centered, options);
    if (sat.width != w || sat.height != h || sat.channels != input.channels)
        throw Error("the summed-area table's shape differs from the input's");

    const Axis ax = axis_terms(w, radius, boundary), ay = axis_terms(h, radius, boundary);
    const double side = 2.0 * radius + 1.0, area = side * side;
    Image output(w, h, input.channels);
    parallel_rows(h * input.channels, [&](int row) {
        const int c = row / h, y = row % h;
        const float *s = sat.data.data() + c * plane;
        for (int x = 0; x < w; x++) {
            double sum = 0;
            for (const AxisTerm &ty : ay.terms[y])
                for (const AxisTerm &tx : ax.terms[x])
                    sum += double(ty.coefficient) * double(tx.coefficient) * s[size_t(ty.k) * w + tx.k];
            // The mean counts once per covered sample: (2R+1)² times, except past zero edges.
            const double covered = double(ax.coverage[x]) * double(ay.coverage[y]);
            output.at(x, y, c) = float((sum + means[c] * covered) / area);
        }
    });
    return output;
}

}  // namespace cascade
