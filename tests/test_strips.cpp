// The CPU's row strips with overlapped column windows (algorithm strips, algebra/iir_strips.h)
// against the double-precision reference, its overlap bound, and when `auto` picks it.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "reference.h"
#include "strips.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

using testing::random_image;
using testing::random_stable_filter;
using testing::relative_l2;
using testing::rng_for_test;

constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();

Image filtered(const Image &input, const Filter2D &filter, Algorithm algorithm) {
    Image output(input.width, input.height, input.channels);
    std::fill(output.data.begin(), output.data.end(), kPoison);
    iir_2d(input, output, filter, {Boundary::none, DeviceChoice::cpu, Form::automatic, algorithm});
    return output;
}

void expect_matches_reference(const Image &input, const Image &output, const Filter2D &filter,
                              const std::string &what) {
    const auto expected = reference::filter_2d(filter, input);
    for (int c = 0; c < input.channels; c++)
        EXPECT_LE(relative_l2(reference::plane(output, c), expected[c]), 1e-5) << what << " channel " << c;
}

std::string size_name(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

// Orders 1–8 (up to 8 sections where real poles do not pair), real and complex poles up to 0.85,
// on sizes around the 64-row strip and the 8-lane vectors, single rows and columns, primes, 1×1,
// very wide and very tall. An order whose variant this build lacks (catalogue/iir.json) skips,
// saying so.
class StripsOrder : public ::testing::TestWithParam<int> {};

TEST_P(StripsOrder, MatchesDoubleReferenceOnAwkwardSizes) {
    const int order = GetParam();
    if (!lookup_variant(VariantKey::parse("iir_strips_sections_o" + std::to_string(order) + "_cpu")))
        GTEST_SKIP() << "no strips variant of " << order << " sections or more in this build";
    auto rng = rng_for_test();
    const int sizes[][2] = {{1, 1},     {37, 1},   {1, 37},   {2, 2},   {3, 5},    {7, 9},
                            {31, 29},   {8, 64},   {65, 63},  {9, 65},  {67, 131}, {127, 61},
                            {257, 193}, {2000, 3}, {3, 2000}, {17, 129}};
    for (bool complex_poles : {false, true}) {
        if (complex_poles && order == 1) continue;
        for (const auto &size : sizes)
            for (int channels : {1, 3}) {
                const Filter2D filter{random_stable_filter(rng, order, 0.85, complex_poles),
                                      random_stable_filter(rng, order, 0.85, complex_poles)};
                const Image input = random_image(rng, size[0], size[1], channels);
                expect_matches_reference(
                    input, filtered(input, filter, Algorithm::strips), filter,
                    (complex_poles ? "complex " : "real ") + size_name(size[0], size[1]));
            }
    }
}

INSTANTIATE_TEST_SUITE_P(Orders, StripsOrder, ::testing::Range(1, 9),
                         [](const ::testing::TestParamInfo<int> &info) {
                             return "order" + std::to_string(info.param);
                         });

// A window reaches over several strips and past both edges when the overlap exceeds the strip:
// a pole at 0.9 fades over ~200 rows, three strips of 64.
TEST(Strips, WindowsReachingOverSeveralStripsAndBothEdges) {
    auto rng = rng_for_test();
    RecursiveFilter slow;
    slow.gain = 0.1;
    slow.feedback = {-0.9};
    const int overlap = strips_overlap({slow});
    ASSERT_GT(overlap, 128);
    const Filter2D filter{slow, random_stable_filter(rng, 3, 0.8, true)};
    for (int height : {1, 63, 64, 65, 127, 128, 129, 300, 517}) {
        const Image input = random_image(rng, 23, height, 2);
        expect_matches_reference(input, filtered(input, filter, Algorithm::strips), filter,
                                 size_name(23, height));
    }
}

// An impulse reaches every row whose strip's window holds it, in both directions, to float
// rounding of each value however small (here down to 0.8^120 of the peak, two strips away); past
// the window it is cut, by less than kStripsTail of the peak.
TEST(Strips, AnImpulseReachesAcrossStripsWithinTheOverlap) {
    RecursiveFilter f;
    f.gain = 0.2;
    f.feedback = {-0.8};
    const Filter2D filter{f, f};
    const int overlap = strips_overlap({f}), strip = 64, height = 260;
    ASSERT_GT(overlap, 64);
    for (int row : {0, height - 1}) {
        Image input(5, height, 1);
        std::fill(input.data.begin(), input.data.end(), 0.0f);
        input.data[size_t(row) * 5 + 2] = 1.0f;
        const Image output = filtered(input, filter, Algorithm::strips);
        const auto expected = reference::filter_2d(filter, input);
        const double peak = expected[0].cwiseAbs().maxCoeff();
        int reached = 0;
        for (int y = 0; y < height; y++) {
            const int first = y / strip * strip - overlap, last = y / strip * strip + strip - 1 + overlap;
            const double want = expected[0](y, 2), got = output.data[size_t(y) * 5 + 2];
            if (row >= first && row <= last) {
                EXPECT_NEAR(got, want, 1e-5 * std::abs(want)) << "impulse row " << row << ", row " << y;
                reached += std::abs(y - row) >= strip;
            } else {
                EXPECT_LE(std::abs(got - want), kStripsTail * peak) << "impulse row " << row << ", row " << y;
            }
        }
        EXPECT_GT(reached, 0) << "no row of another strip was checked";
    }
}

// A wide Gaussian: van Vliet's σ 30 reaches 548 rows past each strip, past both ends of a 700-row
// image from every strip. Its float32 sections (poles to 0.96) hold ~3e−5 on every algorithm; the
// strips hold what algorithm 6 and RT hold.
TEST(Strips, AWideGaussianIsAsAccurateAsTheExactAlgorithms) {
    auto rng = rng_for_test();
    const RecursiveFilter g = van_vliet_gaussian(30);
    const Filter2D filter{g, g};
    const Image input = random_image(rng, 61, 700, 1);
    const auto expected = reference::filter_2d(filter, input);
    const auto error = [&](Algorithm a) {
        return relative_l2(reference::plane(filtered(input, filter, a), 0), expected[0]);
    };
    const double strips = error(Algorithm::strips),
                 exact = std::max(error(Algorithm::a6), error(Algorithm::rt));
    EXPECT_LE(strips, 1.1 * exact) << "algorithm 6 and RT: " << exact;
    EXPECT_LE(strips, 1e-4);
}

// Strips of 64 rows where the overlap is small, 128 to an overlap of 128, 512 past it, but never
// fewer than four strips a thread while a strip can stay 64 rows.
TEST(StripsHeight, GrowsWithTheOverlapWhileEveryThreadKeepsStrips) {
    EXPECT_EQ(strips_height(16, 4096, 2), 64);
    EXPECT_EQ(strips_height(74, 4096, 2), 128);
    EXPECT_EQ(strips_height(146, 4096, 2), 512);
    EXPECT_EQ(strips_height(74, 1024, 2), 128);
    EXPECT_EQ(strips_height(548, 4096, 16), 64);
    EXPECT_EQ(strips_height(548, 10, 2), 64);
    EXPECT_EQ(strips_height(548, 100000, 0), 512);
}

// The overlap of a first-order pole p: the tail past n is p^n of the response's mass.
TEST(StripsOverlap, FirstOrderPoleHasTheAnalyticOverlap) {
    for (double p : {0.1, 0.268, 0.5, 0.8, -0.6, 0.9}) {
        RecursiveFilter f;
        f.gain = 1 - std::abs(p);
        f.feedback = {-p};
        const int n = int(std::ceil(std::log(kStripsTail) / std::log(std::abs(p)) - 1e-9));
        EXPECT_NEAR(strips_overlap({f}), n, 1) << "pole " << p;
    }
}

TEST(StripsOverlap, SlowFiltersHaveNone) {
    RecursiveFilter f;
    f.gain = 0.001;
    f.feedback = {-0.999};
    EXPECT_EQ(strips_overlap({f}), -1);
}

const Variant &planned(const Filter2D &filter, Algorithm algorithm, Boundary boundary,
                       SampleType samples = SampleType::f32) {
    static std::vector<std::unique_ptr<IirPlan>> plans;
    plans.push_back(std::make_unique<IirPlan>(filter, 40, 30, Form::automatic, algorithm, Device::cpu,
                                              boundary, samples));
    return plans.back()->variant();
}

// `auto` on the CPU: strips for boundary none and float32 where the response fades within the
// bound; algorithm 6 for exact boundaries, 8/16-bit samples and slow filters.
TEST(Strips, AutomaticPicksStripsWhereTheyApply) {
    auto rng = rng_for_test();
    const RecursiveFilter f = random_stable_filter(rng, 3, 0.8, true);
    EXPECT_STREQ(planned({f, f}, Algorithm::automatic, Boundary::none).key.computes().c_str(),
                 "iir_strips_sections");
    EXPECT_STRNE(planned({f, f}, Algorithm::automatic, Boundary::clamp).key.computes().c_str(),
                 "iir_strips_sections");
    EXPECT_STRNE(planned({f, f}, Algorithm::automatic, Boundary::none, SampleType::u8).key.computes().c_str(),
                 "iir_strips_sections");
    RecursiveFilter slow;
    slow.gain = 0.001;
    slow.feedback = {-0.999};
    EXPECT_STREQ(planned({slow, f}, Algorithm::automatic, Boundary::none).key.computes().c_str(),
                 "iir_a6_sections");
}

TEST(Strips, RefusesWhatItCannotRunSayingWhy) {
    auto rng = rng_for_test();
    const RecursiveFilter f = random_stable_filter(rng, 2, 0.8, false);
    const auto message = [&](const std::function<void()> &make) {
        try {
            make();
        } catch (const Error &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message([&] {
                  IirPlan({f, f}, 9, 9, Form::automatic, Algorithm::strips, Device::cpu, Boundary::reflect);
              }).find("takes boundary none"),
              std::string::npos);
    EXPECT_NE(message([&] {
                  IirPlan({f, f}, 9, 9, Form::automatic, Algorithm::strips, Device::cuda);
              }).find("CPU only"),
              std::string::npos);
    RecursiveFilter slow;
    slow.gain = 0.001;
    slow.feedback = {-0.999};
    EXPECT_NE(message([&] {
                  IirPlan({slow, f}, 9, 9, Form::automatic, Algorithm::strips, Device::cpu);
              }).find("fades too slowly"),
              std::string::npos);
    EXPECT_EQ(parse_algorithm("strips"), Algorithm::strips);
    EXPECT_STREQ(algorithm_name(Algorithm::strips), "strips");
}

}  // namespace
}  // namespace cascade
