// The parts of a filter a plan can run (cascade::Passes): one dimension's passes, or one
// direction's in both dimensions, each against the double reference on awkward sizes, outputs
// poisoned; and what a part refuses, and why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "cuda_support.h"
#include "reference.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

using reference::Matrix;
using testing::random_image;
using testing::relative_l2;
using testing::rng_for_test;

// What a part computes, in double: the whole filter with the other dimension's filter the
// identity, or one direction's passes from zero state (boundary none).
Matrix reference_part(const Filter2D &f, const Matrix &X, Boundary boundary, Passes passes) {
    const RecursiveFilter identity = RecursiveFilter::identity();
    const Matrix above = Matrix::Zero(f.vertical.order(), X.cols());
    const Matrix beside = Matrix::Zero(X.rows(), f.horizontal.order());
    switch (passes) {
        case Passes::all:
            return reference::filter_2d(f, X, boundary);
        case Passes::columns:
            return reference::filter_2d({f.vertical, identity}, X, boundary);
        case Passes::rows:
            return reference::filter_2d({identity, f.horizontal}, X, boundary);
        case Passes::causal:
            return reference::causal_rows(f.horizontal, beside, reference::causal(f.vertical, above, X));
        case Passes::anticausal:
            return reference::anticausal_rows(f.horizontal, reference::anticausal(f.vertical, X, above),
                                              beside);
    }
    return X;
}

class PassesTest : public testing::DeviceTest<DeviceChoice> {};

// Each part, in both forms (a direct second-order filter, van Vliet's third-order Gaussian as two
// sections), under none and (one dimension's parts) clamp and reflect, within 1e-5.
TEST_P(PassesTest, EveryPartMatchesTheReference) {
    const RecursiveFilter second = unit_gain_filter({{0.6, 0.25}, {0.6, -0.25}});
    const RecursiveFilter first = unit_gain_filter({{-0.4, 0.0}});
    const struct {
        const char *name;
        Filter2D filter;
    } filters[] = {{"order2 x order1", {second, first}},
                   {"vanvliet4", {van_vliet_gaussian(4), van_vliet_gaussian(4)}}};
    const int sizes[][2] = {{1, 1}, {67, 45}, {3, 130}, {129, 2}, {31, 1}};
    auto rng = rng_for_test();
    int checked = 0;
    for (const auto &f : filters)
        for (Passes passes : {Passes::columns, Passes::rows, Passes::causal, Passes::anticausal})
            for (Boundary boundary : {Boundary::none, Boundary::clamp, Boundary::reflect}) {
                const bool one_direction = passes == Passes::causal || passes == Passes::anticausal;
                if (one_direction && boundary != Boundary::none) continue;  // refused: see below
                for (const auto &[width, height] : sizes) {
                    const Image input = random_image(rng, width, height, 2);
                    Image output(width, height, 2);
                    std::fill(output.data.begin(), output.data.end(),
                              std::numeric_limits<float>::quiet_NaN());
                    IirPlan plan(f.filter, width, height,
                                 {boundary, GetParam(), Form::automatic, Algorithm::automatic, {}, passes});
                    plan.run(input, output);
                    for (int c = 0; c < 2; c++) {
                        const double error = relative_l2(
                            reference::plane(output, c),
                            reference_part(f.filter, reference::plane(input, c), boundary, passes));
                        EXPECT_LE(error, 1e-5) << f.name << " " << passes_name(passes) << " "
                                               << boundary_name(boundary) << " " << width << "x" << height;
                    }
                    checked++;
                }
            }
    EXPECT_EQ(checked, 2 * (2 * 3 + 2) * 5);
}

INSTANTIATE_TEST_SUITE_P(Devices, PassesTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cuda ? "cuda" : "cpu"; });

// The two halves of a decomposition give the whole filter: columns then rows under clamp, causal
// then anticausal under none, through iir_2d's options.
TEST(Passes, PartsInSequenceAreTheWholeFilter) {
    auto rng = rng_for_test();
    const Filter2D g{van_vliet_gaussian(4), van_vliet_gaussian(3)};
    const Image input = random_image(rng, 45, 38, 1);
    for (const auto &[boundary, halves] :
         {std::pair{Boundary::clamp, std::pair{Passes::columns, Passes::rows}},
          std::pair{Boundary::none, std::pair{Passes::causal, Passes::anticausal}}}) {
        IirOptions options;
        options.boundary = boundary;
        options.device = DeviceChoice::cpu;
        options.passes = halves.first;
        const Image half = iir_2d(input, g, options);
        options.passes = halves.second;
        const Image both = iir_2d(half, g, options);
        const double error = relative_l2(reference::plane(both, 0),
                                         reference::filter_2d(g, reference::plane(input, 0), boundary));
        EXPECT_LE(error, 1e-5) << boundary_name(boundary);
    }
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::string refusal(const Filter2D &f, Algorithm algorithm, Boundary boundary, Passes passes,
                    SampleType samples = SampleType::f32) {
    try {
        IirPlan(f, 20, 20, {boundary, DeviceChoice::cpu, Form::automatic, algorithm, {}, passes}, samples);
    } catch (const Error &e) {
        return e.what();
    }
    return "accepted";
}

TEST(Passes, RefusalsSayWhy) {
    const Filter2D g{van_vliet_gaussian(4), van_vliet_gaussian(4)};
    EXPECT_TRUE(contains(refusal(g, Algorithm::a6, Boundary::none, Passes::columns), "algorithm rt only"));
    EXPECT_TRUE(contains(refusal(g, Algorithm::strips, Boundary::none, Passes::rows), "algorithm rt only"));
    for (Boundary b :
         {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror})
        for (Passes p : {Passes::causal, Passes::anticausal})
            EXPECT_TRUE(contains(refusal(g, Algorithm::rt, b, p), "take boundary none")) << boundary_name(b);
    EXPECT_TRUE(
        contains(refusal(g, Algorithm::rt, Boundary::none, Passes::columns, SampleType::u8), "float32"));
    // A part of an order this build has no variant for names the variants there are.
    const RecursiveFilter fifth =
        unit_gain_filter({{0.5, 0.0}, {0.4, 0.1}, {0.4, -0.1}, {0.3, 0.2}, {0.3, -0.2}});
    if (!lookup_variant(VariantKey::parse("iir_rt_columns_o5_cpu")))
        EXPECT_NE(refusal({fifth, fifth}, Algorithm::rt, Boundary::none, Passes::columns).find("iir_rt"),
                  std::string::npos);
    EXPECT_EQ(parse_passes("columns"), Passes::columns);
    EXPECT_STREQ(passes_name(Passes::anticausal), "anticausal");
    EXPECT_THROW(parse_passes("diagonal"), Error);
}

}  // namespace
}  // namespace cascade
