// Filter description: coefficient parsing, poles and the stability check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cascade/error.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "direct_form.h"
#include "test_support.h"

namespace cascade {
namespace {

TEST(ParseCoefficients, AcceptsListsOfNumbers) {
    EXPECT_EQ(parse_coefficients("-0.5"), std::vector<double>({-0.5}));
    EXPECT_EQ(parse_coefficients("0.25,-1e-1, 3"), std::vector<double>({0.25, -0.1, 3.0}));
}

TEST(ParseCoefficients, RejectsMalformedLists) {
    for (const char *bad :
         {"", ",", "0.5,", ",0.5", "0.5,,0.1", "abc", "0.5x", "nan", "inf", "1e999", "0.5;0.1"})
        EXPECT_THROW(parse_coefficients(bad), Error) << "'" << bad << "'";
}

TEST(Poles, AreTheRootsOfTheFeedbackPolynomial) {
    // (1 − 0.5 z⁻¹)(1 + 0.25 z⁻¹) = 1 − 0.25 z⁻¹ − 0.125 z⁻²
    auto p = poles(RecursiveFilter{1.0, {-0.25, -0.125}});
    ASSERT_EQ(p.size(), 2u);
    std::vector<double> re = {p[0].real(), p[1].real()};
    std::sort(re.begin(), re.end());
    EXPECT_NEAR(re[0], -0.25, 1e-12);
    EXPECT_NEAR(re[1], 0.5, 1e-12);
    EXPECT_NEAR(p[0].imag(), 0.0, 1e-12);
}

TEST(RequireStable, AcceptsPolesInsideAndRejectsOnOrOutsideTheCircle) {
    EXPECT_NO_THROW(require_stable(RecursiveFilter{0.5, {-0.5}}));
    EXPECT_NO_THROW(require_stable(RecursiveFilter{1.0, {-1.8, 0.9}}));  // complex pair, |p| ≈ 0.95
    EXPECT_THROW(require_stable(RecursiveFilter{1.0, {-1.0}}), Error);   // pole at 1: the SAT
    EXPECT_THROW(require_stable(RecursiveFilter{1.0, {1.5}}), Error);
    EXPECT_THROW(require_stable(RecursiveFilter{1.0, {0.0, 1.0}}), Error);  // poles ±i
    EXPECT_THROW(require_stable(RecursiveFilter{1.0, {}}), Error);
    EXPECT_THROW(require_stable(RecursiveFilter{NAN, {-0.5}}), Error);
    EXPECT_THROW(require_stable(RecursiveFilter{1.0, {INFINITY}}), Error);
}

// Found by fuzz_design: coefficients spanning hundreds of decades hid their large poles from the
// root finder, which returned zeros, and these filters ran to Inf.
TEST(RequireStable, RejectsCoefficientsNoStableFilterHas) {
    for (const std::vector<double> &feedback :
         {std::vector<double>{0.5, 0.5, 3.75e255, 0.5, 0.5, 0.5}, std::vector<double>{-4.9e-324, -1.7e308},
          std::vector<double>{2.0000001}, std::vector<double>{0.0, 0.0, 1.0000001}}) {
        try {
            require_stable(RecursiveFilter{1.0, feedback});
            ADD_FAILURE() << "accepted a" << feedback.size() << " = " << feedback.back();
        } catch (const Error &e) {
            EXPECT_NE(std::string(e.what()).find("unstable filter"), std::string::npos) << e.what();
        }
    }
    // At the bound but inside the circle: (1 − 0.999z⁻¹)³ has a_k = C(3, k)·(−0.999)^k.
    EXPECT_NO_THROW(require_stable(RecursiveFilter{1.0, {-2.997, 2.994003, -0.997002999}}));
}

TEST(RandomStableFilter, HasPolesInsideTheRequestedRadius) {
    auto rng = testing::rng_for_test();
    for (int order = 1; order <= 8; order++) {
        for (bool complex_poles : {false, true}) {
            RecursiveFilter f = testing::random_stable_filter(rng, order, 0.95, complex_poles);
            ASSERT_EQ(f.order(), order);
            for (auto p : poles(f)) EXPECT_LT(std::abs(p), 0.95 + 1e-9);
            EXPECT_NEAR(f.gain, unit_dc_gain(f.feedback), 1e-15);
        }
    }
}

// The GPU's automatic form of order 3 (runtime/design/direct_form.h): van Vliet's Gaussian keeps its
// direct form within float32's rounding to σ ≈ 5; the error grows with σ, the sections' far less.
TEST(DirectForm, Float32AccuracyDecidesTheAutomaticForm) {
    EXPECT_TRUE(direct_form_accurate(van_vliet_gaussian(2)));
    EXPECT_TRUE(direct_form_accurate(van_vliet_gaussian(4)));
    EXPECT_FALSE(direct_form_accurate(van_vliet_gaussian(8)));
    EXPECT_FALSE(direct_form_accurate(van_vliet_gaussian(64)));
    double previous = 0;
    for (double sigma : {1.0, 2.0, 4.0, 8.0, 16.0}) {
        const RecursiveFilter g = van_vliet_gaussian(sigma);
        const double direct = float_pass_error(g, variant_sections(g, true, 3));
        const double sections = float_pass_error(g, variant_sections(g, false, 2));
        EXPECT_GT(direct, previous) << "sigma " << sigma;
        EXPECT_LT(sections, kDirectFormError) << "sigma " << sigma;
        EXPECT_GT(direct, sections) << "sigma " << sigma;
        previous = direct;
    }
    // The measure tells a different filter from rounding.
    EXPECT_GT(float_pass_error(van_vliet_gaussian(4), {van_vliet_gaussian(4.1)}), 1e-3);
}

}  // namespace
}  // namespace cascade

namespace cascade {
namespace {

// Multiplies the sections back into one filter, in double.
RecursiveFilter product(const std::vector<RecursiveFilter> &sections) {
    std::vector<double> poly{1.0};
    double gain = 1.0;
    for (const auto &s : sections) {
        std::vector<double> next(poly.size() + s.order(), 0.0);
        for (size_t i = 0; i < poly.size(); i++) {
            next[i] += poly[i];
            for (int k = 1; k <= s.order(); k++) next[i + k] += poly[i] * s.feedback[k - 1];
        }
        poly = next;
        gain *= s.gain;
    }
    return {gain, std::vector<double>(poly.begin() + 1, poly.end())};
}

TEST(ToSections, MultiplyBackToTheFilter) {
    auto rng = testing::rng_for_test();
    for (int order = 1; order <= 8; order++) {
        for (bool complex_poles : {false, true}) {
            RecursiveFilter f = testing::random_stable_filter(rng, order, 0.95, complex_poles);
            auto sections = to_sections(f);
            for (const auto &s : sections) EXPECT_LE(s.order(), 2);
            RecursiveFilter back = product(sections);
            ASSERT_EQ(back.order(), order);
            EXPECT_DOUBLE_EQ(back.gain, f.gain);
            for (int k = 0; k < order; k++) EXPECT_NEAR(back.feedback[k], f.feedback[k], 1e-12);
        }
    }
}

TEST(ToSections, GiveOneSectionPerConjugatePairAndPerTwoRealPoles) {
    // (1 − 0.5 z⁻¹)(1 − 0.8 z⁻¹ + 0.25 z⁻²)(1 + 0.3 z⁻¹): the two real poles share a section.
    RecursiveFilter f = product({{2.0, {-0.5}}, {1.0, {-0.8, 0.25}}, {1.0, {0.3}}});
    auto sections = to_sections(f);
    ASSERT_EQ(sections.size(), 2u);
    for (const auto &s : sections) EXPECT_EQ(s.order(), 2);
    EXPECT_DOUBLE_EQ(sections.front().gain, 2.0);
    // An odd order leaves one first-order section.
    auto odd = to_sections(product({{1.0, {-0.5}}, {1.0, {0.3}}, {1.0, {-0.9}}}));
    ASSERT_EQ(odd.size(), 2u);
    EXPECT_EQ(odd[0].order() + odd[1].order(), 3);
}

// Found by fuzz_design: van Vliet's Gaussian at σ 1960 is stable in double, but its direct form
// rounded to float32 (what the pipeline runs) is not, and under boundary periodic the plan's tables
// of the unstable filter made the output Inf. The plan refuses it and says what runs; the sections
// run and stay finite.
TEST(RequireStable, ADirectFormThatFloatRoundingMakesUnstableIsRefused) {
    const RecursiveFilter g = van_vliet_gaussian(1959.6549019607817);
    EXPECT_NO_THROW(require_stable(g));
    for (Boundary boundary : {Boundary::none, Boundary::periodic}) {
        try {
            IirPlan(Filter2D{g, g}, 9, 2, {boundary, DeviceChoice::cpu, Form::direct, Algorithm::rt});
            ADD_FAILURE() << "the unstable float32 direct form was accepted under "
                          << boundary_name(boundary);
        } catch (const Error &e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("no longer stable"), std::string::npos) << what;
            EXPECT_NE(what.find("run it as sections"), std::string::npos) << what;
        }
    }
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, 9, 2, 1);
    Image output(9, 2, 1);
    IirPlan(Filter2D{g, g}, 9, 2, {Boundary::periodic, DeviceChoice::cpu, Form::sections, Algorithm::rt})
        .run(input, output);
    EXPECT_TRUE(
        std::all_of(output.data.begin(), output.data.end(), [](float v) { return std::isfinite(v); }));
}

}  // namespace
}  // namespace cascade
