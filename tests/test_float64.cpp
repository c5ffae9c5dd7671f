// float64 samples through float64 pipelines: every boundary and order against the float64
// reference, where float32 pipelines hold 1e-5: the B-spline prefilters to 1e-12, random filters of
// order ≤ 8 with poles to 0.9 to 2e-11 (the exact boundaries' tables lose a few digits to their
// conditioning: 7.7e-12 at worst on this suite, reflect, order 4, 257x193).
#include <HalideBuffer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "cascade/bspline.h"
#include "cascade/error.h"
#include "cascade/iir.h"
#include "cascade/planes.h"
#include "cuda_support.h"
#include "reference.h"
#include "strips.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

using testing::random_stable_filter;
using testing::relative_l2;
using testing::rng_for_test;

struct Size {
    int width, height;
};
// Single samples, rows and columns, primes, off the 64-sample tile, long and thin.
const Size kSizes[] = {{1, 1}, {3, 5}, {37, 1}, {1, 37}, {31, 29}, {65, 64}, {257, 193}, {700, 3}, {3, 700}};

struct Case {
    DeviceChoice device;
    Boundary boundary;
};

class Float64Test : public testing::DeviceTest<Case> {};

TEST_P(Float64Test, EveryOrderMatchesTheFloat64Reference) {
    const Case &p = GetParam();
    auto rng = rng_for_test();
    std::uniform_real_distribution<double> sample(-1.0, 1.0);
    // Up to 4 sections, the float64 variants' most: order 8 in complex pairs.
    for (int order : {1, 2, 3, 4, 8}) {
        for (Size size : kSizes) {
            const int channels = size.width % 2 ? 1 : 2;
            const bool complex_poles = order == 8 || (order >= 2 && size.height % 2);
            const Filter2D filter{random_stable_filter(rng, order, 0.9, complex_poles),
                                  random_stable_filter(rng, order, 0.9, complex_poles)};
            Halide::Runtime::Buffer<double> input(size.width, size.height, channels),
                output(size.width, size.height, channels);
            input.for_each_value([&](double &v) { v = sample(rng); });
            output.fill(std::numeric_limits<double>::quiet_NaN());
            IirOptions options;
            options.boundary = p.boundary;
            options.device = p.device;
            ASSERT_TRUE(iir_2d(input.raw_buffer(), output.raw_buffer(), filter, options))
                << "no float64 variant for order " << order;
            for (int c = 0; c < channels; c++) {
                Eigen::MatrixXd x(size.height, size.width), y(size.height, size.width);
                for (int j = 0; j < size.height; j++)
                    for (int i = 0; i < size.width; i++) {
                        x(j, i) = input(i, j, c);
                        y(j, i) = output(i, j, c);
                    }
                EXPECT_LE(relative_l2(y, reference::filter_2d(filter, x, p.boundary)), 2e-11)
                    << boundary_name(p.boundary) << " order " << order << " " << size.width << "x"
                    << size.height << " channel " << c;
            }
        }
    }
}

// On the CPU the float64 plans run the strips wherever float32's do, their windows reaching far
// enough for float64 (strips.h): the spline prefilter's pole −0.268, 28 rows against 16.
TEST(Float64Strips, TheCpuRunsTheStripsWithFloat64Overlaps) {
    const RecursiveFilter f = bspline_prefilter(3);
    EXPECT_GT(strips_overlap({f}, kStripsTailFloat64), strips_overlap({f}));
    for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                              Boundary::reflect, Boundary::mirror}) {
        IirOptions options;
        options.boundary = boundary;
        options.device = DeviceChoice::cpu;
        const IirPlan plan({f, f}, 257, 193, options, SampleType::f64);
        EXPECT_EQ(plan.variant().key.family, Family::iir_strips) << boundary_name(boundary);
        EXPECT_EQ(plan.variant().key.samples, "f64") << boundary_name(boundary);
    }
}

// The B-spline prefilters of degree 7 and 9 have poles within 1e-2 of −1 that a float32 pipeline
// runs about the image's level; float64 needs no level and keeps 1e-12.
TEST_P(Float64Test, BSplinePrefiltersKeepFloat64Accuracy) {
    const Case &p = GetParam();
    if (p.boundary == Boundary::none) GTEST_SKIP() << "the prefilters are defined with an extension";
    auto rng = rng_for_test();
    std::uniform_real_distribution<double> sample(0.0, 1.0);
    for (int degree : {3, 5, 7, 9}) {
        const RecursiveFilter f = bspline_prefilter(degree);
        const Filter2D filter{f, f};
        Halide::Runtime::Buffer<double> input(131, 67, 1), output(131, 67, 1);
        input.for_each_value([&](double &v) { v = sample(rng); });
        output.fill(std::numeric_limits<double>::quiet_NaN());
        IirOptions options;
        options.boundary = p.boundary;
        options.device = p.device;
        ASSERT_TRUE(iir_2d(input.raw_buffer(), output.raw_buffer(), filter, options));
        Eigen::MatrixXd x(67, 131), y(67, 131);
        for (int j = 0; j < 67; j++)
            for (int i = 0; i < 131; i++) {
                x(j, i) = input(i, j, 0);
                y(j, i) = output(i, j, 0);
            }
        EXPECT_LE(relative_l2(y, reference::filter_2d(filter, x, p.boundary)), 1e-12) << "degree " << degree;
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                                  Boundary::reflect, Boundary::mirror})
            cases.push_back({device, boundary});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    return std::string(info.param.device == DeviceChoice::cuda ? "cuda" : "cpu") + "_" +
           boundary_name(info.param.boundary);
}

INSTANTIATE_TEST_SUITE_P(Float64, Float64Test, ::testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace cascade
