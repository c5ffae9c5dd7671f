#pragma once
// Exact boundaries (runtime/design/boundary_tables.h) as Halide Funcs: the zero-feedback passes of one
// dimension give up their observables, a run-time matrix turns them into the exact feedbacks,
// and tables of the dimension's responses to those feedbacks say what they add to each sample.
#include <Halide.h>

#include <string>
#include <vector>

#include "algebra/recursive_filter.h"

namespace cascade {

// A dimension's run-time tables: `matrix` (2K + 2, 2K), the map from observables to feedbacks;
// `start` (K, m_s) and `end` (K, m_e), the responses at the first m_s and last m_e samples (the
// latter counted from the end).
struct BoundaryInputs {
    Halide::Func matrix, start, end;
    Halide::Expr start_rows, end_rows;
};

// The run-time scalar a `_level` exact variant takes beside its tables: G, what the 2D filter
// makes of a constant image of 1 under extensions that keep a constant line constant (clamp,
// periodic, reflect, mirror), the only ones the runtime runs these variants with.
constexpr const char *kLevelGainInput = "level_gain";

// level(c): the level m a `_level` variant filters channel c about, the mean of an 8×8 grid of
// its samples. Under those extensions the filter of x − m is the filter of
// x minus m·G, so the variants filter x − m and add m·G back. Float32 recursions with poles near 1
// stall short of a steady state by ~ulp/(1 + Σa) of it (6e−4 at σ = 200); about the level a
// constant image stays constant, and any image's rounding scales with its distance from its mean.
Halide::Func image_level(Halide::Func samples, Halide::Expr width, Halide::Expr height);

// The extensions, numbered as include/cascade/boundary.h's Boundary is (the runtime passes that as
// the int a variant takes): zero, then those that fold a position back into the line.
constexpr int kZeroExtension = 1;
enum FoldedBoundary : int { kClamp = 2, kPeriodic = 3, kReflect = 4, kMirror = 5 };

// The sample of a line of n that position i holds under `boundary` (one of those, a constant or a
// run-time value), as include/cascade/boundary.h's extended_index. It ends in a clamp that changes nothing
// but lets Halide bound the result by [0, n − 1]: without it the FIR's reflected tap loads keep
// their own clamps (deriche2 reflect 1.314 ms at 8192² on an H100; without it 1.337).
Halide::Expr extended_index(Halide::Expr boundary, Halide::Expr i, Halide::Expr n);

// The sample that position i of the extended line reads, or −1 where the extension is zero (outside
// the line under kZeroExtension): the index an FIR's extended reads go through.
Halide::Expr extension_source(Halide::Expr boundary, Halide::Expr i, Halide::Expr n);

// The same for a position within one line's length of it (−n ≤ i < 2n): a single fold, a few selects
// and no division (the line strips' windows on signals at least a window long).
Halide::Expr extended_index_once(Halide::Expr boundary, Halide::Expr i, Halide::Expr n);

// That single fold for one extension `kind` (kPeriodic, kReflect or kMirror) at a position before
// the line (`before`: −n ≤ i < 0) or past it (n ≤ i < 2n): affine in i, so that a run of positions
// reads a dense vector, forwards (periodic) or reversed (reflect, mirror).
Halide::Expr folded_once(int kind, bool before, Halide::Expr i, Halide::Expr n);

// The run-time scalars an exact variant built with a margin also takes: it filters the image extended by
// `margin` samples past each edge — zeros, or with `margin_clamped` the edge samples repeated — and writes
// that larger image. Under the zero and clamp extensions that is the exact filter there too, which
// a filter run after it reads past the image's edges (Deriche's numerator, runtime/gaussian_blur.cpp).
constexpr const char *kMarginInput = "margin";
constexpr const char *kMarginClampedInput = "margin_clamped";

// `input` (W×H) seen with its margin: (W + 2·margin)×(H + 2·margin), its sample (x, y) that of the
// extension at (x − margin, y − margin).
struct WithMargin {
    Halide::Func samples;   // that, zero where the extension is
    Halide::Func repeated;  // the edge samples repeated everywhere: read in the window only
    Halide::Expr width, height;
    // The window [begin, x_end) × [begin, y_end) where `samples` is `repeated` (zero elsewhere): the
    // image, or with `clamped` the whole W + 2·margin.
    Halide::Expr begin, x_end, y_end;

    // Whether (x, y) lies in the window.
    Halide::Expr inside(Halide::Expr x, Halide::Expr y) const;
};
WithMargin with_margin(Halide::Func input, Halide::Type type, Halide::Expr width, Halide::Expr height,
                       Halide::Expr margin, Halide::Expr clamped);

// The names of an exact variant's six table inputs, in the order the runtime passes them:
// boundary_{y,x}_{matrix,start,end} (runtime/iir.cpp binds them by these names).
std::vector<std::string> boundary_input_names();

// feedbacks(s, across, c), s ∈ [0, 2K): the causal state before each line along `dim` (K),
// then the anticausal state after it (K), from the outputs of its zero-feedback sections
// (`causal`, `anticausal`, each of order q) and the line's edge samples in `input`.
Halide::Func exact_feedbacks(const std::string &name, const std::vector<Halide::Func> &causal,
                             const std::vector<Halide::Func> &anticausal, Halide::Func input, Dim dim,
                             Halide::Expr extent, int q, const BoundaryInputs &tables);

// `out` (x, y, c): `in` (plus `offset`(c) where defined) with what the feedbacks add near both
// ends of each line along `dim`: a copy, then two updates over the first m_s and the last m_e samples of
// every line (the start and end tables' rows), which the schedule maps across the lines.
struct CorrectedLines {
    Halide::Func func;
    Dim dim;
};
CorrectedLines add_boundary_correction(Halide::Func out, Halide::Func in, Halide::Func feedbacks,
                                       const BoundaryInputs &tables, int K, Dim dim, Halide::Expr extent,
                                       Halide::Func offset = Halide::Func());

}  // namespace cascade
