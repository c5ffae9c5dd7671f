// The CPU's row strips with overlapped column windows (algorithm strips, algebra/iir_strips.h)
// against the double-precision reference, boundary none and the exact boundaries, its overlap
// bound, and when `auto` picks it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "cascade/planes.h"
#include "cuda_support.h"
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

const Boundary kExact[] = {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect,
                           Boundary::mirror};

Image filtered(const Image &input, const Filter2D &filter, Algorithm algorithm,
               Boundary boundary = Boundary::none) {
    Image output(input.width, input.height, input.channels);
    std::fill(output.data.begin(), output.data.end(), kPoison);
    iir_2d(input, output, filter, {boundary, DeviceChoice::cpu, Form::automatic, algorithm});
    return output;
}

void expect_matches_reference(const Image &input, const Image &output, const Filter2D &filter,
                              const std::string &what) {
    const auto expected = reference::filter_2d(filter, input);
    for (int c = 0; c < input.channels; c++)
        EXPECT_LE(relative_l2(reference::plane(output, c), expected[c]), 1e-5) << what << " channel " << c;
}

// The same under an exact boundary, against the float64 filter of the extension.
void expect_matches_extension(const Image &input, const Image &output, const Filter2D &filter,
                              Boundary boundary, const std::string &what, double bound = 1e-5) {
    for (int c = 0; c < input.channels; c++) {
        const auto expected = reference::filter_2d(filter, reference::plane(input, c), boundary);
        EXPECT_LE(relative_l2(reference::plane(output, c), expected), bound)
            << boundary_name(boundary) << " " << what << " channel " << c;
    }
}

// A low-pass filter of `order`: real poles in (0, max_pole], or complex pairs within 0.5 rad of the
// real axis; its gain makes a constant 1.
RecursiveFilter low_pass_filter(std::mt19937_64 &rng, int order, double max_pole) {
    std::uniform_real_distribution<double> radius(0.05, max_pole), angle(0.0, 0.5);
    std::vector<std::complex<double>> poly{1.0};
    const auto multiply = [&](std::complex<double> p) {
        poly.push_back(0.0);
        for (size_t k = poly.size() - 1; k >= 1; k--) poly[k] -= p * poly[k - 1];
    };
    for (int left = order; left > 0;) {
        const double r = radius(rng);
        if (left >= 2) {
            const double a = angle(rng);
            multiply(std::polar(r, a));
            multiply(std::polar(r, -a));
            left -= 2;
        } else {
            multiply(r);
            left -= 1;
        }
    }
    RecursiveFilter f;
    double sum = 0;
    for (size_t k = 0; k < poly.size(); k++) {
        if (k > 0) f.feedback.push_back(poly[k].real());
        sum += poly[k].real();
    }
    f.gain = sum;
    return f;
}

bool has_exact_strips(int sections, bool level) {
    VariantKey key = VariantKey::parse(std::string("iir_strips_sections_exact") + (level ? "_level" : "") +
                                       "_o" + std::to_string(sections) + "_cpu");
    return lookup_variant(key) != nullptr;
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

// Every extension on the same sizes, with poles to 0.8 and to 0.95 (these run about the image's
// level, the `_level` variants): the margins fold as often as the line is shorter than them (1×1,
// 3×5), and the first and last strips warm up over the extension. On images with a side shorter
// than kStripsMinExactLine, which `auto` keeps on algorithm 6, the warm-up's rounding reaches past
// 1e−5 of a line of a few samples (runtime/strips.h): there the filters are low-pass ones (the
// Gaussians' kind; any filter reached 2.4e−3), held to 2e−4 (the largest seen, 7.8e−5: order 7,
// poles to 0.95, reflect on 2×2); elsewhere any filter, to 1e−5.
TEST_P(StripsOrder, ExactBoundariesMatchTheExtensionsFloat64Reference) {
    const int order = GetParam();
    if (!has_exact_strips(order, false) || !has_exact_strips(order, true))
        GTEST_SKIP() << "no exact strips variant of " << order << " sections or more in this build";
    auto rng = rng_for_test();
    const int sizes[][2] = {{1, 1},   {2, 2},    {3, 5},    {37, 1},    {1, 37},   {31, 29}, {8, 64},
                            {65, 63}, {67, 131}, {127, 61}, {257, 193}, {2000, 3}, {3, 2000}};
    for (Boundary boundary : kExact)
        for (double pole : {0.8, 0.95})
            for (const auto &size : sizes) {
                const bool complex_poles = order >= 2 && size[1] % 2;
                const int channels = size[0] % 2 ? 1 : 3;
                const bool short_line = std::min(size[0], size[1]) < kStripsMinExactLine;
                const Filter2D filter =
                    short_line
                        ? Filter2D{low_pass_filter(rng, order, pole), low_pass_filter(rng, order, pole)}
                        : Filter2D{random_stable_filter(rng, order, pole, complex_poles),
                                   random_stable_filter(rng, order, pole, complex_poles)};
                const Image input = random_image(rng, size[0], size[1], channels);
                expect_matches_extension(input, filtered(input, filter, Algorithm::strips, boundary), filter,
                                         boundary,
                                         "pole " + std::to_string(pole) + " " + size_name(size[0], size[1]),
                                         short_line ? 2e-4 : 1e-5);
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

// Under an exact boundary the windows reach past both edges into the extension, over several
// strips of a short image, and the rows past both ends of a short row, however often they fold.
TEST(Strips, ExactWindowsReachingOverSeveralStripsAndBothEdges) {
    if (!has_exact_strips(2, false) || !has_exact_strips(2, true))
        GTEST_SKIP() << "no exact strips variant in this build";
    auto rng = rng_for_test();
    RecursiveFilter slow;
    slow.gain = 0.1;
    slow.feedback = {-0.9};
    ASSERT_GT(strips_overlap({slow}), 128);
    for (Boundary boundary : kExact)
        for (const auto &filter : {Filter2D{slow, random_stable_filter(rng, 3, 0.8, true)},
                                   Filter2D{random_stable_filter(rng, 3, 0.8, true), slow}})
            for (int size : {1, 5, 63, 64, 65, 129, 300}) {
                const Image input = random_image(rng, size, 517 - size, 2);
                expect_matches_extension(input, filtered(input, filter, Algorithm::strips, boundary), filter,
                                         boundary, size_name(size, 517 - size));
            }
}

// A constant image stays constant under the extensions that keep it (to float rounding): the
// `_level` variants filter about the image's level.
TEST(Strips, AConstantStaysConstantUnderTheExtensionsThatKeepIt) {
    if (!has_exact_strips(2, true)) GTEST_SKIP() << "no exact strips variant about a level in this build";
    const RecursiveFilter g = van_vliet_gaussian(30);
    const Filter2D filter{g, g};
    for (Boundary boundary : {Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror}) {
        Image input(301, 203, 1);
        std::fill(input.data.begin(), input.data.end(), 0.75f);
        const Image output = filtered(input, filter, Algorithm::strips, boundary);
        for (float v : output.data) ASSERT_NEAR(v, 0.75f, 1e-5 * 0.75) << boundary_name(boundary);
    }
}

// The row passes' reach past a row: the overlap in whole vectors.
TEST(StripsOverlap, TheRowsReachWholeVectors) {
    RecursiveFilter f;
    f.gain = 0.5;
    f.feedback = {-0.5};
    const int n = strips_overlap({f}), row = strips_row_overlap({f});
    EXPECT_EQ(row % kStripsRowAlignment, 0);
    EXPECT_GE(row, n);
    EXPECT_LT(row, n + kStripsRowAlignment);
    RecursiveFilter slow;
    slow.gain = 0.001;
    slow.feedback = {-0.999};
    EXPECT_EQ(strips_row_overlap({slow}), -1);
}

// Strips of 256 rows (float64: 128) to an overlap of 128, 512 past it, but never fewer than one
// strip a thread while a strip can stay 64 rows.
TEST(StripsHeight, GrowsWithTheOverlapWhileEveryThreadKeepsStrips) {
    EXPECT_EQ(strips_height(16, 4096, 2), 256);
    EXPECT_EQ(strips_height(16, 4096, 2, 8), 128);
    EXPECT_EQ(strips_height(74, 4096, 2), 256);
    EXPECT_EQ(strips_height(146, 4096, 2), 512);
    EXPECT_EQ(strips_height(74, 1024, 2), 256);
    EXPECT_EQ(strips_height(74, 300, 2), 128);
    EXPECT_EQ(strips_height(300, 1024, 2), 512);
    EXPECT_EQ(strips_height(548, 512, 2), 256);
    EXPECT_EQ(strips_height(548, 4096, 16), 256);
    EXPECT_EQ(strips_height(548, 1024, 16), 64);
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

std::vector<std::unique_ptr<IirPlan>> plans;  // kept: the variants they name outlive the calls

const Variant &planned(const Filter2D &filter, Algorithm algorithm, Boundary boundary,
                       SampleType samples = SampleType::f32) {
    plans.push_back(std::make_unique<IirPlan>(
        filter, 40, 36, IirOptions{boundary, DeviceChoice::cpu, Form::automatic, algorithm}, samples));
    return plans.back()->variant();
}

// `auto` on the CPU: strips for float32 where both directions' responses fade within the bound
// (under boundary none the columns' alone), every boundary; algorithm 6 for 8/16-bit samples and
// slow filters.
TEST(Strips, AutomaticPicksStripsWhereTheyApply) {
    auto rng = rng_for_test();
    const RecursiveFilter f = random_stable_filter(rng, 3, 0.8, true);
    EXPECT_STREQ(planned({f, f}, Algorithm::automatic, Boundary::none).key.computes().c_str(),
                 "iir_strips_sections");
    // (`_level` too where the extension keeps constants and the filter needs it.)
    const auto computes = [](const Variant &v, const std::string &prefix) {
        return v.key.computes().rfind(prefix, 0) == 0;
    };
    if (has_exact_strips(3, false) && has_exact_strips(3, true))
        for (Boundary boundary : kExact)
            EXPECT_TRUE(
                computes(planned({f, f}, Algorithm::automatic, boundary), "iir_strips_sections_exact"))
                << boundary_name(boundary);
    EXPECT_STRNE(planned({f, f}, Algorithm::automatic, Boundary::none, SampleType::u8).key.computes().c_str(),
                 "iir_strips_sections");
    RecursiveFilter slow;
    slow.gain = 0.001;
    slow.feedback = {-0.999};
    EXPECT_STREQ(planned({slow, f}, Algorithm::automatic, Boundary::none).key.computes().c_str(),
                 "iir_a6_sections");
    // Boundary none reads no row past a row's ends; an exact boundary's row passes reach over them.
    EXPECT_STREQ(planned({f, slow}, Algorithm::automatic, Boundary::none).key.computes().c_str(),
                 "iir_strips_sections");
    EXPECT_TRUE(
        computes(planned({f, slow}, Algorithm::automatic, Boundary::reflect), "iir_a6_sections_exact"));
    // A side shorter than kStripsMinExactLine: algorithm 6 under an exact boundary.
    plans.push_back(std::make_unique<IirPlan>(
        Filter2D{f, f}, kStripsMinExactLine - 1, 300,
        IirOptions{Boundary::reflect, DeviceChoice::cpu, Form::automatic, Algorithm::automatic}));
    EXPECT_TRUE(computes(plans.back()->variant(), "iir_a6_sections_exact"));
}

// Rows that filter nothing (an axis of a volume before its last, run as the columns of a wide
// image) take the variants of the columns alone, under every boundary, with the whole filter's
// results: on the sizes above, columns shorter than kStripsMinExactLine held as there.
TEST(Strips, TheColumnsAloneWhereTheRowsFilterNothing) {
    auto rng = rng_for_test();
    const RecursiveFilter identity = RecursiveFilter::identity();
    const int sizes[][2] = {{1, 1}, {3, 5}, {37, 1}, {2000, 3}, {5, 64}, {300, 257}, {1030, 67}};
    for (int order : {1, 3, 7}) {
        if (!lookup_variant(VariantKey::parse("iir_strips_sections_columns_o" +
                                              std::to_string((order + 1) / 2) + "_cpu")))
            GTEST_SKIP() << "no columns-alone strips variant in this build";
        for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                                  Boundary::reflect, Boundary::mirror})
            for (const auto &size : sizes) {
                const bool short_column = size[1] < kStripsMinExactLine;
                const RecursiveFilter down = short_column && boundary != Boundary::none
                                                 ? low_pass_filter(rng, order, 0.9)
                                                 : random_stable_filter(rng, order, 0.9, order > 1);
                const Filter2D filter{down, identity};
                const Image input = random_image(rng, size[0], size[1], 2);
                const std::string what = "order " + std::to_string(order) + " " + boundary_name(boundary) +
                                         " " + size_name(size[0], size[1]);
                const Image output = filtered(input, filter, Algorithm::strips, boundary);
                if (boundary == Boundary::none)
                    expect_matches_reference(input, output, filter, what);
                else
                    expect_matches_extension(input, output, filter, boundary, what,
                                             short_column ? 2e-4 : 1e-5);
            }
        const RecursiveFilter down = random_stable_filter(rng, order, 0.9, order > 1);
        EXPECT_STREQ(planned({down, identity}, Algorithm::automatic, Boundary::none).key.computes().c_str(),
                     "iir_strips_sections_columns");
        // (`_level` where the filter needs it.)
        EXPECT_EQ(planned({down, identity}, Algorithm::automatic, Boundary::mirror)
                      .key.computes()
                      .rfind("iir_strips_sections_columns_exact", 0),
                  0u);
    }
}

// Planes of random images filtered by a random filter through IirPlan::run, in place or into
// another array (poisoned first), against the references.
struct PlanesCase {
    int width, height, planes;
    Algorithm algorithm;
    bool columns_alone;
};

void expect_planes_filtered(const PlanesCase &c, Boundary boundary, bool in_place, std::mt19937_64 &rng) {
    const RecursiveFilter down = random_stable_filter(rng, 3, 0.8, true);
    const Filter2D filter{
        down, c.columns_alone ? RecursiveFilter::identity() : random_stable_filter(rng, 2, 0.8, true)};
    const std::string what = algorithm_name(c.algorithm) + std::string(" ") + boundary_name(boundary) + " " +
                             size_name(c.width, c.height) + " × " + std::to_string(c.planes) +
                             (in_place ? " in place" : " into another array");
    const Image input = random_image(rng, c.width, c.height, c.planes);
    Image output = input;
    if (!in_place) std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
    IirPlan plan(filter, c.width, c.height, {boundary, DeviceChoice::cpu, Form::automatic, c.algorithm});
    auto in = planes_of(input);
    auto out = planes_of(output);
    plan.run(in_place ? out.raw_buffer() : in.raw_buffer(), out.raw_buffer());
    if (boundary == Boundary::none)
        expect_matches_reference(input, output, filter, what);
    else
        expect_matches_extension(input, output, filter, boundary, what);
}

int pool_size() { return std::max(1, int(std::thread::hardware_concurrency())); }

// In place (the input as the output): one strip a plane where the planes keep every thread busy,
// else from a copy of the input; the filter either way, on every algorithm.
TEST(Strips, RunsInPlace) {
    auto rng = rng_for_test();
    const int threads = pool_size();
    const PlanesCase cases[] = {{37, 53, threads, Algorithm::strips, false},       // a strip a plane
                                {300, 257, 1, Algorithm::strips, false},           // strips: from a copy
                                {1030, 67, threads + 1, Algorithm::strips, true},  // the columns alone
                                {1, 1, threads, Algorithm::strips, false},
                                {131, 70, 2, Algorithm::a6, false}};  // tiles: from a copy
    for (const PlanesCase &c : cases)
        for (Boundary boundary : {Boundary::none, Boundary::reflect})
            expect_planes_filtered(c, boundary, true, rng);
}

// Into another array, one strip a plane where the planes keep every thread busy and a plane is at
// most 256 rows, else the plan's own strips.
TEST(Strips, PlanesIntoAnotherArray) {
    auto rng = rng_for_test();
    const int threads = pool_size();
    const PlanesCase cases[] = {{37, 53, threads, Algorithm::strips, false},       // one strip of 64 rows
                                {61, 256, threads + 1, Algorithm::strips, false},  // of 256
                                {23, 300, threads, Algorithm::strips, false},      // taller: the plan's
                                {300, 257, 1, Algorithm::strips, false},           // one plane: the plan's
                                {1030, 67, threads, Algorithm::strips, true},      // the columns alone
                                {1, 1, threads, Algorithm::strips, false}};
    for (const PlanesCase &c : cases)
        for (Boundary boundary : {Boundary::none, Boundary::mirror})
            expect_planes_filtered(c, boundary, false, rng);
}

// One device buffer as both input and output is refused before anything runs (a buffer that
// says it lives on a device: no GPU is needed to reach the check).
TEST(Strips, RefusesOneDeviceBufferAsInputAndOutput) {
    auto rng = rng_for_test();
    const RecursiveFilter f = random_stable_filter(rng, 1, 0.5, false);
    IirPlan plan({f, f}, 8, 8, {Boundary::reflect, DeviceChoice::cpu});
    Image image(8, 8, 1);
    auto buffer = planes_of(image);
    halide_buffer_t on_device = *buffer.raw_buffer();
    on_device.device = 1;
    try {
        plan.run(&on_device, &on_device);
        ADD_FAILURE() << "ran in place on a device buffer";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("do not run in place"), std::string::npos) << e.what();
    }
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
                  IirPlan({f, f}, 9, 9,
                          {Boundary::clamp, DeviceChoice::cpu, Form::automatic, Algorithm::strips},
                          SampleType::f32, 2);
              }).find("margin"),
              std::string::npos);
    // A build without CUDA variants refuses the device before the algorithm.
    EXPECT_NE(
        message([&] {
            IirPlan({f, f}, 9, 9, {Boundary::none, DeviceChoice::cuda, Form::automatic, Algorithm::strips});
        }).find(has_variants(Device::cuda) ? "CPU only" : "no CUDA variants"),
        std::string::npos);
    RecursiveFilter slow;
    slow.gain = 0.001;
    slow.feedback = {-0.999};
    EXPECT_NE(
        message([&] {
            IirPlan({slow, f}, 9, 9, {Boundary::none, DeviceChoice::cpu, Form::automatic, Algorithm::strips});
        }).find("fades too slowly"),
        std::string::npos);
    if (has_exact_strips(2, false))
        EXPECT_NE(message([&] {
                      IirPlan({f, slow}, 9, 9,
                              {Boundary::reflect, DeviceChoice::cpu, Form::automatic, Algorithm::strips});
                  }).find("horizontal filter's response fades too slowly"),
                  std::string::npos);
    EXPECT_EQ(parse_algorithm("strips"), Algorithm::strips);
    EXPECT_STREQ(algorithm_name(Algorithm::strips), "strips");
}

}  // namespace
}  // namespace cascade
