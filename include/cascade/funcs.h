#pragma once
// Cascade's filters inside your own Halide pipeline (the library Cascade::funcs). Each call takes
// one of your Funcs, (x, y) or (x, y, c), and returns a Filtered whose func() has the same
// arguments; schedule() maps the filter's own stages with Cascade's schedules for your target
// (CPU or CUDA), so that it compiles into your one AOT library beside your stages.
//
//   Func blurred = cascade::funcs::gaussian(input, 4.0, cascade::Boundary::reflect, w, h, get_target())
//                      .schedule(get_target());
//
// Each call builds the realisation of `path` for the target it is given (schedule() takes the
// same target):
// - Path::blocked, on a CPU target: the row strips with overlapped column windows that the
//   prebuilt CPU variants run (algebra/iir_strips.h, docs/algorithms.md), with their schedule:
//   each strip's columns filtered over a window reaching `overlap` rows past it, then its rows,
//   strips in parallel, vectors across columns and rows. Exact boundaries read the extension at
//   folded rows and columns, no margin. Filters whose reach passes the strips' largest overlap
//   (a Gaussian past σ ≈ 56), deriche2/deriche4 and twoway Gaussians take the serial path.
// - Path::blocked, on a CUDA target: algorithm 6 (Nehab & Maximo 2016) with the prebuilt GPU
//   variants' schedule and tiles: the direct form of order 3 on tiles of 128 where it keeps float32's
//   accuracy (van Vliet's Gaussian), order 1 and sections of order 2 on tiles of 64;
//   the tile tables and the exact boundaries' initial-feedback tables computed when the generator
//   runs and embedded for every image size (2.6 MB of tile tables in the direct form, 0.9 MB in
//   sections, up to 0.7 MB of boundary tables), picked at run time by the image's size. Recursions with run-time coefficients read their tables from an input of your
//   pipeline instead (iir with `tables`, below); without it they take the serial path, as
//   deriche2/deriche4 and twoway do. Summed-area tables and the box: the prebuilt GPU tables'
//   tiled 2R1W (Kasagi et al. 2014), two reads of the input and one write.
// - Path::serial: every recursion one scan per line (a GPU thread or a CPU vector lane each),
//   exact boundaries by running it from `margin` samples past each edge, where its impulse
//   response has fallen below 1e−9 of its peak (cascade::margin_for, filter.h). Each axis is
//   extended only for its own passes. The margin grows with the filter's reach (210 samples for
//   van Vliet's Gaussian at σ = 4, 927 at σ = 24), so on small images a wide blur's exact
//   boundary costs several times `none`. The right path for lines much shorter than a strip.
// Both are exact to float32 rounding.
#include <Halide.h>

#include <memory>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"
#include "cascade/tile_tables.h"

namespace cascade::funcs {

// How a call realises its filter (above).
enum class Path { blocked, serial };

// One dimension's causal–anticausal pair in the project's convention (filter.h), coefficients as
// Halide expressions: constants (generator parameters) or run-time Inputs.
struct Recursion {
    Halide::Expr gain;
    std::vector<Halide::Expr> feedback;
    // How far the recursion reaches (margin_for): on the serial path the samples filtered past
    // each edge for boundaries other than none, on the blocked path the rows each strip's window
    // reaches past it. Left undefined it is derived from the coefficients when they are constants;
    // run-time coefficients need it given (but on the serial path under none), e.g. as an
    // Input<int> that the host sets to margin_for(filter).
    Halide::Expr margin;
};

// The filter's coefficients as constants, its margin derived (generator-time design).
Recursion constant(const RecursiveFilter &filter);

// A filter defined over your Func, and what schedules it.
class Filtered {
public:
    // The filtered image, with your Func's arguments, defined over [0, width) × [0, height) (what
    // lies outside is undefined). For a Func of (x, y, c) on the blocked path it is the filter's
    // last stage itself: make it your pipeline's output (`output = filtered.schedule(target)`)
    // and no pass copies it there. Otherwise a pure view of that stage: inline it into your next
    // stage or schedule it as one of yours.
    Halide::Func func() const;
    operator Halide::Func() const { return func(); }

    // Cascade's schedules for `target`, the target the call was given (CUDA when it has a GPU
    // feature), and the filter's result at the root. On the blocked path your input Func is
    // inlined into the strips' or tiles' first reads (compute a costly one at the root yourself)
    // and the strips or tiles run in parallel; on the serial path your input is computed once at the root
    // (the scans read it several times), and every recursive stage at the root, its lines in parallel (eight
    // per vector across the CPU's cores; one GPU thread per line). Returns func() for chaining. Throws
    // cascade::Error for a GPU target where the call was given a CPU one.
    Halide::Func schedule(const Halide::Target &target) const;

    // The same, the filter's last stage computed strip by strip inside `consumer` where the path
    // allows (the blocked path on a CPU): `consumer`, a Func of your (x, y) or (x, y, c) that reads
    // func() where it writes (your pipeline's output, say), then takes the strips' loop (rows in
    // strips of 256 in parallel, vectors across x), and no image-sized buffer holds the filter's
    // result between them. Elsewhere as schedule(target), `consumer` left to you.
    Halide::Func schedule(const Halide::Target &target, Halide::Func consumer) const;

    struct Stages;  // internal
    explicit Filtered(std::shared_ptr<Stages> stages) : stages_(std::move(stages)) {}

private:
    std::shared_ptr<Stages> stages_;
};

// The separable causal–anticausal filter: `vertical` down the columns, then `horizontal` along
// the rows (each of any order), over an image of width × height.
Filtered iir(Halide::Func input, const Recursion &vertical, const Recursion &horizontal, Boundary boundary,
             Halide::Expr width, Halide::Expr height, const Halide::Target &target,
             Path path = Path::blocked);

// The same, on a CUDA target's blocked path for recursions whose coefficients are known only at
// run time: algorithm 6 in the direct form (tiles of 128 to order 3, of 64 above, to order 31),
// reading its tables from `tables`, an input of your generator that the host fills with
// tile_tables() (cascade/tile_tables.h, in the runtime library and in this one) for the filters,
// the boundary and the image's size:
//
//   Input<Buffer<float>> tables{"tables", 3};   // beside Input<float> gain, feedbacks ...
//   Func out = funcs::iir(input, {gain, {a1, a2}}, {gain, {a1, a2}}, tables, Boundary::reflect,
//                         input.width(), input.height(), get_target()).schedule(get_target());
//
// `vertical` and `horizontal` must hold the coefficients the tables were made from; tables made
// for another image size or boundary are refused when the pipeline starts. Elsewhere (a CPU
// target, Path::serial, constant coefficients) `tables` is not read and the call is the one above.
Filtered iir(Halide::Func input, const Recursion &vertical, const Recursion &horizontal,
             const Halide::ImageParam &tables, Boundary boundary, Halide::Expr width, Halide::Expr height,
             const Halide::Target &target, Path path = Path::blocked);

// A Gaussian of standard deviation `sigma` by `method` (gaussian.h), designed at generator time.
Filtered gaussian(Halide::Func input, double sigma, GaussianMethod method, Boundary boundary,
                  Halide::Expr width, Halide::Expr height, const Halide::Target &target,
                  Path path = Path::blocked);
inline Filtered gaussian(Halide::Func input, double sigma, Boundary boundary, Halide::Expr width,
                         Halide::Expr height, const Halide::Target &target, Path path = Path::blocked) {
    return gaussian(input, sigma, GaussianMethod::vanvliet, boundary, width, height, target, path);
}

// The B-spline interpolation prefilter of odd `degree` 3 to 9 (bspline.h); scipy's
// spline_filter uses `mirror`.
Filtered bspline(Halide::Func input, int degree, Boundary boundary, Halide::Expr width, Halide::Expr height,
                 const Halide::Target &target, Path path = Path::blocked);

// The summed-area table V(x, y) = Σ_{x' ≤ x, y' ≤ y} input(x', y'), in `type` (exact for
// integer types wide enough for the sums). The blocked path: on a CPU the prebuilt CPU table's
// strips (algebra/sat_strips.h), on a GPU its tiles (algebra/sat_tiled.h); two reads of your input
// and one write either way.
Filtered summed_area_table(Halide::Func input, Halide::Expr width, Halide::Expr height,
                           const Halide::Target &target, Halide::Type type = Halide::Float(32),
                           Path path = Path::blocked);

// The mean of the (2·radius + 1)² window around each sample of the image extended by
// `boundary` (`none` is `zero`), summed in float64 so that wide images keep float32 accuracy. The
// blocked path: the summed-area table's of the extended image, four of its entries a mean; func()
// is that mean, a pure view (inline it into your stage, or schedule it as yours).
Filtered box(Halide::Func input, int radius, Boundary boundary, Halide::Expr width, Halide::Expr height,
             const Halide::Target &target, Path path = Path::blocked);

}  // namespace cascade::funcs
