#pragma once
// Exact boundaries for the two-way filter (cascade/twoway.h).
#include <cstdint>
#include <vector>

#include "cascade/boundary.h"

namespace cascade {

// Exact boundaries for the two-way filter (algebra/twoway.h, TwoWayEdges). Each half's first
// pass is the one-way recursion run from the line's end inward; under an extension it starts
// from every section's outputs at the two samples past that end, which are linear in the line:
// value k = 2n + d (section n, d + 1 samples past the end) of side s (0: before sample 0, the
// causal pass; 1: after sample N − 1, the anticausal one) is Σ_i weight(i, k, s)·x_i.
//
// Derived from the serial definition: with the recursion's state-space step s' = Φ·s + B·x (the
// outputs y_n(t), y_n(t − 1) of every section), the state past the end is Σ_{j≥0} Φ^j·B·x̃_j over
// the extension x̃ read away from the end; the extensions repeat with a period P (clamp 1,
// periodic N, reflect 2N, mirror 2N − 2), so the sum is (I − Φ^P)⁻¹ Σ_{j<P} Φ^j·B·x̃_j.
// Only the samples whose weights exceed 1e−10 of the largest are kept: the first `near` and the
// last `count − near` (all of them when that covers the line).
struct TwoWayEdgeWeights {
    int64_t near = 0, count = 0;
    std::vector<float> weights;  // (q, k, side), q fastest: sample q < near is x_q, else x_{N − count + q}
};

// `coefficients`: (gain, a1, a2) of each section, as the pipeline runs them. zero and none need
// none (count 0): the first passes start from zero there.
TwoWayEdgeWeights two_way_edges(const std::vector<float> &coefficients, int64_t n, Boundary boundary);

}  // namespace cascade
