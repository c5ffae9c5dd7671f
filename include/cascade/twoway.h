#pragma once
// The design of Lee, Park & Choi 2014's two-way partitioned recursive Gaussian:
// each line is cut at its centre; the halves run the recursion from their
// far ends inward, then from the centre outward seeded with the centre point, whose value is the
// direct convolution with a sampled Gaussian. An approximation by design: docs/gaussian.md.
#include <vector>

#include "cascade/filter.h"

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

}  // namespace cascade
