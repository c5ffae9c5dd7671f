#pragma once
// The design of Lee, Park & Choi 2014's two-way partitioned recursive Gaussian
// (generators/twoway.h): each line is cut at its centre; the halves run the recursion from their
// far ends inward, then from the centre outward seeded with the centre point, whose value is the
// direct convolution with a sampled Gaussian. An approximation by design: docs/gaussian.md.
#include <cstdint>
#include <vector>

#include "boundary.h"
#include "filter.h"

namespace cascade {

struct TwoWayGaussian {
    // The recursion: van Vliet et al.'s Gaussian (the paper uses Young & van Vliet's 1995
    // version of the same 3-pole form) as sections of order ≤ 2, each with unit DC gain, so that
    // seeding every section's state with the centre value means "the signal is that constant
    // past the centre", as the paper's seeding of the last three outputs does.
    std::vector<RecursiveFilter> sections;
    // The centre point's Gaussian, exp(−k²/2σ²) for |k| ≤ ⌈4σ⌉, scaled to sum 1. The paper uses
    // a window of 2σ, which cuts the Gaussian at ±σ; ±4σ leaves 6e-5 of it out.
    std::vector<double> kernel;
};

// Throws cascade::Error unless sigma is finite and in [0.5, 2000].
TwoWayGaussian two_way_gaussian(double sigma);

// Exact boundaries for the two-way filter (generators/twoway.h, TwoWayEdges). Each half's first
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
