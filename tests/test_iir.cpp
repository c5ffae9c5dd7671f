// The AOT variants of the 2D recursive filter against the double-precision reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cascade/device.h"
#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "contract/tiled_layout.h"
#include "cuda_support.h"
#include "reference.h"
#include "test_support.h"

namespace cascade {
namespace {

using testing::cuda_unavailable;
using testing::random_image;
using testing::random_stable_filter;
using testing::relative_l2;
using testing::rng_for_test;

struct Size {
    int width, height;
};

// 1×1, a single row, a single column, primes, sizes off every tile, very wide and very tall.
// Around the block-parallel variants' 64-sample tile: one past it, exactly two tiles.
const Size kAwkwardSizes[] = {{1, 1},    {37, 1},   {1, 37},   {2, 2},     {3, 5},    {31, 29}, {65, 64},
                              {64, 128}, {67, 131}, {127, 61}, {257, 193}, {2000, 3}, {3, 2000}};

struct Case {
    DeviceChoice device;
    Algorithm algorithm;
    Form form;
    int order;
    bool complex_poles;
};

// The sections hold 1e-5 at every order with poles up to 0.95. So does the direct form at orders
// ≤ 2; above, float32 rounding of its coefficients and state is amplified by clustered poles (up
// to ~2e-3 at order 5 with poles to 0.95 seen on the GPU, 1.4e-4 with poles to 0.8), so it is
// held to 5e-4 with poles up to 0.8 only (docs/algorithms.md). `cascade iir` picks sections for
// r ≥ 3.
bool ill_conditioned(const Case &c) { return c.form == Form::direct && c.order > 2; }
double tolerance(const Case &c) { return ill_conditioned(c) ? 5e-4 : 1e-5; }
double max_pole(const Case &c) { return ill_conditioned(c) ? 0.8 : 0.95; }

class IirTest : public testing::DeviceTest<Case> {};

TEST_P(IirTest, MatchesDoubleReferenceOnAwkwardSizes) {
    const Case &p = GetParam();
    auto rng = rng_for_test();
    for (Size size : kAwkwardSizes) {
        for (int channels : {1, 3}) {
            Filter2D filter{random_stable_filter(rng, p.order, max_pole(p), p.complex_poles),
                            random_stable_filter(rng, p.order, max_pole(p), p.complex_poles)};
            Image input = random_image(rng, size.width, size.height, channels);
            Image output(size.width, size.height, channels);
            std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
            iir_2d(input, output, filter, {Boundary::none, p.device, p.form, p.algorithm});
            auto expected = reference::filter_2d(filter, input);
            for (int c = 0; c < channels; c++) {
                double error = relative_l2(reference::plane(output, c), expected[c]);
                EXPECT_LE(error, tolerance(p)) << size.width << "x" << size.height << " channel " << c;
            }
        }
    }
}

// RT in both forms up to the build's order 5; the block-parallel algorithms (sections above
// order 1) up to order 8.
std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda}) {
        for (Form form : {Form::direct, Form::sections})
            for (int order = 1; order <= 5; order++)
                for (bool complex_poles : {false, true})
                    if (!(complex_poles && order == 1))
                        cases.push_back({device, Algorithm::rt, form, order, complex_poles});
        for (Algorithm algorithm : {Algorithm::a2, Algorithm::a4, Algorithm::a5, Algorithm::a6})
            for (int order = 1; order <= 8; order++)
                for (bool complex_poles : {false, true})
                    if (!(complex_poles && order == 1))
                        cases.push_back({device, algorithm, Form::automatic, order, complex_poles});
    }
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    const Case &c = info.param;
    const char *form = c.form == Form::direct ? "_direct" : c.form == Form::sections ? "_sections" : "";
    return std::string(c.device == DeviceChoice::cuda ? "cuda" : "cpu") + "_" +
           (c.algorithm == Algorithm::rt ? "rt" : std::string("a") + algorithm_name(c.algorithm)) + form +
           "_order" + std::to_string(c.order) + (c.complex_poles ? "_complex" : "_real");
}

INSTANTIATE_TEST_SUITE_P(Variants, IirTest, ::testing::ValuesIn(all_cases()), case_name);

class SignalTest : public testing::DeviceTest<DeviceChoice> {};

// One row or one column with the automatic algorithm runs as a 1D signal (runtime/line_filter.h);
// the other axis's filter, on lines of one sample, only scales them. A random filter of `order`
// (poles to `max_pole`) on each of two channels against the reference under `boundary`.
void check_signal(std::mt19937_64 &rng, Size size, int order, double max_pole, Boundary boundary,
                  DeviceChoice device) {
    const Filter2D filter{random_stable_filter(rng, order, max_pole, order == 3),
                          random_stable_filter(rng, order, max_pole, order == 3)};
    const Image input = random_image(rng, size.width, size.height, 2);
    Image output(size.width, size.height, 2);
    std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
    iir_2d(input, output, filter, {boundary, device});
    for (int c = 0; c < 2; c++)
        EXPECT_TRUE(testing::within_relative_l2(
            reference::plane(output, c), reference::filter_2d(filter, reference::plane(input, c), boundary),
            1e-5))
            << boundary_name(boundary) << " " << size.width << "x" << size.height << " order " << order
            << " channel " << c;
}

TEST_P(SignalTest, OneRowAndOneColumnImagesMatchTheReference) {
    auto rng = rng_for_test();
    for (Size size : {Size{100003, 1}, Size{1, 65537}, Size{2, 1}, Size{1, 3}})
        for (int order : {1, 3}) check_signal(rng, size, order, 0.95, Boundary::none, GetParam());
}

// The same under every extension, with filters the line strips fit (poles to 0.5): the long side
// by the strips, reading the extension past the signal's ends; the one-sample side scaled by what
// the extension makes of a line of one sample (zero: the sample alone; the others: a constant).
TEST_P(SignalTest, OneRowAndOneColumnImagesMatchTheReferenceUnderEveryExtension) {
    auto rng = rng_for_test();
    for (Boundary boundary :
         {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror})
        for (Size size : {Size{20011, 1}, Size{1, 4099}, Size{2, 1}, Size{1, 1}})
            for (int order : {1, 3}) check_signal(rng, size, order, 0.5, boundary, GetParam());
}

// Under zero a line of one sample across keeps the sample alone: its scale is the energy of the
// across filter's response, Σ h_k², here (1 − ρ)²/(1 − ρ²) for a pole ρ within 2e−9 of 1 (about
// the closest require_stable takes), whose response rings for ~10¹⁰ samples: the call must not sum
// it sample by sample.
TEST_P(SignalTest, APoleNextToOneAcrossALineScalesItByItsResponsesEnergy) {
    auto rng = rng_for_test();
    const double rho = 1 - 2e-9;
    const RecursiveFilter across{1 - rho, {-rho}}, along = random_stable_filter(rng, 1, 0.5, false);
    for (Size size : {Size{257, 1}, Size{1, 193}}) {
        const Filter2D filter = size.height == 1 ? Filter2D{across, along} : Filter2D{along, across};
        const Image input = random_image(rng, size.width, size.height, 1);
        Image output(size.width, size.height, 1);
        std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
        iir_2d(input, output, filter, {Boundary::zero, GetParam()});
        const Filter2D alone = size.height == 1 ? Filter2D{RecursiveFilter::identity(), along}
                                                : Filter2D{along, RecursiveFilter::identity()};
        const Eigen::MatrixXd expected =
            reference::filter_2d(alone, reference::plane(input, 0), Boundary::zero) * ((1 - rho) / (1 + rho));
        EXPECT_TRUE(testing::within_relative_l2(reference::plane(output, 0), expected, 1e-5))
            << size.width << "x" << size.height;
    }
}

INSTANTIATE_TEST_SUITE_P(Devices, SignalTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cuda ? "cuda" : "cpu"; });

class LongSideTest : public testing::DeviceTest<DeviceChoice> {};

// A side of more than 64 chunks of tiles of `tile` (see the test below).
int past_shared_chunks(int tile) { return 65 * TiledLayout::kChunk * tile + 7; }

// The GPU completes a dimension's carries 8 lines to a block while 64 chunks of tiles fit its
// shared memory, then a line to a block (schedules/tiled_schedule.cpp): images past that, tall and
// wide, on every tiled algorithm, under `none` and (algorithms 4 and 6) an exact boundary, whose
// feedbacks those blocks compute. Past TiledLayout::kMostGpuTiles tiles `automatic` runs rt and an
// explicit tiled algorithm says why it cannot.
TEST_P(LongSideTest, TallAndWideImagesMatchTheReference) {
    std::string skipped;
    const std::vector<Algorithm> algorithms =
        testing::built_algorithms({Algorithm::a4, Algorithm::a5, Algorithm::a6}, skipped);
    auto rng = rng_for_test();
    const int past_shared = past_shared_chunks(CASCADE_TEST_IIR_TILE);
    for (Size size : {Size{5, past_shared}, Size{past_shared, 3}}) {
        for (Algorithm algorithm : algorithms) {
            for (Boundary boundary : {Boundary::none, Boundary::reflect}) {
                if (boundary != Boundary::none && algorithm == Algorithm::a5) continue;  // refuses them
                const Filter2D filter{random_stable_filter(rng, 3, 0.95, true),
                                      random_stable_filter(rng, 1, 0.95, false)};
                const Image input = random_image(rng, size.width, size.height, 1);
                Image output(size.width, size.height, 1);
                std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
                iir_2d(input, output, filter, {boundary, GetParam(), Form::automatic, algorithm});
                EXPECT_TRUE(testing::within_relative_l2(
                    reference::plane(output, 0),
                    reference::filter_2d(filter, reference::plane(input, 0), boundary), 1e-5))
                    << size.width << "x" << size.height << " algorithm " << algorithm_name(algorithm) << " "
                    << boundary_name(boundary);
            }
        }
    }
    const Size past_most{3, TiledLayout::kMostGpuTiles * CASCADE_TEST_IIR_TILE + 1};
    const Filter2D filter{random_stable_filter(rng, 1, 0.9, false), random_stable_filter(rng, 1, 0.9, false)};
    const Image input = random_image(rng, past_most.width, past_most.height, 1);
    Image output(past_most.width, past_most.height, 1);
    std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
    iir_2d(input, output, filter, {Boundary::none, GetParam()});
    EXPECT_TRUE(testing::within_relative_l2(reference::plane(output, 0),
                                            reference::filter_2d(filter, input)[0], 1e-5));
    if (GetParam() == DeviceChoice::cuda)
        EXPECT_THROW(
            {
                try {
                    iir_2d(input, output, filter,
                           {Boundary::none, GetParam(), Form::automatic, Algorithm::a6});
                } catch (const Error &e) {
                    EXPECT_NE(std::string(e.what()).find("tiles of"), std::string::npos) << e.what();
                    throw;
                }
            },
            Error);
    if (!skipped.empty()) GTEST_SKIP() << skipped;
}

INSTANTIATE_TEST_SUITE_P(Devices, LongSideTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cuda ? "cuda" : "cpu"; });

// Algorithm 6's automatic form on the GPU, on a random two-channel image of `size` (the output
// poisoned first), within 1e−5 of the double reference under `boundary`.
void expect_automatic_a6_on_gpu(std::mt19937_64 &rng, const Filter2D &filter, Boundary boundary, Size size) {
    const Image input = random_image(rng, size.width, size.height, 2);
    Image output(size.width, size.height, 2);
    std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
    iir_2d(input, output, filter, {boundary, DeviceChoice::cuda, Form::automatic, Algorithm::a6});
    for (int c = 0; c < 2; c++) {
        const auto expected = reference::filter_2d(filter, reference::plane(input, c), boundary);
        EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-5)
            << boundary_name(boundary) << " " << size.width << "x" << size.height << " channel " << c;
    }
}

// On the GPU the automatic form runs van Vliet's Gaussian at σ 4 as the direct form of order 3
// (3 states a dimension; runtime/design/direct_form.h), under boundary none and the exact extensions,
// within the sections' bound of the double reference; at σ 16 it keeps the sections.
TEST(IirGpu, AutomaticFormTakesTheDirectFormOfOrderThreeWhereAccurate) {
    std::string why;
    if (cuda_unavailable(why)) GTEST_SKIP() << why;
    const RecursiveFilter g4 = van_vliet_gaussian(4), g16 = van_vliet_gaussian(16);
    auto variant = [](const RecursiveFilter &g, Boundary boundary) {
        return IirPlan(Filter2D{g, g}, 64, 64, {boundary, DeviceChoice::cuda, Form::automatic, Algorithm::a6})
            .variant()
            .key.computes();
    };
    EXPECT_EQ(variant(g4, Boundary::none), "iir_a6");
    // About the image's level where the extension keeps constants (runtime/iir.cpp).
    EXPECT_EQ(variant(g4, Boundary::zero), "iir_a6_exact");
    EXPECT_EQ(variant(g4, Boundary::clamp), "iir_a6_exact_level");
    EXPECT_EQ(variant(g16, Boundary::none), "iir_a6_sections");
    EXPECT_EQ(variant(g16, Boundary::clamp), "iir_a6_sections_exact_level");
    auto rng = rng_for_test();
    const Filter2D filter{g4, g4};
    for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                              Boundary::reflect, Boundary::mirror})
        for (Size size : kAwkwardSizes) expect_automatic_a6_on_gpu(rng, filter, boundary, size);
}

// The GPU's direct form of order 3 runs on tiles of its own (CASCADE_IIR_DIRECT3_TILE: 128, whose
// 64 KB a block take the opt-in past 48 KB, runtime/cuda/cuda_shared_memory.cpp): whole tiles, ragged
// ones, and images long enough that a dimension's carries take a block a line.
TEST(IirGpu, DirectFormOfOrderThreeRunsOnItsOwnTiles) {
    std::string why;
    if (cuda_unavailable(why)) GTEST_SKIP() << why;
    const Filter2D filter{van_vliet_gaussian(4), van_vliet_gaussian(3)};
    const IirPlan plan(filter, 64, 64, {Boundary::none, DeviceChoice::cuda, Form::automatic, Algorithm::a6});
    EXPECT_EQ(plan.variant().key.computes(), "iir_a6");
    EXPECT_EQ(plan.variant().key.order, 3);
    EXPECT_EQ(plan.variant().key.tile, CASCADE_TEST_DIRECT3_TILE);
    const int b = CASCADE_TEST_DIRECT3_TILE, past_shared = past_shared_chunks(b);
    auto rng = rng_for_test();
    for (Size size : {Size{2 * b, 3 * b}, Size{b + 1, b - 1}, Size{5, past_shared}, Size{past_shared, 3}}) {
        const Image input = random_image(rng, size.width, size.height, 1);
        Image output(size.width, size.height, 1);
        std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
        iir_2d(input, output, filter, {Boundary::none, DeviceChoice::cuda, Form::automatic, Algorithm::a6});
        EXPECT_LE(relative_l2(reference::plane(output, 0), reference::filter_2d(filter, input)[0]), 1e-5)
            << size.width << "x" << size.height;
    }
}

// Under exact boundaries the direct form of order 3 takes the tiles of its `none` variant where the
// image is whole tiles of them (no rescan runs there; runtime/iir.cpp), the build's tiles elsewhere,
// and matches the extended reference either way.
TEST(IirGpu, ExactDirectFormOfOrderThreeTakesLargerTilesOnWholeOnes) {
    std::string why;
    if (cuda_unavailable(why)) GTEST_SKIP() << why;
    const Filter2D filter{van_vliet_gaussian(4), van_vliet_gaussian(3)};
    const int b = CASCADE_TEST_DIRECT3_TILE;
    auto rng = rng_for_test();
    for (Boundary boundary :
         {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror}) {
        for (Size size : {Size{2 * b, b}, Size{b, 3 * b}, Size{2 * b + 1, b}, Size{b, b - 3}}) {
            const bool whole = size.width % b == 0 && size.height % b == 0;
            const IirPlan plan(filter, size.width, size.height,
                               {boundary, DeviceChoice::cuda, Form::automatic, Algorithm::a6});
            EXPECT_EQ(plan.variant().key.order, 3);
            EXPECT_EQ(plan.variant().key.tile, whole ? b : CASCADE_TEST_IIR_TILE)
                << boundary_name(boundary) << " " << size.width << "x" << size.height;
            expect_automatic_a6_on_gpu(rng, filter, boundary, size);
        }
    }
}

// On the CPU, which has no block-parallel direct form of order 3, order 3 keeps its sections.
TEST(IirCpu, OrderThreeKeepsItsSections) {
    const RecursiveFilter g4 = van_vliet_gaussian(4);
    EXPECT_EQ(
        IirPlan(Filter2D{g4, g4}, 64, 64, {Boundary::none, DeviceChoice::cpu, Form::automatic, Algorithm::a6})
            .variant()
            .key.computes(),
        "iir_a6_sections");
    EXPECT_THROW(
        IirPlan(Filter2D{g4, g4}, 64, 64, {Boundary::none, DeviceChoice::cpu, Form::direct, Algorithm::a6}),
        Error);
}

TEST(IirRt, SectionsReachOrdersBeyondTheDirectVariants) {
    auto rng = rng_for_test();
    for (int order : {6, 8, 10}) {
        // Complex pairs: an order-2S filter needs S sections, within the build's S ≤ 5.
        Filter2D filter{random_stable_filter(rng, order, 0.95, true),
                        random_stable_filter(rng, order, 0.95, true)};
        Image input = random_image(rng, 53, 41, 1);
        Image output =
            iir_2d(input, filter, {Boundary::none, DeviceChoice::cpu, Form::sections, Algorithm::rt});
        auto expected = reference::filter_2d(filter, input);
        EXPECT_LE(relative_l2(reference::plane(output, 0), expected[0]), 1e-5) << "order " << order;
    }
}

TEST(IirRt, MixedOrdersRunOnTheHigherOrderVariant) {
    auto rng = rng_for_test();
    Filter2D filter{random_stable_filter(rng, 1, 0.9, false), random_stable_filter(rng, 4, 0.9, true)};
    Image input = random_image(rng, 45, 38, 2);
    Image output = iir_2d(input, filter, {Boundary::none, DeviceChoice::cpu});
    auto expected = reference::filter_2d(filter, input);
    for (int c = 0; c < 2; c++) EXPECT_LE(relative_l2(reference::plane(output, c), expected[c]), 1e-5);
}

TEST(IirRt, RejectsUnstableFiltersAndMissingOrders) {
    Image input(4, 4, 1);
    RecursiveFilter unstable{1.0, {-1.0}};
    RecursiveFilter stable{0.5, {-0.5}};
    EXPECT_THROW(iir_2d(input, Filter2D{unstable, stable}), Error);
    RecursiveFilter high{1.0, std::vector<double>(40, 0.0)};
    high.feedback[0] = -0.5;
    try {
        iir_2d(input, Filter2D{high, high}, {Boundary::none, DeviceChoice::cpu});
        FAIL() << "an order beyond the build's was accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("this build has orders"), std::string::npos) << e.what();
    }
}

TEST(IirRt, RejectsNonFiniteInput) {
    Image input(3, 2, 1);
    input.at(2, 1, 0) = std::numeric_limits<float>::infinity();
    EXPECT_THROW(require_finite(input), Error);
    input.at(2, 1, 0) = 0;
    EXPECT_NO_THROW(require_finite(input));
}

}  // namespace
}  // namespace cascade
