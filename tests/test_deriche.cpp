// Deriche's Gaussians in cascade form: the numerator FIR and the all-pole pair reproduce his
// kernels exactly, with unit DC gain, the variance asked for and the fit's distance to a Gaussian.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>

#include "cascade/deriche.h"
#include "cascade/error.h"
#include "reference.h"
#include "test_support.h"

namespace cascade {
namespace {

// The cascade's impulse response in double: the FIR, then the causal–anticausal pair, on a
// signal long enough for it to decay.
Eigen::VectorXd impulse_response(const FirIirGaussian &g, int half) {
    reference::Matrix x = reference::Matrix::Zero(2 * half + 1, 1);
    x(half, 0) = 1.0;
    const reference::Matrix n = reference::fir_2d(g.taps, {1.0}, x);
    auto zeros = reference::Matrix::Zero(g.pass.order(), 1);
    return reference::anticausal(g.pass, reference::causal(g.pass, zeros, n), zeros);
}

// The kernel sampled on the same support, scaled to sum 1.
Eigen::VectorXd sampled(const std::function<double(double)> &kernel, int half) {
    Eigen::VectorXd h(2 * half + 1);
    for (int i = 0; i < h.size(); i++) h(i) = kernel(i - half);
    return h / h.sum();
}

double variance(const Eigen::VectorXd &h, int half) {
    double v = 0;
    for (int i = 0; i < h.size(); i++) v += h(i) * double(i - half) * double(i - half);
    return v / h.sum();
}

double distance_to_gaussian(const Eigen::VectorXd &h, int half, double sigma) {
    Eigen::VectorXd g = sampled([sigma](double n) { return std::exp(-0.5 * n * n / (sigma * sigma)); }, half);
    return (h - g).norm() / g.norm();
}

void expect_symmetric_unit_sum(const FirIirGaussian &g) {
    double sum = 0;
    for (size_t k = 0; k < g.taps.size(); k++) {
        EXPECT_EQ(g.taps[k], g.taps[g.taps.size() - 1 - k]);
        sum += g.taps[k];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_NEAR(g.pass.gain, unit_dc_gain(g.pass.feedback), 1e-15);
    EXPECT_NO_THROW(require_stable(g.pass));
}

class Deriche2 : public ::testing::TestWithParam<double> {};

TEST_P(Deriche2, ReproducesTheKernelWithVarianceSigmaSquared) {
    const double sigma = GetParam();
    const FirIirGaussian g = deriche2_gaussian(sigma);
    ASSERT_EQ(g.taps.size(), 3u);
    ASSERT_EQ(g.pass.order(), 2);
    expect_symmetric_unit_sum(g);
    const int half = int(std::ceil(30 * sigma)) + 20;
    const Eigen::VectorXd h = impulse_response(g, half);
    const double alpha = deriche2_alpha(sigma);
    const Eigen::VectorXd k = sampled([alpha](double n) { return deriche2_kernel(alpha, n); }, half);
    EXPECT_LT((h - k).norm() / k.norm(), 1e-8) << "sigma " << sigma;
    EXPECT_NEAR(h.sum(), 1.0, 1e-9);
    EXPECT_NEAR(variance(h, half), sigma * sigma, 1e-6 * sigma * sigma);
    const double error = distance_to_gaussian(h, half, sigma);
    // The kernel's own shape: with the Gaussian's variance its peak is 25% higher (1/2σ against
    // 1/√(2π)σ) and its tails heavier: 19.9% at sigma 1, 16.6% at 2, 16.2% beyond
    // (docs/gaussian.md). At sigma 0.5 both are nearly a single sample.
    std::printf("deriche2 sigma %g: relative L2 to the sampled Gaussian %.4f\n", sigma, error);
    EXPECT_LT(error, sigma > 1 ? 0.167 : 0.2) << "sigma " << sigma;
}

INSTANTIATE_TEST_SUITE_P(Sigmas, Deriche2, ::testing::Values(0.5, 1.0, 2.0, 3.7, 10.0, 50.0, 200.0, 2000.0));

class Deriche4 : public ::testing::TestWithParam<double> {};

TEST_P(Deriche4, ReproducesTheFitCloseToAGaussian) {
    const double sigma = GetParam();
    const FirIirGaussian g = deriche4_gaussian(sigma);
    ASSERT_EQ(g.taps.size(), 7u);
    ASSERT_EQ(g.pass.order(), 4);
    expect_symmetric_unit_sum(g);
    const int half = int(std::ceil(30 * sigma)) + 20;
    const Eigen::VectorXd h = impulse_response(g, half);
    const Eigen::VectorXd k = sampled([sigma](double n) { return deriche4_kernel(sigma, n); }, half);
    EXPECT_LT((h - k).norm() / k.norm(), 1e-8) << "sigma " << sigma;
    EXPECT_NEAR(h.sum(), 1.0, 1e-9);
    // The fit's own variance: 0.9955·sigma² once sampling no longer matters (sigma ≥ 1).
    if (sigma >= 1) EXPECT_NEAR(variance(h, half) / (sigma * sigma), 0.9955, 0.001) << "sigma " << sigma;
    const double error = distance_to_gaussian(h, half, sigma);
    std::printf("deriche4 sigma %g: relative L2 to the sampled Gaussian %.2e\n", sigma, error);
    EXPECT_LT(error, 6e-4) << "sigma " << sigma;
}

INSTANTIATE_TEST_SUITE_P(Sigmas, Deriche4, ::testing::Values(0.5, 1.0, 2.0, 3.7, kDeriche4MaxSigma));

TEST(Deriche, RejectsSigmaOutOfRange) {
    for (double sigma : {0.0, -1.0, 0.49, double(NAN), double(INFINITY), 5000.0}) {
        EXPECT_THROW(deriche2_gaussian(sigma), Error) << sigma;
        EXPECT_THROW(deriche4_gaussian(sigma), Error) << sigma;
    }
    EXPECT_THROW(deriche4_gaussian(kDeriche4MaxSigma * 1.01), Error);
    try {
        deriche4_gaussian(50);
        FAIL() << "sigma 50 accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("deriche4"), std::string::npos) << e.what();
    }
}

TEST(ReferenceFir, IsSeparableAndZeroOutside) {
    // An impulse near a corner spreads into the outer product of the (reversed) taps, cut at the edges.
    const std::vector<double> v{0.25, 0.5, 0.125}, h{-1, 2, 3, 4, 5};
    reference::Matrix x = reference::Matrix::Zero(4, 5);
    x(0, 1) = 1.0;
    const reference::Matrix y = reference::fir_2d(v, h, x);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++) {
            // out(y) = Σ_k taps[k]·in(y + k − R): the impulse at (0, 1) reaches (r, c) through
            // taps 1 − r (down) and 3 − c (along).
            const int dv = 1 - r, dh = 3 - c;
            const double expected = (dv >= 0 && dv < 3 && dh >= 0 && dh < 5) ? v[dv] * h[dh] : 0.0;
            EXPECT_DOUBLE_EQ(y(r, c), expected) << r << "," << c;
        }
}

}  // namespace
}  // namespace cascade
