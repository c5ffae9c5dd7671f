#pragma once
// Cascade's filters inside your own Halide pipeline (the library Cascade::funcs). Each call takes
// one of your Funcs, (x, y) or (x, y, c), and returns a Filtered whose func() has the same
// arguments; schedule() maps the filter's own stages with Cascade's schedules for your target
// (CPU or CUDA), so that it compiles into your one AOT library beside your stages.
//
//   Func blurred = cascade::funcs::gaussian(input, 4.0, cascade::Boundary::reflect, w, h)
//                      .schedule(get_target());
//
// Exact boundaries: the filter of the image extended past its edges (boundary.h), computed by
// running every recursion from `margin` samples past each edge, where its impulse response has
// fallen below 1e−9 of its peak (cascade::margin_for, filter.h): exact to float32 rounding. Each
// axis is extended only for its own passes. The margin grows with the filter's reach (210 samples
// for van Vliet's Gaussian at σ = 4, 927 at σ = 24), so on small images a wide blur's exact
// boundary costs several times `none`, which reads nothing past the edges.
#include <Halide.h>

#include <memory>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"

namespace cascade::funcs {

// One dimension's causal–anticausal pair in the project's convention (filter.h), coefficients as
// Halide expressions: constants (generator parameters) or run-time Inputs.
struct Recursion {
    Halide::Expr gain;
    std::vector<Halide::Expr> feedback;
    // Samples filtered past each edge for boundaries other than none (margin_for). Left undefined
    // it is derived from the coefficients when they are constants; run-time coefficients need it
    // given, e.g. as an Input<int> that the host sets to margin_for(filter).
    Halide::Expr margin;
};

// The filter's coefficients as constants, its margin derived (generator-time design).
Recursion constant(const RecursiveFilter &filter);

// A filter defined over your Func, and what schedules it.
class Filtered {
public:
    // The filtered image, with your Func's arguments, defined over [0, width) × [0, height) (what
    // lies outside is undefined). A pure view of the filter's last stage: inline it into your
    // next stage or schedule it as one of yours.
    Halide::Func func() const;
    operator Halide::Func() const { return func(); }

    // Cascade's schedules for `target` (CUDA when it has a GPU feature): your input Func is
    // computed once at the root (the scans read its samples past the edges several times), and
    // every recursive stage at the root, its lines in parallel (eight per vector across the CPU's
    // cores; one GPU thread per line). Returns func() for chaining.
    Halide::Func schedule(const Halide::Target &target) const;

    struct Stages;  // internal
    explicit Filtered(std::shared_ptr<Stages> stages) : stages_(std::move(stages)) {}

private:
    std::shared_ptr<Stages> stages_;
};

// The separable causal–anticausal filter: `vertical` down the columns, then `horizontal` along
// the rows (each of any order), over an image of width × height.
Filtered iir(Halide::Func input, const Recursion &vertical, const Recursion &horizontal, Boundary boundary,
             Halide::Expr width, Halide::Expr height);

// A Gaussian of standard deviation `sigma` by `method` (gaussian.h), designed at generator time.
Filtered gaussian(Halide::Func input, double sigma, GaussianMethod method, Boundary boundary,
                  Halide::Expr width, Halide::Expr height);
inline Filtered gaussian(Halide::Func input, double sigma, Boundary boundary, Halide::Expr width,
                         Halide::Expr height) {
    return gaussian(input, sigma, GaussianMethod::vanvliet, boundary, width, height);
}

// The B-spline interpolation prefilter of odd `degree` 3 to 9 (bspline.h); scipy's
// spline_filter uses `mirror`.
Filtered bspline(Halide::Func input, int degree, Boundary boundary, Halide::Expr width, Halide::Expr height);

// The summed-area table V(x, y) = Σ_{x' ≤ x, y' ≤ y} input(x', y'), in `type` (exact for
// integer types wide enough for the sums).
Filtered summed_area_table(Halide::Func input, Halide::Expr width, Halide::Expr height,
                           Halide::Type type = Halide::Float(32));

// The mean of the (2·radius + 1)² window around each sample of the image extended by
// `boundary` (`none` is `zero`), summed in float64 so that wide images keep float32 accuracy.
Filtered box(Halide::Func input, int radius, Boundary boundary, Halide::Expr width, Halide::Expr height);

}  // namespace cascade::funcs
