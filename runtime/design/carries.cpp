// The algebra of include/cascade/carries.h: a chunk's matrices from the recursion run on unit
// states and impulses, and the scan over a line's chunks that solves their entering states.
#include "cascade/carries.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <tuple>

#include "cascade/error.h"

namespace cascade {

namespace {

using Rows = std::vector<double>;  // row-major, m columns

// y[i] = b·x[i] − Σ_k a_k·y[i−k] for i = 0..n−1, row i at i·stride (a negative stride runs up
// the rows), `lines` values a row side by side. The r rows before y[0] hold the state where `past`,
// else it is zero. y may be x: each row is read before it is written.
void scan(double b, const std::vector<double> &a, const double *x, double *y, int n, std::ptrdiff_t stride,
          int64_t lines, bool past) {
    const int r = int(a.size());
    for (int i = 0; i < n; i++) {
        double *row = y + i * stride;
        const double *in = x + i * stride;
        for (int64_t l = 0; l < lines; l++) row[l] = b * in[l];
        for (int k = 1; k <= (past ? r : std::min(r, i)); k++) {
            const double *before = y + (i - k) * stride;
            for (int64_t l = 0; l < lines; l++) row[l] -= a[size_t(k - 1)] * before[l];
        }
    }
}

// y[i] = b·z[i] − Σ_k a_k·y[i−k] down the rows of z (n × m), past = y[−r..−1] (r × m).
Rows causal(double b, const std::vector<double> &a, const Rows &z, const Rows &past, int n, int m) {
    const int r = int(a.size());
    Rows ext(size_t(r + n) * m);
    std::copy(past.begin(), past.end(), ext.begin());
    scan(b, a, z.data(), ext.data() + size_t(r) * m, n, m, m, true);
    return Rows(ext.begin() + size_t(r) * m, ext.end());
}

// y[i] = b·z[i] − Σ_k a_k·y[i+k] up the rows, future = y[n..n+r−1].
Rows anticausal(double b, const std::vector<double> &a, const Rows &z, const Rows &future, int n, int m) {
    Rows ext(size_t(n) * m + future.size());
    std::copy(future.begin(), future.end(), ext.begin() + size_t(n) * m);
    if (n) scan(b, a, &z[size_t(n - 1) * m], &ext[size_t(n - 1) * m], n, -std::ptrdiff_t(m), m, true);
    ext.resize(size_t(n) * m);
    return ext;
}

Rows identity(int r) {
    Rows eye(size_t(r) * r, 0.0);
    for (int i = 0; i < r; i++) eye[size_t(i) * r + i] = 1.0;
    return eye;
}

// Rows [from, from + r) of the (rows × r) stack of `top` over `bottom`.
Rows stacked_rows(const Rows &top, int top_rows, const Rows &bottom, int from, int r) {
    Rows out(size_t(r) * r);
    for (int i = 0; i < r; i++) {
        const int row = from + i;
        const double *src = row < top_rows ? &top[size_t(row) * r] : &bottom[size_t(row - top_rows) * r];
        std::copy_n(src, r, &out[size_t(i) * r]);
    }
    return out;
}

// y = M·x for an r × r M, x and y r rows of `lines` values side by side.
void times(const Rows &m, const double *x, double *y, int r, int64_t lines = 1) {
    for (int i = 0; i < r; i++) {
        double *yi = y + i * lines;
        std::fill_n(yi, lines, 0.0);
        for (int k = 0; k < r; k++) {
            const double mik = m[size_t(i) * r + k];
            const double *xk = x + k * lines;
            for (int64_t l = 0; l < lines; l++) yi[l] += mik * xk[l];
        }
    }
}

Rows product(const Rows &a, const Rows &b, int r) {
    Rows c(size_t(r) * r, 0.0);
    for (int i = 0; i < r; i++)
        for (int k = 0; k < r; k++)
            for (int j = 0; j < r; j++) c[size_t(i) * r + j] += a[size_t(i) * r + k] * b[size_t(k) * r + j];
    return c;
}

// (I − M)⁻¹ of an r × r M.
Rows inverse_complement(const Rows &m, int r) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Identity(r, r);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++) a(i, j) -= m[size_t(i) * r + j];
    const Eigen::MatrixXd inv = a.inverse();
    Rows out(size_t(r) * r);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++) out[size_t(i) * r + j] = inv(i, j);
    return out;
}

// A chunk's matrices are made once per filter and length, shared by every line and thread, and
// kept for the process (a few per filter in use).
const ChunkCarries &cached(const RecursiveFilter &filter, int n) {
    using Key = std::tuple<double, std::vector<double>, int>;
    static std::mutex mutex;
    static auto &cache = *new std::map<Key, std::unique_ptr<const ChunkCarries>>;
    std::lock_guard<std::mutex> lock(mutex);
    auto &entry = cache[Key{filter.gain, filter.feedback, n}];
    if (!entry) entry = std::make_unique<const ChunkCarries>(chunk_carries(filter, n));
    return *entry;
}

bool reflecting(Boundary b) { return b == Boundary::reflect || b == Boundary::mirror; }

}  // namespace

ChunkCarries chunk_carries(const RecursiveFilter &filter, int n) {
    if (n < 0) throw Error("a chunk has no negative length");
    const int r = filter.order();
    if (r < 1) throw Error("carries need a recursion of order 1 or more");
    const double b = filter.gain;
    const std::vector<double> &a = filter.feedback;
    ChunkCarries c;
    c.n = n;
    c.r = r;
    Rows impulse(size_t(n), 0.0);
    if (n) impulse[0] = 1.0;
    const Rows g = causal(1.0, a, impulse, Rows(size_t(r), 0.0), n, 1);
    const Rows eye = identity(r), zeros(size_t(r) * r, 0.0), none(size_t(n) * r, 0.0);
    const Rows hc = causal(b, a, none, eye, n, r);
    c.gu = anticausal(b, a, hc, zeros, n, r);
    c.gv = anticausal(b, a, none, eye, n, r);
    c.lc = stacked_rows(eye, r, hc, n, r);
    c.mu = stacked_rows(c.gu, n, zeros, 0, r);
    c.mv = stacked_rows(c.gv, n, eye, 0, r);
    c.we.assign(size_t(n) * r, 0.0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < r; j++) {
            const int lag = n - r + j - i;  // e_j = c0[n − r + j] = Σ_i b·g[lag]·x[i]
            if (lag >= 0) c.we[size_t(i) * r + j] = b * g[size_t(lag)];
        }
    c.wh.assign(size_t(n) * r, 0.0);
    for (int j = 0; j < std::min(r, n);
         j++) {  // h_j = y0[j]: the anticausal pass of the causal response at j
        Rows t(size_t(n), 0.0);
        for (int m = j; m < n; m++) t[size_t(m)] = b * g[size_t(m - j)];
        const Rows column = anticausal(b, a, t, Rows(size_t(r), 0.0), n, 1);
        for (int i = 0; i < n; i++) c.wh[size_t(i) * r + j] = column[size_t(i)];
    }
    return c;
}

int carry_reach(const RecursiveFilter &filter) {
    const int r = filter.order();
    double rho = 0.0;
    for (const std::complex<double> &p : poles(filter)) rho = std::max(rho, std::abs(p));
    if (!(rho > 0)) return std::max(r, 1);
    if (!(rho < 1)) throw Error("the recursion is unstable (a pole on or outside the unit circle)");
    return int(std::min<double>(1 << 20, std::max<double>(r, std::ceil(std::log(1e-20) / std::log(rho)))));
}

int carry_summary_width(int order, Boundary boundary) {
    return 2 * order + (reflecting(boundary) ? 2 * order : boundary == Boundary::clamp ? 2 : 0);
}

void summarize_chunk(const RecursiveFilter &filter, Boundary boundary, const double *x, int n,
                     std::ptrdiff_t stride, bool first, bool last, double *summary, int64_t lines) {
    const int r = filter.order();
    const int width = carry_summary_width(r, boundary);
    // The sums for every line at once, the lines innermost: each row of samples read once, in order.
    // Only the rows within the recursion's reach of the chunk's end (e) and start (h) weigh
    // anything: past it a weight is below 1e-20 of the first.
    const int span = carry_reach(filter) + r;
    Rows acc(size_t(width) * size_t(lines));
    const auto sums = [&](const ChunkCarries &c, int from, bool reverse, int column) {
        // Σ_i x[from + i]·W[i, :] for W = we then wh, the rows reversed for a mirror image
        const auto add = [&](const std::vector<double> &weights, int first, int last, double *out) {
            for (int w = first; w < last; w++) {
                const double *row = x + (from + (reverse ? c.n - 1 - w : w)) * stride;
                for (int j = 0; j < r; j++) {
                    const double weight = weights[size_t(w) * r + j];
                    double *o = out + j * lines;
                    for (int64_t l = 0; l < lines; l++) o[l] += weight * row[l];
                }
            }
        };
        add(c.we, std::max(0, c.n - span), c.n, &acc[size_t(column) * lines]);
        add(c.wh, 0, std::min(c.n, span), &acc[size_t(column + r) * lines]);
    };
    sums(cached(filter, n), 0, false, 0);
    if (reflecting(boundary)) {
        const bool trim = boundary == Boundary::mirror && !(first && last && n == 1);
        const int lo = trim && first, hi = trim && last;
        sums(cached(filter, std::max(n - lo - hi, 0)), lo, true, 2 * r);
    } else if (boundary == Boundary::clamp) {
        std::copy_n(x, lines, &acc[size_t(2 * r) * lines]);
        std::copy_n(x + (n - 1) * stride, lines, &acc[size_t(2 * r + 1) * lines]);
    }
    for (int64_t l = 0; l < lines; l++)
        for (int j = 0; j < width; j++) summary[l * width + j] = acc[size_t(j) * lines + l];
}

void solve_carries(const RecursiveFilter &filter, Boundary boundary, const std::vector<int> &lengths,
                   const double *summaries, int64_t lines, double *states) {
    const int r = filter.order(), K = int(lengths.size());
    if (K == 0) return;
    int64_t total = 0;
    for (int n : lengths) total += n;
    if (boundary == Boundary::mirror && total == 1)
        boundary = Boundary::reflect;  // one sample: any extension
    const int width = carry_summary_width(r, boundary);
    // The line's chunks, then for reflect and mirror its mirror image's, in order along the
    // extended line: (matrices, column of e in a chunk's summary, which chunk's summary).
    struct Segment {
        const ChunkCarries *c;
        int column, chunk;
    };
    std::vector<Segment> segs;
    for (int k = 0; k < K; k++) segs.push_back({&cached(filter, lengths[size_t(k)]), 0, k});
    if (reflecting(boundary))
        for (int k = K - 1; k >= 0; k--) {
            const int m =
                lengths[size_t(k)] - (boundary == Boundary::mirror ? int(k == 0) + int(k == K - 1) : 0);
            segs.push_back({&cached(filter, std::max(m, 0)), 2 * r, k});
        }
    const int M = int(segs.size());
    const bool circular = boundary == Boundary::periodic || reflecting(boundary);
    Rows u_solve, v_solve;
    if (circular) {
        Rows phi = identity(r), psi = identity(r);
        for (const Segment &s : segs) phi = product(s.c->lc, phi, r);
        for (int j = M - 1; j >= 0; j--) psi = product(segs[size_t(j)].c->mv, psi, r);
        u_solve = inverse_complement(phi, r);
        v_solve = inverse_complement(psi, r);
    }
    const ChunkCarries *tail = nullptr;
    Rows tail_constant;  // clamp: the tail's V per unit edge sample
    // the causal pass's gain on a constant
    const double steady =
        filter.gain / (1.0 + std::accumulate(filter.feedback.begin(), filter.feedback.end(), 0.0));
    if (boundary == Boundary::zero || boundary == Boundary::clamp) {
        tail = &cached(filter, carry_reach(filter));
        tail_constant.assign(size_t(r), 0.0);
        for (int i = 0; i < tail->n; i++)
            for (int j = 0; j < r; j++) tail_constant[size_t(j)] += tail->wh[size_t(i) * r + j];
        Rows settled(size_t(r), steady * steady), through(size_t(r), 0.0);
        times(tail->mv, settled.data(), through.data(), r);
        for (int j = 0; j < r; j++) tail_constant[size_t(j)] += through[size_t(j)];
    }
    // Blocks of lines, the lines innermost: every r-vector below is r rows of L values.
    constexpr int64_t kBlock = 64;
    const size_t rb = size_t(r) * kBlock;
    Rows us((M + 1) * rb), w(M * rb), v(rb), t(rb), acc(rb), es(M * 2 * rb);
    for (int64_t first = 0; first < lines; first += kBlock) {
        const int64_t L = std::min(kBlock, lines - first);
        const double *sum = summaries + first * K * width;
        const auto at = [&](int64_t l, int chunk, int column) {
            return sum[(l * K + chunk) * width + column];
        };
        // Each segment's e and h, by line.
        for (int j = 0; j < M; j++)
            for (int i = 0; i < 2 * r; i++)
                for (int64_t l = 0; l < L; l++)
                    es[(size_t(j) * 2 * r + i) * L + l] =
                        at(l, segs[size_t(j)].chunk, segs[size_t(j)].column + i);
        const auto e = [&](int j) { return &es[size_t(j) * 2 * r * L]; };
        const auto h = [&](int j) { return &es[(size_t(j) * 2 * r + r) * L]; };
        double *u = us.data();
        std::fill_n(u, r * L, 0.0);
        if (circular) {
            std::fill_n(acc.data(), r * L, 0.0);
            for (int j = 0; j < M; j++) {
                times(segs[size_t(j)].c->lc, acc.data(), t.data(), r, L);
                for (int64_t i = 0; i < r * L; i++) acc[size_t(i)] = t[size_t(i)] + e(j)[i];
            }
            times(u_solve, acc.data(), u, r, L);
        } else if (boundary == Boundary::clamp) {
            for (int i = 0; i < r; i++)
                for (int64_t l = 0; l < L; l++) u[i * L + l] = steady * at(l, 0, 2 * r);
        }
        for (int j = 0; j < M; j++) {
            const Segment &seg = segs[size_t(j)];
            double *next = &us[(j + 1) * r * L], *wj = &w[j * r * L];
            times(seg.c->lc, &us[j * r * L], next, r, L);
            times(seg.c->mu, &us[j * r * L], wj, r, L);
            for (int64_t i = 0; i < r * L; i++) {
                next[i] += e(j)[i];
                wj[i] += h(j)[i];
            }
        }
        std::fill_n(v.data(), r * L, 0.0);
        if (circular) {
            std::fill_n(acc.data(), r * L, 0.0);
            for (int j = M - 1; j >= 0; j--) {
                times(segs[size_t(j)].c->mv, acc.data(), t.data(), r, L);
                for (int64_t i = 0; i < r * L; i++) acc[size_t(i)] = t[size_t(i)] + w[j * r * L + i];
            }
            times(v_solve, acc.data(), v.data(), r, L);
        } else if (tail) {
            times(tail->mu, &us[M * r * L], v.data(), r, L);
            if (boundary == Boundary::clamp)
                for (int i = 0; i < r; i++)
                    for (int64_t l = 0; l < L; l++)
                        v[i * L + l] += at(l, K - 1, 2 * r + 1) * tail_constant[size_t(i)];
        }
        for (int j = M - 1; j >= 0; j--) {
            if (j < K)
                for (int64_t l = 0; l < L; l++) {
                    double *out = states + ((first + l) * K + j) * 2 * r;
                    for (int i = 0; i < r; i++) {
                        out[i] = us[(j * r + i) * L + l];
                        out[r + i] = v[i * L + l];
                    }
                }
            times(segs[size_t(j)].c->mv, v.data(), t.data(), r, L);
            for (int64_t i = 0; i < r * L; i++) v[size_t(i)] = t[size_t(i)] + w[j * r * L + i];
        }
    }
}

void recurse_from_states(const RecursiveFilter &filter, const double *states, const double *x, double *y,
                         int n, std::ptrdiff_t stride, int64_t lines) {
    const int r = filter.order();
    const ChunkCarries &c = cached(filter, n);
    const double b = filter.gain;
    const std::vector<double> &a = filter.feedback;
    // y0 in y itself, the lines innermost: the causal pass down, then the anticausal pass up.
    scan(b, a, x, y, n, stride, lines, false);
    if (n) scan(b, a, y + (n - 1) * stride, y + (n - 1) * stride, n, -stride, lines, false);
    Rows s(size_t(2 * r) * size_t(lines));  // the states by state, the lines innermost
    for (int64_t l = 0; l < lines; l++)
        for (int j = 0; j < 2 * r; j++) s[size_t(j) * lines + l] = states[l * 2 * r + j];
    // U's response within the recursion's reach of the start, V's of the end (past it, below
    // 1e-20 of the state).
    const int span = carry_reach(filter) + r;
    const auto respond = [&](const std::vector<double> &g, int first, int last, const double *state) {
        for (int i = first; i < last; i++) {
            double *row = y + i * stride;
            for (int j = 0; j < r; j++) {
                const double gij = g[size_t(i) * r + j];
                const double *sj = state + size_t(j) * lines;
                for (int64_t l = 0; l < lines; l++) row[l] += gij * sj[l];
            }
        }
    };
    respond(c.gu, 0, std::min(n, span), s.data());
    respond(c.gv, std::max(0, n - span), n, s.data() + size_t(r) * lines);
}

}  // namespace cascade
