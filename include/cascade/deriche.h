#pragma once
// Deriche's recursive Gaussians (R. Deriche, "Recursively implementing the Gaussian and its
// derivatives", INRIA research report 1893, 1993) in cascade form, so that the project's all-pole
// passes run them.
//
// Deriche writes each filter as a causal plus an anticausal recursion with feed-forward terms.
// The same transfer function is N(z) / (D(z)·D(1/z)), D(z) = Π (1 − p_k z⁻¹) over its r poles and
// N a symmetric Laurent polynomial of degree r − 1: a short symmetric FIR (the numerator) followed
// by the causal–anticausal all-pole pair with Deriche's poles (the denominator).
#include <vector>

#include "cascade/filter.h"

namespace cascade {

// A Gaussian as a numerator FIR and a causal–anticausal all-pole pair, in each dimension.
struct FirIirGaussian {
    std::vector<double> taps;  // odd length 2R+1, symmetric, centre at R, sum 1
    RecursiveFilter pass;      // unit DC gain; runs causal, then anticausal
};

// 2nd order: Deriche's smoothing kernel (1 + α|n|)·e^{−α|n|}, with α solved so that the sampled
// kernel's variance is exactly sigma²; a double real pole e^{−α} and 3 taps. Throws
// cascade::Error unless sigma is finite and in [0.5, 2000].
FirIirGaussian deriche2_gaussian(double sigma);
double deriche2_alpha(double sigma);

// Above this sigma float32 cannot hold the 4th-order cascade. Deriche's fitted kernel has a
// slight kink at 0 (h'(0+) = 0.0175/σ), so its spectrum falls like 1/ω² while the all-pole pair's
// falls like 1/ω⁸: the numerator's high-frequency gain grows like sigma⁶ (taps within ±0.7 at
// sigma 4, ±3 at 5, ±90 at 8, ±7000 at 16, ±4·10¹⁰ at 200), and the all-pole passes must cancel FIR outputs
// that much larger than the result. In 2D the float32 pipeline stays within ~3e-6 of its double reference up
// to sigma 4.5, reaches 1.2e-5 on a small image at 5, 3e-5 at 6, 1e-3 at 8, and is meaningless from 12 on
// (docs/gaussian.md).
constexpr double kDeriche4MaxSigma = 4;

// 4th order: Deriche's fit of the Gaussian exp(−n²/2σ²) by two damped cosine–sine pairs in
// |n|/σ (his published constants); two complex-conjugate pole pairs and 7 taps. The variance is
// 0.9955·sigma² (the fit's, not solved for). Throws cascade::Error unless sigma is finite and in
// [0.5, kDeriche4MaxSigma].
FirIirGaussian deriche4_gaussian(double sigma);
// The same design for any sigma > 0, for accuracy studies (tools/gaussian_accuracy.cpp): what
// float32 makes of it above kDeriche4MaxSigma is not a Gaussian.
FirIirGaussian deriche4_gaussian_unchecked(double sigma);

// The kernels as Deriche defines them, unnormalised, at sample n: what the cascades reproduce up
// to their scale.
double deriche2_kernel(double alpha, double n);
double deriche4_kernel(double sigma, double n);

}  // namespace cascade
