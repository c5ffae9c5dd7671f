#pragma once
// The exact initial feedbacks (Nehab & Maximo 2016) that make a causal–anticausal filter computed
// on the line alone equal to the filter of the infinite extension (cascade/boundary.h).
//
// One dimension's filter is a cascade of sections of order q, causal then the same sections
// anticausally (as the variants run it); its state has K = S·q values. The pipelines first run it
// with zero initial feedbacks and read off the observables
//   e°   (K)  the causal state after the last sample (each section's last q outputs),
//   p1°  (K)  the anticausal state at the first sample (each section's first q outputs),
//   x_0, x_{n−1}  the edge samples;
// every extension's exact feedbacks (p, the causal state before sample 0, and e, the anticausal
// state after sample n − 1) are linear in them. Rather than carrying a formula per extension
// (the paper's eqs. 35, 44, 49, 51, 67, 72, none of which covers cascades or `mirror`), the map is
// solved for from the serial definition: the exact feedbacks of the infinite extension, in double
// (the steady state of each periodic side, runtime/design/boundary.cpp), are computed for random lines,
// and the map fitted on them and checked on others.
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/filter.h"

namespace cascade {

// Samples past which the impulse responses of `sections` have fallen below `epsilon` of their
// peak (from the largest pole magnitude, with a margin for repeated poles).
int64_t decay_length(const std::vector<RecursiveFilter> &sections, double epsilon);

// What a variant needs to make one dimension of n samples exact:
//   seeds   2K × (2K + 2): (p, e) = seeds · (e°, p1°, x_0, x_{n−1});
//   start   m_s × K: the dimension's output at sample i per unit of p_k, for i < m_s;
//   end     m_e × K: its output at sample n − 1 − i per unit of e_k, for i < m_e;
// where m_s, m_e ≤ n stop once the responses are negligible (below 1e−10 of their peak).
// Seed components no later step reads (the oldest outputs of a section whose last feedback
// coefficients are zero) are left zero.
struct BoundaryTables {
    Eigen::MatrixXd seeds, start, end;
};

// `sections`: one dimension's cascade, every section of the same order, the gain on the first.
// Throws cascade::Error when the extension has no exact feedbacks for this filter (the fit's
// check fails: reflect and mirror need the causal and anticausal passes to be mirror images, as
// they are here by construction, so this is a guard) or for boundary `none`.
BoundaryTables boundary_tables(const std::vector<RecursiveFilter> &sections, int64_t n, Boundary boundary);

// The same for the block-parallel variants with tiles of b (algebra/iir_tiled.h, TiledEdges):
//   seeds   as above;
//   start   (Ts·K) × 2K: rows t·K … of [Φ(t) Ψ_P(t)], what unit causal feedbacks add to the
//           prologue leaving tile t and to the epilogue entering it from tile t + 1;
//   end     (Te·K) × K: rows u·K … of Ψ_E(T − 2 − u), what unit anticausal feedbacks (entering at
//           the image's end) add to the epilogue entering tile T − 2 − u;
// for the tiles where they exceed 1e−10 of their peak (Ts, Te ≥ 1; zeros with a single tile).
BoundaryTables tiled_boundary_tables(const std::vector<RecursiveFilter> &sections, int64_t n, int b,
                                     Boundary boundary);

}  // namespace cascade
