#pragma once
// Exact recursions across the chunks of a line: for data held in pieces (a Dask array's chunks,
// tiles on several GPUs or machines), each piece filtered on its own and corrected by a few values
// per line that cross the pieces' edges, never the pieces themselves (docs/dask.md).
//
// The causal–anticausal recursion of a RecursiveFilter (c[i] = gain·x[i] − Σ_k a_k·c[i−k], then
// y[i] = gain·c[i] − Σ_k a_k·y[i+k], as IirPlan runs it along each axis) on a chunk of n samples of
// a longer line is its result from zero state y0 plus its response to the r states that enter from
// the left, U = c[−r..−1], and the r that enter from the right, V = y[n..n+r−1]:
//
//   const std::vector<int> lengths = {300, 700};            // a line of 1000 in two chunks
//   std::vector<double> summaries(2 * width), states(2 * 2 * r);
//   summarize_chunk(f, Boundary::reflect, x, 300, 1, true, false, &summaries[0]);
//   summarize_chunk(f, Boundary::reflect, x + 300, 700, 1, false, true, &summaries[width]);
//   solve_carries(f, Boundary::reflect, lengths, summaries.data(), 1, states.data());
//   recurse_from_states(f, &states[0], x, y, 300, 1);        // each chunk where it lives
//   recurse_from_states(f, &states[2 * r], x + 300, y + 300, 700, 1);
//
// equals the whole line under reflect. Every mode: none, zero, clamp, and the periodic ones solved
// around the line (periodic), the line and its mirror image (reflect, 2N), or 2N − 2 (mirror).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/filter.h"

namespace cascade {

// The matrices of a chunk of n samples, row-major, float64.
struct ChunkCarries {
    int n = 0, r = 0;
    // n × r. e = Σ_i x[i]·we[i, :] is the causal pass's last r samples from zero state (c0[n−r..n−1]),
    // h = Σ_i x[i]·wh[i, :] the zero-state result's first r (y0[0..r−1], zeros past n);
    // y = y0 + gu·U + gv·V.
    std::vector<double> we, wh, gu, gv;
    // r × r. The states the chunk hands on: U' = lc·U + e to the right, V' = mu·U + mv·V + h to the left.
    std::vector<double> lc, mu, mv;
};
ChunkCarries chunk_carries(const RecursiveFilter &filter, int n);

// Samples past which the filter's recursion has decayed below 1e-20 (at most 2^20).
int carry_reach(const RecursiveFilter &filter);

// The values a chunk reports per line: e and h; for reflect and mirror the same of the chunk's
// mirror image (reversed; under mirror less the line's first and last samples); for clamp the
// chunk's first and last samples.
int carry_summary_width(int order, Boundary boundary);

// One line of a chunk: its n samples `x` (`stride` apart; `first`, `last`: whether the chunk starts
// or ends the line) → `summary` (carry_summary_width values). `lines` > 1: that many lines side by
// side (line l's samples at x + l), their summaries one after another.
void summarize_chunk(const RecursiveFilter &filter, Boundary boundary, const double *x, int n,
                     std::ptrdiff_t stride, bool first, bool last, double *summary, int64_t lines = 1);

// Every chunk's entering states, U then V (2r values a chunk), for `lines` lines at once from their
// chunks' summaries: summaries[line][chunk][width] in, states[line][chunk][2r] out.
void solve_carries(const RecursiveFilter &filter, Boundary boundary, const std::vector<int> &lengths,
                   const double *summaries, int64_t lines, double *states);

// A recursion started from given states (U, V): one line of a chunk's exact result y from its
// samples x (n of each, `stride` apart; y may be x). `lines` > 1: that many lines side by side
// (line l at x + l and y + l), each with its own 2r states one after another.
void recurse_from_states(const RecursiveFilter &filter, const double *states, const double *x, double *y,
                         int n, std::ptrdiff_t stride, int64_t lines = 1);

}  // namespace cascade
