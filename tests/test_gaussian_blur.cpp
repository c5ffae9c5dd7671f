// The Gaussian methods as pipelines: Deriche's cascades (numerator FIR, then the all-pole passes)
// and the two-way partitioned filter against their double-precision references, unit DC gain and
// variance on images, and the FIR on its own.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/error.h"
#include "cascade/gaussian_blur.h"
#include "cuda_support.h"
#include "fir.h"
#include "reference.h"
#include "runtime/design/boundary_tables.h"
#include "runtime/design/twoway_edges.h"
#include "test_support.h"

namespace cascade {
namespace {

using testing::random_image;
using testing::relative_l2;
using testing::rng_for_test;

struct Size {
    int width, height;
};

// 1×1, a row, a column, primes, one past a 64-sample tile, and sizes off every tile.
const Size kAwkwardSizes[] = {{1, 1}, {37, 1}, {1, 23}, {2, 3}, {13, 17}, {31, 29}, {65, 64}, {257, 193}};

struct Case {
    DeviceChoice device;
    GaussianMethod method;
    Algorithm algorithm;
};

class FirIirTest : public testing::DeviceTest<Case> {};

TEST_P(FirIirTest, MatchesDoubleReferenceOnAwkwardSizes) {
    const Case &p = GetParam();
    auto rng = rng_for_test();
    // Up to deriche4's largest sigma, where float32 still holds its cascade within 1e-5.
    for (double sigma : {0.8, 3.0, kDeriche4MaxSigma}) {
        const GaussianDesign design = design_gaussian(sigma, p.method);
        for (Size size : kAwkwardSizes) {
            const int channels = size.width * size.height > 1000 ? 1 : 2;
            const Image input = random_image(rng, size.width, size.height, channels);
            Image output(size.width, size.height, channels);
            std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
            gaussian_blur(input, output, design, {Boundary::none, p.device, Form::automatic, p.algorithm});
            for (int c = 0; c < channels; c++) {
                const auto expected = reference::fir_iir_2d(design.parts, reference::plane(input, c));
                EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-5)
                    << gaussian_method_name(p.method) << " sigma " << sigma << " " << size.width << "x"
                    << size.height << " channel " << c;
            }
        }
    }
}

// The plane extended by `boundary` `pad` samples past every side, filtered as the definition
// says (numerator on the extended plane, then the all-pole passes from zero), cropped.
reference::Matrix extended_fir_iir(const FirIirGaussian &g, const reference::Matrix &X, Boundary boundary,
                                   int pad) {
    const reference::Matrix E = reference::extended(X, boundary, pad);
    return reference::fir_iir_2d(g, E).block(pad, pad, X.rows(), X.cols());
}

// Deriche's numerator commutes with the periodic and symmetric extensions: the exact boundary of
// the all-pole passes then makes the whole filter exact; under zero and clamp the all-pole passes
// run first, with a margin the numerator reads (runtime/gaussian_blur.cpp).
TEST_P(FirIirTest, EveryBoundaryMatchesTheExtendedDefinition) {
    const Case &p = GetParam();
    if (p.algorithm == Algorithm::a2 || p.algorithm == Algorithm::a5)
        GTEST_SKIP() << "algorithms 2 and 5 take boundary none (docs/boundaries.md)";
    auto rng = rng_for_test();
    for (double sigma : {0.8, 3.0}) {
        const GaussianDesign design = design_gaussian(sigma, p.method);
        // Far past the decay of both parts (poles below 0.75 at sigma 3: 0.75^200 < 1e-24).
        const int pad = 200;
        for (Boundary boundary :
             {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror}) {
            for (Size size :
                 {Size{1, 1}, Size{2, 3}, Size{37, 1}, Size{13, 17}, Size{65, 64}, Size{100, 71}}) {
                const Image input = random_image(rng, size.width, size.height, 2);
                Image output(size.width, size.height, 2);
                std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
                gaussian_blur(input, output, design, {boundary, p.device, Form::automatic, p.algorithm});
                for (int c = 0; c < 2; c++) {
                    const auto expected =
                        extended_fir_iir(design.parts, reference::plane(input, c), boundary, pad);
                    EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-5)
                        << gaussian_method_name(p.method) << " " << boundary_name(boundary) << " sigma "
                        << sigma << " " << size.width << "x" << size.height << " channel " << c;
                }
            }
        }
    }
}

TEST_P(FirIirTest, KeepsAConstantFarFromTheBorders) {
    const Case &p = GetParam();
    for (double sigma : {1.5, kDeriche4MaxSigma}) {
        const GaussianDesign design = design_gaussian(sigma, p.method);
        Image input(160, 130, 1);
        std::fill(input.data.begin(), input.data.end(), 0.7f);
        const Image output =
            gaussian_blur(input, design, {Boundary::none, p.device, Form::automatic, p.algorithm});
        // The passes start from zero at the borders; 10·sigma in, their transients are < 1e-7. What
        // is left is float32's: the taps and the poles are rounded.
        const int margin = int(std::ceil(10 * sigma));
        for (int y = margin; y < input.height - margin; y++)
            for (int x = margin; x < input.width - margin; x++)
                ASSERT_NEAR(output.at(x, y, 0), 0.7f, 1e-5) << x << "," << y << " sigma " << sigma;
    }
}

TEST_P(FirIirTest, SpreadsAnImpulseWithVarianceNearSigmaSquared) {
    const Case &p = GetParam();
    for (double sigma : {2.0, kDeriche4MaxSigma}) {
        const GaussianDesign design = design_gaussian(sigma, p.method);
        const int half = int(std::ceil(12 * sigma)), n = 2 * half + 1;
        Image input(n, n, 1);
        input.at(half, half, 0) = 1.0f;
        const Image output =
            gaussian_blur(input, design, {Boundary::none, p.device, Form::automatic, p.algorithm});
        double sum = 0, vx = 0, vy = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                const double v = output.at(x, y, 0);
                sum += v;
                vx += v * (x - half) * (x - half);
                vy += v * (y - half) * (y - half);
            }
        EXPECT_NEAR(sum, 1.0, 1e-4);
        // deriche2 is solved for sigma²; deriche4 is Deriche's fit, 0.9955·sigma².
        const double expected = p.method == GaussianMethod::deriche4 ? 0.9955 : 1.0;
        EXPECT_NEAR(vx / sum / (sigma * sigma), expected, 2e-3) << "sigma " << sigma;
        EXPECT_NEAR(vy / sum / (sigma * sigma), expected, 2e-3) << "sigma " << sigma;
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (GaussianMethod method : {GaussianMethod::deriche2, GaussianMethod::deriche4})
            for (Algorithm algorithm :
                 {Algorithm::rt, Algorithm::a2, Algorithm::a4, Algorithm::a5, Algorithm::a6})
                cases.push_back({device, method, algorithm});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    const Case &c = info.param;
    return std::string(c.device == DeviceChoice::cuda ? "cuda" : "cpu") + "_" +
           gaussian_method_name(c.method) + "_" +
           (c.algorithm == Algorithm::rt ? "rt" : std::string("a") + algorithm_name(c.algorithm));
}

INSTANTIATE_TEST_SUITE_P(Methods, FirIirTest, ::testing::ValuesIn(all_cases()), case_name);

class FirTest : public testing::DeviceTest<DeviceChoice> {};

TEST_P(FirTest, MatchesDoubleReferenceWithAnyTapCount) {
    auto rng = rng_for_test();
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (auto [vertical_taps, horizontal_taps] : {std::pair{1, 1}, {3, 3}, {1, 9}, {7, 5}, {9, 9}}) {
        SeparableFir fir;
        for (int k = 0; k < vertical_taps; k++) fir.vertical.push_back(u(rng));
        for (int k = 0; k < horizontal_taps; k++) fir.horizontal.push_back(u(rng));
        for (Size size : kAwkwardSizes) {
            const Image input = random_image(rng, size.width, size.height, 2);
            const Image output = fir_2d(input, fir, GetParam());
            for (int c = 0; c < 2; c++) {
                const auto expected =
                    reference::fir_2d(fir.vertical, fir.horizontal, reference::plane(input, c));
                EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-6)
                    << vertical_taps << "x" << horizontal_taps << " taps, " << size.width << "x"
                    << size.height;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Devices, FirTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cuda ? "cuda" : "cpu"; });

TEST(Fir, RejectsWhatItCannotRun) {
    const Image input(4, 4, 1);
    EXPECT_THROW(fir_2d(input, {{1.0, 2.0}, {1.0}}, DeviceChoice::cpu), Error);
    EXPECT_THROW(fir_2d(input, {{}, {1.0}}, DeviceChoice::cpu), Error);
    EXPECT_THROW(fir_2d(input, {std::vector<double>(11, 0.1), {1.0}}, DeviceChoice::cpu), Error);
    EXPECT_THROW(fir_2d(input, {{1.0, NAN, 1.0}, {1.0}}, DeviceChoice::cpu), Error);
}

class TwoWayTest : public testing::DeviceTest<DeviceChoice> {
protected:
    // `design`'s twoway on a random one-channel image of `size` (its output poisoned first): the
    // relative L2 from the double reference.
    template <typename Rng>
    double error_on(Rng &rng, const GaussianDesign &design, Size size) {
        const Image input = random_image(rng, size.width, size.height, 1);
        Image output(size.width, size.height, 1);
        std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
        gaussian_blur(input, output, design, {Boundary::none, GetParam()});
        return relative_l2(reference::plane(output, 0),
                           reference::two_way_2d(design.two_way, reference::plane(input, 0)));
    }
};

TEST_P(TwoWayTest, MatchesDoubleReferenceOnAwkwardSizes) {
    auto rng = rng_for_test();
    for (double sigma : {0.8, 3.0, 10.0}) {
        const GaussianDesign design = design_gaussian(sigma, GaussianMethod::twoway);
        for (Size size : kAwkwardSizes) {
            const int channels = size.width * size.height > 1000 ? 1 : 2;
            const Image input = random_image(rng, size.width, size.height, channels);
            Image output(size.width, size.height, channels);
            std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
            gaussian_blur(input, output, design, {Boundary::none, GetParam()});
            for (int c = 0; c < channels; c++) {
                const auto expected = reference::two_way_2d(design.two_way, reference::plane(input, c));
                EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-5)
                    << "sigma " << sigma << " " << size.width << "x" << size.height << " channel " << c;
            }
        }
    }
}

// Half lines of many blocks: on the GPU each half line is cut into blocks of 32 samples and its
// carries completed over chunks of 8 blocks (algebra/twoway_tiled.h), so these cross chunks,
// with lines of either parity, centres on and off the blocks' grid and a last chunk cut short.
TEST_P(TwoWayTest, LongLinesMatchTheDoubleReference) {
    auto rng = rng_for_test();
    for (double sigma : {3.0, 10.0}) {
        const GaussianDesign design = design_gaussian(sigma, GaussianMethod::twoway);
        for (Size size : {Size{1201, 3}, Size{2, 1500}, Size{577, 530}, Size{512, 64}})
            EXPECT_LE(error_on(rng, design, size), 1e-5)
                << "sigma " << sigma << " " << size.width << "x" << size.height;
    }
}

// Sections of the caller's own: a second-order last section, which the GPU runs on the variant
// that keeps both of its states (runtime/gaussian_blur.cpp, two_way_variant), where van Vliet's
// real pole takes the one that keeps one.
TEST_P(TwoWayTest, SecondOrderLastSectionMatchesTheDoubleReference) {
    auto rng = rng_for_test();
    GaussianDesign design = design_gaussian(3.0, GaussianMethod::twoway);
    RecursiveFilter last{1.0, {-(0.55 + 0.3), 0.55 * 0.3}};
    last.gain = unit_dc_gain(last.feedback);
    design.two_way.sections.back() = last;
    for (Size size : {Size{1, 1}, Size{97, 131}, Size{1201, 3}, Size{2, 1500}, Size{256, 256}})
        EXPECT_LE(error_on(rng, design, size), 1e-5) << size.width << "x" << size.height;
}

TEST_P(TwoWayTest, KeepsAConstantFarFromTheBorders) {
    for (double sigma : {1.5, 6.0}) {
        Image input(161, 130, 1);
        std::fill(input.data.begin(), input.data.end(), 0.7f);
        const Image output = gaussian_blur(input, design_gaussian(sigma, GaussianMethod::twoway),
                                           {Boundary::none, GetParam()});
        // The centre lines included: there the seed is the direct Gaussian of a constant, itself.
        const int margin = int(std::ceil(10 * sigma));
        for (int y = margin; y < input.height - margin; y++)
            for (int x = margin; x < input.width - margin; x++)
                ASSERT_NEAR(output.at(x, y, 0), 0.7f, 1e-5) << x << "," << y << " sigma " << sigma;
    }
}

TEST_P(TwoWayTest, IsExactOnTheCentreLinesOfASeparableImage) {
    // On an image constant along x, the row step sees constants (exact far from the left and right
    // borders), so the result at the centre row is the column step's centre point: the direct
    // Gaussian of the column, whatever the recursion's error.
    auto rng = rng_for_test();
    const double sigma = 3.0;
    const GaussianDesign design = design_gaussian(sigma, GaussianMethod::twoway);
    Image input(101, 61, 1);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int y = 0; y < input.height; y++) {
        const float v = u(rng);
        for (int x = 0; x < input.width; x++) input.at(x, y, 0) = v;
    }
    const Image output = gaussian_blur(input, design, {Boundary::none, GetParam()});
    const int m = input.height / 2, radius = int(design.two_way.kernel.size() / 2);
    double expected = 0;
    for (int k = -radius; k <= radius; k++)
        if (m + k >= 0 && m + k < input.height)
            expected += design.two_way.kernel[k + radius] * input.at(0, m + k, 0);
    for (int x = 40; x <= 60; x++) EXPECT_NEAR(output.at(x, m, 0), expected, 1e-5) << x;
}

// The exact boundaries (runtime/design/twoway_edges.h, two_way_edges): the first passes start from the
// extension's states and the centre points read the extension, as the reference writes it out.
TEST_P(TwoWayTest, EveryBoundaryMatchesTheExtendedDefinition) {
    auto rng = rng_for_test();
    for (Boundary boundary :
         {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror})
        for (double sigma : {0.8, 3.0, 10.0}) {
            const GaussianDesign design = design_gaussian(sigma, GaussianMethod::twoway);
            for (Size size : kAwkwardSizes) {
                const Image input = random_image(rng, size.width, size.height, 1);
                Image output(size.width, size.height, 1);
                std::fill(output.data.begin(), output.data.end(), std::numeric_limits<float>::quiet_NaN());
                gaussian_blur(input, output, design, {boundary, GetParam()});
                const auto expected =
                    reference::two_way_2d(design.two_way, reference::plane(input, 0), boundary);
                EXPECT_LE(relative_l2(reference::plane(output, 0), expected), 1e-5)
                    << boundary_name(boundary) << " sigma " << sigma << " " << size.width << "x"
                    << size.height;
            }
        }
}

// Every sample, the edges and the centre lines included: each half's first pass starts in the
// constant's steady state and the centre points sum the whole kernel.
TEST_P(TwoWayTest, KeepsAConstantUnderEveryExtension) {
    for (Boundary boundary : {Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror})
        for (double sigma : {0.5, 2.0, 10.0, 50.0, 200.0})
            for (Size size : {Size{1, 1}, Size{2, 3}, Size{37, 23}, Size{130, 7}}) {
                Image input(size.width, size.height, 1);
                std::fill(input.data.begin(), input.data.end(), 0.7f);
                const Image output = gaussian_blur(input, design_gaussian(sigma, GaussianMethod::twoway),
                                                   {boundary, GetParam()});
                float worst = 0;
                for (float v : output.data) worst = std::max(worst, std::abs(v - 0.7f));
                EXPECT_LE(worst, 0.7f * 1e-5f) << boundary_name(boundary) << " sigma " << sigma << " "
                                               << size.width << "x" << size.height;
            }
}

INSTANTIATE_TEST_SUITE_P(Devices, TwoWayTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cuda ? "cuda" : "cpu"; });

// Against the serial definition: the cascade run over the extension written out before sample 0
// (after sample N − 1, backwards) until its response has decayed, its outputs one and two samples
// past the end.
TEST(TwoWay, EdgeWeightsGiveTheExtensionsStates) {
    auto rng = rng_for_test();
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (double sigma : {3.0, 50.0}) {
        const TwoWayGaussian g = two_way_gaussian(sigma);
        std::vector<float> coefficients;
        for (const RecursiveFilter &s : g.sections)
            coefficients.insert(coefficients.end(), {float(s.gain), float(s.feedback[0]),
                                                     s.feedback.size() > 1 ? float(s.feedback[1]) : 0.0f});
        const int K = 2 * int(g.sections.size());
        const int64_t pad = decay_length(g.sections, 1e-16);
        for (Boundary boundary : {Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror})
            for (int64_t n : {1, 2, 7, 64, 301}) {
                std::vector<double> x(n);
                for (double &v : x) v = u(rng);
                const TwoWayEdgeWeights table = two_way_edges(coefficients, n, boundary);
                ASSERT_EQ(table.weights.size(), size_t(table.count * 2 * K));
                for (int side = 0; side < 2; side++) {
                    std::vector<double> state(K, 0.0);
                    for (int64_t j = pad; j >= 0; j--) {
                        const int64_t i = extended_index(boundary, side == 0 ? -1 - j : n + j, n);
                        double in = x[i];
                        for (size_t s = 0; s < g.sections.size(); s++) {
                            const double out = double(coefficients[3 * s]) * in -
                                               double(coefficients[3 * s + 1]) * state[2 * s] -
                                               double(coefficients[3 * s + 2]) * state[2 * s + 1];
                            state[2 * s + 1] = state[2 * s];
                            state[2 * s] = out;
                            in = out;
                        }
                    }
                    for (int k = 0; k < K; k++) {
                        double sum = 0;
                        for (int64_t q = 0; q < table.count; q++) {
                            const int64_t i = q < table.near ? q : n - table.count + q;
                            sum += double(table.weights[size_t(q + table.count * (k + K * side))]) * x[i];
                        }
                        EXPECT_NEAR(sum, state[k], 1e-5 * (1 + std::abs(state[k])))
                            << boundary_name(boundary) << " sigma " << sigma << " n " << n << " side " << side
                            << " value " << k;
                    }
                }
            }
    }
}

TEST(TwoWay, RefusesAnAlgorithm) {
    const Image input(8, 8, 1);
    const GaussianDesign design = design_gaussian(2, GaussianMethod::twoway);
    try {
        gaussian_blur(input, design, {Boundary::none, DeviceChoice::cpu, Form::automatic, Algorithm::rt});
        FAIL() << "twoway accepted --algorithm rt";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("twoway"), std::string::npos) << e.what();
    }
}

TEST(GaussianMethods, RejectBadSigmaAndUnknownNames) {
    for (GaussianMethod method : {GaussianMethod::vanvliet, GaussianMethod::deriche2,
                                  GaussianMethod::deriche4, GaussianMethod::twoway})
        for (double sigma : {0.0, -2.0, double(NAN), double(INFINITY)})
            EXPECT_THROW(design_gaussian(sigma, method), Error)
                << gaussian_method_name(method) << " " << sigma;
    EXPECT_EQ(parse_gaussian_method("deriche4"), GaussianMethod::deriche4);
    try {
        parse_gaussian_method("gauss");
        FAIL() << "an unknown method was accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("unknown method 'gauss'"), std::string::npos) << e.what();
    }
}

// vanvliet takes a sigma a dimension, run by the plan every method runs by; the other methods,
// whose numerator or joined halves filter both dimensions alike, take one.
TEST(GaussianMethods, VanVlietTakesASigmaADimension) {
    auto rng = rng_for_test();
    const Image input = random_image(rng, 45, 38, 2);
    const GaussianDesign design = design_gaussian(1.5, 4.0, GaussianMethod::vanvliet);
    const Filter2D filter{van_vliet_gaussian(1.5), van_vliet_gaussian(4.0)};
    for (Boundary boundary : {Boundary::none, Boundary::reflect}) {
        const Image output = gaussian_blur(input, design, {boundary, DeviceChoice::cpu});
        for (int c = 0; c < 2; c++)
            EXPECT_LE(relative_l2(reference::plane(output, c),
                                  reference::filter_2d(filter, reference::plane(input, c), boundary)),
                      1e-5)
                << boundary_name(boundary) << " channel " << c;
    }
    for (GaussianMethod method :
         {GaussianMethod::deriche2, GaussianMethod::deriche4, GaussianMethod::twoway}) {
        EXPECT_NO_THROW(design_gaussian(2.0, 2.0, method)) << gaussian_method_name(method);
        EXPECT_THROW(design_gaussian(1.5, 2.0, method), Error) << gaussian_method_name(method);
    }
}

}  // namespace
}  // namespace cascade
