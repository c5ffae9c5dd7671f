// B-spline prefilters: their poles, and that they invert sampling through the B-spline.
#include <gtest/gtest.h>

#include <cmath>

#include "cascade/bspline.h"
#include "cascade/error.h"
#include "reference.h"
#include "test_support.h"

namespace cascade {
namespace {

TEST(BSpline, SamplesAreTheKnownKernels) {
    auto cubic = bspline_samples(3);
    ASSERT_EQ(cubic.size(), 3u);
    EXPECT_NEAR(cubic[0], 1.0 / 6, 1e-15);
    EXPECT_NEAR(cubic[1], 4.0 / 6, 1e-15);
    auto quintic = bspline_samples(5);
    ASSERT_EQ(quintic.size(), 5u);
    const double expected[] = {1, 26, 66, 26, 1};
    for (int k = 0; k < 5; k++) EXPECT_NEAR(quintic[k], expected[k] / 120, 1e-15);
}

TEST(BSpline, PolesMatchTheClosedForms) {
    // Cubic: z = √3 − 2. Quintic: z + 1/z = −13 ± √105.
    auto cubic = poles(bspline_prefilter(3));
    ASSERT_EQ(cubic.size(), 1u);
    EXPECT_NEAR(cubic[0].real(), std::sqrt(3.0) - 2, 1e-12);
    auto quintic = poles(bspline_prefilter(5));
    ASSERT_EQ(quintic.size(), 2u);
    for (auto p : quintic) {
        const double w = p.real() + 1 / p.real();
        EXPECT_TRUE(std::abs(w - (-13 + std::sqrt(105.0))) < 1e-9 ||
                    std::abs(w - (-13 - std::sqrt(105.0))) < 1e-9)
            << p;
    }
}

// Prefilter a long signal, sample the spline back through β(k): away from the zero-padded ends,
// where the edge error has decayed by |z|^distance, the input comes back.
TEST(BSpline, PrefilterInvertsSamplingInTheInterior) {
    auto rng = testing::rng_for_test();
    for (int degree : {3, 5, 7, 9}) {
        RecursiveFilter f = bspline_prefilter(degree);
        const int n = 400, margin = 120;
        reference::Matrix x = testing::random_matrix(rng, n, 1);
        auto zeros = reference::Matrix::Zero(f.order(), 1);
        reference::Matrix coefficients = reference::anticausal(f, reference::causal(f, zeros, x), zeros);
        const auto beta = bspline_samples(degree);
        const int m = degree / 2;
        double worst = 0;
        for (int i = margin; i < n - margin; i++) {
            double value = 0;
            for (int k = -m; k <= m; k++) value += beta[k + m] * coefficients(i + k, 0);
            worst = std::max(worst, std::abs(value - x(i, 0)));
        }
        EXPECT_LT(worst, 1e-10) << "degree " << degree;
    }
}

TEST(BSpline, RejectsDegreesItDoesNotHave) {
    for (int degree : {-1, 0, 1, 2, 4, 11}) EXPECT_THROW(bspline_prefilter(degree), Error) << degree;
}

}  // namespace
}  // namespace cascade
