// Filter design from fuzzed numbers: feedback vectors of order 1-6 with any doubles and gain,
// Gaussian sigmas of every method, B-spline orders, each with every boundary. The design must
// either refuse with a one-line cascade::Error or run on a small image (at most 9×9, content from
// the input) to a finite result: through the double reference where its padding stays small, and
// through the public API on the CPU (unless built with FUZZ_DESIGN_NO_PLANS, where only the design
// sources are compiled in).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <exception>
#include <limits>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/bspline.h"
#include "cascade/deriche.h"
#include "cascade/error.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"
#include "cascade/twoway.h"
#include "fuzz_bytes.h"
#include "fuzz_support.h"
#include "reference.h"
#ifndef FUZZ_DESIGN_NO_PLANS
#include "cascade/gaussian_blur.h"
#include "cascade/iir.h"
#endif

namespace {

using namespace cascade;
using fuzz::FuzzBytes;

// Past this margin the double reference (which pads every line until the response falls below
// 1e-20, and for twoway filters each sample's line again) costs tens of milliseconds per input
// under the sanitizers; such filters still run through the plans, whose tables do not grow with
// the margin.
constexpr int kMaxReferenceMargin = 4000;
// Outputs may legitimately overflow float32 only when this bound on them does.
constexpr double kFiniteBound = 1e30;

struct Case {
    enum Kind { feedback, gaussian, bspline } kind = feedback;
    Filter2D filter;  // feedback, bspline and vanvliet
    double sigma = 0;
    GaussianMethod method = GaussianMethod::vanvliet;
    FirIirGaussian fir_iir;  // deriche2, deriche4
    TwoWayGaussian two_way;
    Boundary boundary = Boundary::none;
};

const Boundary kBoundaries[] = {Boundary::none,     Boundary::zero,    Boundary::clamp,
                                Boundary::periodic, Boundary::reflect, Boundary::mirror};

RecursiveFilter pass_from(FuzzBytes &in) {
    RecursiveFilter pass;
    pass.feedback.resize(size_t(in.in_range(1, 6)));
    for (double &a : pass.feedback) a = in.number();
    pass.gain = in.flag() ? in.number() : unit_dc_gain(pass.feedback);
    return pass;
}

// The design step: what a user's numbers become before anything runs. Throws cascade::Error.
Case design(FuzzBytes &in) {
    Case c;
    c.kind = Case::Kind(in.in_range(0, 2));
    c.boundary = kBoundaries[in.in_range(0, 5)];
    switch (c.kind) {
        case Case::feedback:
            c.filter.vertical = pass_from(in);
            c.filter.horizontal = in.flag() ? c.filter.vertical : pass_from(in);
            // What `cascade iir` checks before it runs anything.
            require_stable(c.filter.vertical);
            require_stable(c.filter.horizontal);
            break;
        case Case::gaussian:
            c.sigma = in.number();
            c.method = GaussianMethod(in.in_range(0, 3));
            if (c.method == GaussianMethod::vanvliet) {
                const RecursiveFilter pass = van_vliet_gaussian(c.sigma);
                c.filter = Filter2D{pass, pass};
            } else if (c.method == GaussianMethod::twoway) {
                c.two_way = two_way_gaussian(c.sigma);
            } else {
                c.fir_iir = c.method == GaussianMethod::deriche2 ? deriche2_gaussian(c.sigma)
                                                                 : deriche4_gaussian(c.sigma);
            }
            break;
        case Case::bspline: {
            const RecursiveFilter pass = bspline_prefilter(in.in_range(-2, 12));
            c.filter = Filter2D{pass, pass};
            break;
        }
    }
    return c;
}

Image image_from(FuzzBytes &in) {
    Image image(in.in_range(1, 9), in.in_range(1, 9), in.in_range(1, 2));
    const double scale = in.flag() ? 1.0 : 1000.0;
    for (float &v : image.data) v = float(scale * (in.byte() / 127.5 - 1.0));
    return image;
}

// max |output| / max |input| can reach at most Π over the four passes of |gain|·Σ|h|, and
// Σ|h| ≤ Π 1/(1 − |p|) over the pass's poles.
// The float32 pipelines also hold each dimension's growth (a gain of 1e28 overflows there even
// when a tiny gain across makes the product small): the bound is the larger of the product and
// each dimension's own (found by fuzz_design).
double growth_bound(const Filter2D &filter) {
    double bound = 1, largest = 0;
    for (const RecursiveFilter *pass : {&filter.vertical, &filter.horizontal}) {
        double sum = std::abs(pass->gain);
        for (const std::complex<double> &p : poles(*pass)) sum /= 1 - std::abs(p);
        bound *= sum * sum;
        largest = std::max(largest, sum * sum);
    }
    bound = std::max(bound, largest);
    return std::isfinite(bound) ? bound : std::numeric_limits<double>::infinity();
}

// margin_for's answer, or INT_MAX where it refuses (with a clear error) a stable pass whose
// margin would pass int's range.
int margin_of(const RecursiveFilter &pass) {
    int margin = std::numeric_limits<int>::max();
    fuzz::refused([&] { margin = margin_for(pass); });
    return margin;
}

// An accepted pass must be stable, whatever its root finder said: its impulse response, run in
// double, has fallen far below its peak by the margin margin_for promises (1e-9 of the peak).
void check_decays(const RecursiveFilter &pass) {
    const int margin = margin_of(pass);
    if (margin > kMaxReferenceMargin) return;
    std::vector<double> h(size_t(margin) + 1);
    double peak = 0;
    for (int i = 0; i <= margin; i++) {
        double y = i == 0 ? 1.0 : 0.0;
        for (int k = 1; k <= pass.order() && k <= i; k++)
            y -= pass.feedback[size_t(k - 1)] * h[size_t(i - k)];
        h[size_t(i)] = y;
        peak = std::max(peak, std::abs(y));
    }
    FUZZ_CHECK(std::isfinite(peak) && std::abs(h.back()) <= 1e-6 * peak,
               "an accepted filter's impulse response does not decay (" + std::to_string(std::abs(h.back())) +
                   " at sample " + std::to_string(margin) + ", peak " + std::to_string(peak) + ")");
}

double largest(const Image &image) {
    double m = 0;
    for (float v : image.data) m = std::max(m, double(std::abs(v)));
    return m;
}

template <typename Values>
void check_finite(const Values &values, const char *what) {
    for (auto v : values) FUZZ_CHECK(std::isfinite(v), std::string(what) + " is not finite");
}

reference::Matrix reference_of(const Case &c, const reference::Matrix &plane) {
    if (c.kind != Case::gaussian) return reference::filter_2d(c.filter, plane, c.boundary);
    if (c.method == GaussianMethod::twoway) return reference::two_way_2d(c.two_way, plane, c.boundary);
    if (c.method == GaussianMethod::deriche2 || c.method == GaussianMethod::deriche4)
        return reference::fir_iir_2d(c.fir_iir, plane);  // defined for boundary none only
    return reference::filter_2d(c.filter, plane, c.boundary);
}

// The longest margin the reference pads a line with for this case (none: no padding).
int reference_margin(const Case &c) {
    if (c.boundary == Boundary::none) return 0;
    std::vector<RecursiveFilter> passes = {c.filter.vertical, c.filter.horizontal};
    if (c.kind == Case::gaussian && c.method == GaussianMethod::twoway) passes = c.two_way.sections;
    int margin = 0;
    for (const RecursiveFilter &pass : passes)
        if (pass.order() > 0) margin = std::max(margin, margin_of(pass));
    return margin;
}

void run_reference(const Case &c, const Image &image) {
    const bool has_filter = c.filter.vertical.order() > 0;
    if (reference_margin(c) > kMaxReferenceMargin) return;
    const bool bounded = !has_filter || growth_bound(c.filter) * largest(image) < kFiniteBound;
    for (int ch = 0; ch < image.channels; ch++) {
        const reference::Matrix out = reference_of(c, reference::plane(image, ch));
        FUZZ_CHECK(out.allFinite() || !bounded, "the double reference is not finite");
    }
}

#ifndef FUZZ_DESIGN_NO_PLANS
void run_plans(const Case &c, const Image &image, FuzzBytes &in) {
    static const Algorithm kAlgorithms[] = {Algorithm::automatic, Algorithm::rt, Algorithm::a2,
                                            Algorithm::a4,        Algorithm::a5, Algorithm::a6};
    static const Form kForms[] = {Form::automatic, Form::direct, Form::sections};
    IirOptions options;
    options.boundary = c.boundary;
    options.device = DeviceChoice::cpu;
    options.algorithm = kAlgorithms[in.in_range(0, 5)];
    options.form = kForms[in.in_range(0, 2)];
    Image out;
    if (fuzz::verbose()) {
        std::fprintf(stderr,
                     "kind %d sigma %.17g method %d boundary %s algorithm %d form %d image %dx%dx%d\n",
                     int(c.kind), c.sigma, int(c.method), boundary_name(c.boundary), int(options.algorithm),
                     int(options.form), image.width, image.height, image.channels);
        for (const RecursiveFilter *p : {&c.filter.vertical, &c.filter.horizontal}) {
            std::fprintf(stderr, "  gain %.17g feedback", p->gain);
            for (double a : p->feedback) std::fprintf(stderr, " %.17g", a);
            std::fprintf(stderr, "\n");
        }
    }
    try {
        if (c.kind == Case::gaussian)
            out = gaussian_blur(image, design_gaussian(c.sigma, c.method), options);
        else
            out = iir_2d(image, c.filter, options);
    } catch (const Error &e) {
        // Refusing a combination (an algorithm without boundaries, a form not built) is fine.
        fuzz::check_message(e.what());
        return;
    }
    FUZZ_CHECK(out.width == image.width && out.height == image.height && out.channels == image.channels,
               "the output has another shape");
    if (c.kind == Case::gaussian || growth_bound(c.filter) * largest(image) < kFiniteBound)
        check_finite(out.data, "the CPU plan's output");
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzBytes in(data, size);
    Case c;
    if (fuzz::refused([&] { c = design(in); })) return 0;
    const Image image = image_from(in);
    try {
        if (c.filter.vertical.order() > 0) {
            check_decays(c.filter.vertical);
            check_decays(c.filter.horizontal);
        }
        run_reference(c, image);
#ifndef FUZZ_DESIGN_NO_PLANS
        run_plans(c, image, in);
#endif
    } catch (const Error &e) {
        fuzz::fail(std::string("an accepted design failed to run: ") + e.what());
    } catch (const std::exception &e) {
        fuzz::fail(std::string("not a cascade::Error: ") + e.what());
    }
    fuzz::report("ran");
    return 0;
}
