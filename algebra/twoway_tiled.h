#pragma once
// The two-way partitioned Gaussian (twoway.h) computed block-parallel, for the GPU: the same
// filter, each half line cut into blocks of b samples counted from the centre, its two passes
// completed across the blocks by the carry algebra of Nehab et al. 2011's algorithm 3.
//
// The left half holds the samples before the centre m, the right half m itself and those after:
// sample i of block t of a half is the (t·b + i)-th from the centre (m − 1 − (t·b + i) on the
// left, m + t·b + i on the right), and samples past the half's end are zero. Both halves thus
// share one block grid, which falls on whole 128-byte lines where m is a multiple of b (every
// even power of two), so that the steps' loads and stores are aligned. On the right half's first
// sample, the centre, every section's outward output is set to the seed instead of scanned.
// Per block, with the sections' states as K values (section σ's outputs d + 1 samples before the
// scan's first, d < 2 for a second-order section, d = 0 for a first-order one, whose a2 is the
// constant zero: van Vliet's real pole keeps one state, not two):
//   1. `edges`: the inward scan (i falling) from a zero state and the outward scan (i rising)
//      of its result from a zero state; their leaving states Ā(t) and B̄(t);
//   2. the carries: A(t), the state entering block t from block t + 1, and B(t), entering it
//      from block t − 1:
//        A(T − 1) = 0,  A(t) = Ā(t + 1) + M·A(t + 1),
//        B(0) = the centre value in every state (the paper's seed),
//        B(t) = B̄(t − 1) + M·B(t − 1) + Mc·A(t − 1),
//      M the state after b steps from a unit state with zero input (the same both ways: the
//      passes share their coefficients), Mc what the inward entering state adds to the outward
//      leaving state (on the right half's first block, whose outward scan starts at its second
//      sample, those of b − 1 steps); both recurrences completed by tile_scans.h's chunked scans,
//      the half lines (s, o, c) as its lines (o) and channels (s + 2c);
//   3. the inward scan seeded with A(t), the outward scan of it seeded with B(t), stored.
// Aligning the blocks to the centre puts the seed on a block's edge and a half's far end where a
// zero state over zero samples is exact, so no block is scanned twice.
#include <Halide.h>

#include <string>
#include <vector>

#include "algebra/tile_scans.h"
#include "contract/tiled_layout.h"
#include "algebra/twoway.h"

namespace cascade {

// The blocks' matrices from the sections, in a table laid out as contract/tiled_layout.h's, so
// that tile_scans.h completes the carries: M at rows mf() and mr(), M^(v+1) at the powers' rows,
// Mc at rows mc(0). `unit_in` (i, σ, k) scans a block inward from each unit state k, zero
// samples (M: its leaving states); `unit_out` (i, σ, k) scans that result outward from a zero
// state (Mc); `powers` (r, k, v) holds M^(v+1), by products over `power_steps` (r, v).
struct TwoWayBlockMatrices {
    Halide::Func table, unit_in, unit_out, unit_out_tail, powers;
    Halide::RDom unit_in_scan, unit_out_scan, unit_out_tail_scan, power_steps;
    int b = 0, K = 0;
    // Past the layout's rows, the right half's first block's M and Mc: b − 1 steps, from its
    // second sample (its first, the centre, set to the seed).
    int first_right() const;
    int rows() const;  // the table's
};

TwoWayBlockMatrices two_way_block_matrices(const std::string &name,
                                           const std::vector<TwoWaySection> &sections, int b);

// The Funcs of one step, for the schedules. Scans are (i, σ, t, s, o, c); carries (k, t, s, o, c).
struct TwoWayTiledStep {
    Dim dim;
    int b = 0, K = 0;
    Halide::Func centre;  // (o, c): the direct Gaussian at each line's centre
    Halide::RDom centre_taps;
    Halide::Func samples;            // (i, t, s, o, c): the half lines' samples, zero past their ends
    Halide::Func edge_in, edge_out;  // step 1's scans
    Halide::RDom edge_in_scan, edge_out_scan;
    Halide::Func edges;  // (k, t, s, o, c): Ā for k < K, then B̄
    // A, completed backwards as tile_scans.h's epilogues, and P(t) = B(t + 1), forwards as its
    // prologues, in its (line o, state, block, s + 2c).
    CarryScan inward, outward;
    Halide::Func carries;              // both, completed_carries: A for states < K, then P
    Halide::Func final_in, final_out;  // step 3's scans; final_out at σ = S − 1 is the result
    Halide::RDom final_in_scan, final_out_scan;
    Halide::Func folded;   // (i, t, s, o, c): the step's result on the half lines (read by `out`)
    Halide::Func out;      // (x, y, c)
    Halide::RDom written;  // where `out` is scattered: (i, t, s) over its update
};

// Defines `out` as twoway.h's two_way_step (boundary none) over lines of `extent` samples:
// gathered from the blocks where read, or with `scatter` (a pipeline's output) written from them
// by its update.
// `lines`: the lines' count (the extent across `dim`).
TwoWayTiledStep two_way_tiled_step(Halide::Func out, Halide::Func in, Dim dim, Halide::Expr extent,
                                   Halide::Expr lines, const std::vector<TwoWaySection> &sections,
                                   Halide::Func kernel, Halide::Expr radius,
                                   const TwoWayBlockMatrices &matrices, int b, bool scatter = false);

}  // namespace cascade
