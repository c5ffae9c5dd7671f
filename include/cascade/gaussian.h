#pragma once
// Recursive approximations of the Gaussian: filter design from sigma.
#include <string>
#include <vector>

#include "cascade/filter.h"

namespace cascade {

// vanvliet: van Vliet, Young & Verbeek's all-pole 3rd order (gaussian.h). deriche2, deriche4:
// Deriche's 2nd and 4th order in cascade form (deriche.h): an FIR numerator pass, then the
// all-pole passes. twoway: Lee et al.'s two-way partitioned filter (twoway.h), an approximation
// of vanvliet with twice its parallelism per line.
enum class GaussianMethod { vanvliet, deriche2, deriche4, twoway };

// "vanvliet", "deriche2", "deriche4", "twoway"
GaussianMethod parse_gaussian_method(const std::string &text);
std::vector<std::string> gaussian_method_names();
const char *gaussian_method_name(GaussianMethod method);

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
