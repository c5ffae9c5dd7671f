#pragma once
// Recursive approximations of the Gaussian: filter design from sigma.
#include "filter.h"

namespace cascade {

// van Vliet, Young & Verbeek 1998, 3rd order: one causal and one anticausal pass per dimension
// with three poles each, unit DC gain, impulse-response variance exactly sigma². Throws
// cascade::Error unless sigma is finite and in [0.5, 2000].
RecursiveFilter van_vliet_gaussian(double sigma);

// exp(−k²/2σ²) for k = −radius … radius, scaled to sum 1: the Gaussian the recursive ones
// approximate, as a direct convolution.
std::vector<double> sampled_gaussian(double sigma, int radius);

// Variance of the symmetric causal–anticausal pair with `filter`'s poles: Σ 2p/(1−p)².
double pair_variance(const RecursiveFilter &filter);

}  // namespace cascade
