#pragma once
// Lee, Park & Choi 2014's two-way partitioned recursive Gaussian ("Two-way partitioned recursive
// Gaussian filter", EURASIP J. Image and Video Processing 2014:33) as Halide Funcs.
//
// Each line of length L is cut at its centre m = ⌊L/2⌋ into a left half [0, m), the centre point
// m and a right half (m, L). First pass, in parallel: the left half runs its causal pass from its
// far end inward, the right half its anticausal pass from its far end inward, and the centre
// point takes the direct (FIR) Gaussian of the whole line. Second pass, in parallel: each half
// runs the opposite pass from the centre outward, its state at the centre seeded with the centre
// point's value, which stands in for the filtered samples on the other side (the paper's
// Figure 5). Exact at the centre, approximate beside it: the error is the seed's, decaying away
// from the centre with the recursion's impulse response.
//
// Both halves of a line are addressed by the distance j ≥ 1 from the centre and a side s (0 left,
// 1 right), so one Func and one scan serve both: its (j, s, o, c) samples are sample m ∓ j of
// line o, channel c.
#include <Halide.h>

#include <string>
#include <vector>

#include "algebra/recursive_filter.h"

namespace cascade {

// One recursive section with unit DC gain: y_j = gain·x_j − a1·y_{j∓1} − a2·y_{j∓2}. In steady
// state on a constant its output equals its input, which is what makes seeding every section's
// state with the centre value the paper's "the samples past the centre equal it".
struct TwoWaySection {
    Halide::Expr gain, a1, a2;
};

// Exact boundaries (runtime/design/twoway_edges.h, two_way_edges): each half's first pass starts from every
// section's outputs just past the line's end under the extension, as weights of the line's
// samples, and the centre point's taps read the extension.
struct TwoWayEdges {
    Halide::Func
        weights;         // (q, k, side): sample q's weight in value k (2n + d: section n, d + 1 past the end)
    Halide::Expr count;  // samples weighted: [0, near) and the last count − near
    Halide::Expr near;
    Halide::Expr boundary;  // the extension: algebra/boundary.h, FoldedBoundary
};

// The Funcs of one step (every line along one dimension), for the schedules.
struct TwoWayStep {
    Dim dim;
    Halide::Func centre;                        // (o, c): the direct Gaussian at each line's centre
    std::vector<Halide::Func> inward, outward;  // (j, s, o, c): each section of the two passes
    Halide::RDom centre_taps, inward_scan, outward_scan;
    Halide::Func edge_states;  // exact boundaries: (k, side, o, c), the weights applied
    Halide::RDom edge_samples;
    Halide::Func out;  // (x, y, c): the step's result
};

// `f` at position `position` of line `o` along `dim`.
Halide::Expr line_sample(Halide::Func f, Dim dim, Halide::Expr position, Halide::Expr o, Halide::Expr c);

// Centre point: the direct Gaussian of the whole line, (o, c), zero outside it or (`edges`) its
// extension; its taps are `taps`.
Halide::Func two_way_centre(const std::string &name, Halide::Func in, Dim dim, Halide::Expr extent,
                            Halide::Func kernel, Halide::Expr radius, const TwoWayEdges *edges,
                            Halide::RDom &taps);

// Defines `out` as the two-way filter of `in` along `dim`, over lines of `extent` samples; the
// centre point convolves with `kernel` (2K+1 taps, K = `radius`), zero outside the line unless
// `edges` gives the extension.
TwoWayStep two_way_step(Halide::Func out, Halide::Func in, Dim dim, Halide::Expr extent,
                        const std::vector<TwoWaySection> &sections, Halide::Func kernel, Halide::Expr radius,
                        const TwoWayEdges *edges = nullptr);

}  // namespace cascade
