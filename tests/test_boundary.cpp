// Exact boundaries through the pipelines: every extension, against the float64 reference that
// writes the extension out past the filter's decay (reference::filter_2d with a boundary).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cuda_support.h"
#include "error.h"
#include "gaussian_blur.h"
#include "iir.h"
#include "reference.h"
#include "test_support.h"

namespace cascade {
namespace {

using testing::random_image;
using testing::random_stable_filter;
using testing::relative_l2;
using testing::rng_for_test;

const Boundary kExact[] = {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect,
                           Boundary::mirror};

struct Size {
    int width, height;
};
// Shorter than the order, single rows and columns, primes, off the 64-sample tile, long and thin.
const Size kSizes[] = {{1, 1},   {2, 2},   {3, 5},     {37, 1},   {1, 37},
                       {31, 29}, {65, 64}, {257, 193}, {2000, 3}, {3, 2000}};

struct Case {
    DeviceChoice device;
    Algorithm algorithm;
    Form form;
    int order;
};

class BoundaryTest : public testing::DeviceTest<Case> {};

TEST_P(BoundaryTest, EveryExtensionMatchesTheFloat64Reference) {
    const Case &p = GetParam();
    auto rng = rng_for_test();
    for (Boundary boundary : kExact) {
        for (Size size : kSizes) {
            const int channels = size.width % 2 ? 1 : 3;
            const bool complex_poles = p.order >= 2 && size.height % 2;
            const Filter2D filter{random_stable_filter(rng, p.order, 0.95, complex_poles),
                                  random_stable_filter(rng, p.order, 0.95, complex_poles)};
            const Image input = random_image(rng, size.width, size.height, channels);
            Image output(size.width, size.height, channels);
            std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
            iir_2d(input, output, filter, {boundary, p.device, p.form, p.algorithm});
            for (int c = 0; c < channels; c++) {
                const auto expected = reference::filter_2d(filter, reference::plane(input, c), boundary);
                EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-5)
                    << boundary_name(boundary) << " " << size.width << "x" << size.height << " channel " << c;
            }
        }
    }
}

// RT: the direct form of orders 1 and 2 and sections to order 3 (the direct form of order 3 loses
// float32 accuracy with poles near 0.95 whatever the boundary: test_iir.cpp). Algorithms 4 and 6:
// the direct form of order 1 and sections (order 2 is one section); 5 refuses (BoundaryErrors).
std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda}) {
        for (int order : {1, 2}) cases.push_back({device, Algorithm::rt, Form::direct, order});
        for (int order : {1, 2, 3}) cases.push_back({device, Algorithm::rt, Form::sections, order});
        for (Algorithm a : {Algorithm::a4, Algorithm::a6}) {
            cases.push_back({device, a, Form::direct, 1});
            for (int order : {2, 3}) cases.push_back({device, a, Form::sections, order});
        }
    }
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    const Case &c = info.param;
    return std::string(c.device == DeviceChoice::cuda ? "cuda_" : "cpu_") + algorithm_name(c.algorithm) +
           (c.form == Form::direct ? "_direct" : "_sections") + "_order" + std::to_string(c.order);
}

INSTANTIATE_TEST_SUITE_P(All, BoundaryTest, ::testing::ValuesIn(all_cases()), case_name);

class GaussianBoundaryTest : public testing::DeviceTest<DeviceChoice> {};

// The largest deviation from 0.75 of a constant image blurred with each symmetric or periodic
// extension, over a few shapes.
float constant_drift(double sigma, Boundary boundary, DeviceChoice device) {
    const GaussianDesign design = design_gaussian(sigma, GaussianMethod::vanvliet);
    float worst = 0;
    for (Size size : {Size{1, 1}, Size{61, 37}, Size{600, 5}}) {
        Image input(size.width, size.height, 1);
        std::fill(input.data.begin(), input.data.end(), 0.75f);
        const Image output = gaussian_blur(input, design, {boundary, device});
        for (float v : output.data) worst = std::max(worst, std::abs(v - 0.75f) / 0.75f);
    }
    return worst;
}

const Boundary kConstantPreserving[] = {Boundary::clamp, Boundary::periodic, Boundary::reflect,
                                        Boundary::mirror};

// Every such extension of a constant image is that constant, and the Gaussian has unit DC gain.
TEST_P(GaussianBoundaryTest, KeepsAConstantImageConstant) {
    for (double sigma : {0.5, 2.0, 5.0})
        for (Boundary boundary : kConstantPreserving)
            EXPECT_LE(constant_drift(sigma, boundary, GetParam()), 1e-5)
                << "sigma " << sigma << " " << boundary_name(boundary);
}

// Known limitation, measured (float32, algorithm 6 and RT): as σ grows the poles approach 1, the
// float32 recursion itself drifts (boundary none too: docs/gaussian.md), and recovering the
// symmetric extensions' feedbacks from the observables divides by the shrinking gain: 1.03e−5 at
// σ = 10 (reflect), up to 5e−4 at σ = 50 and 3e−2 at σ = 200 (reflect, 600×5). These bounds guard
// against it getting worse; the 1e−5 the issue asks for holds to σ = 5 only (docs/boundaries.md).
TEST_P(GaussianBoundaryTest, DriftAtLargeSigmaStaysBounded) {
    for (Boundary boundary : kConstantPreserving) {
        EXPECT_LE(constant_drift(10.0, boundary, GetParam()), 5e-5) << boundary_name(boundary);
        EXPECT_LE(constant_drift(50.0, boundary, GetParam()), 1e-3) << boundary_name(boundary);
        EXPECT_LE(constant_drift(200.0, boundary, GetParam()), 6e-2) << boundary_name(boundary);
    }
}

INSTANTIATE_TEST_SUITE_P(Devices, GaussianBoundaryTest,
                         ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cuda ? "cuda" : "cpu"; });

TEST(BoundaryErrors, SayWhatRuns) {
    Image input(8, 8, 1);
    try {
        gaussian_blur(input, design_gaussian(2.0, GaussianMethod::deriche2),
                      {Boundary::clamp, DeviceChoice::cpu});
        FAIL() << "deriche2 took an exact boundary";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("vanvliet"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_boundary("wrap"), Error);
    const Filter2D filter{RecursiveFilter{0.5, {-0.5}}, RecursiveFilter{0.5, {-0.5}}};
    try {
        iir_2d(input, filter, {Boundary::clamp, DeviceChoice::cpu, Form::automatic, Algorithm::a5});
        FAIL() << "algorithm 5 took an exact boundary";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("algorithms rt, 4 and 6"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace cascade
