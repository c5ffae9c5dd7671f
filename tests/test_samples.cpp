// 8- and 16-bit images filtered with the conversion inside the pipeline (algebra/samples.h):
// every output sample is the float64 reference's value, clamped to [0, 1], at the type's nearest
// level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/gaussian_blur.h"
#include "cascade/iir.h"
#include "cascade/planes.h"
#include "cuda_support.h"
#include "reference.h"
#include "test_support.h"

namespace cascade {
namespace {

using testing::DeviceTest;
using testing::random_stable_filter;
using testing::rng_for_test;

struct Size {
    int width, height;
};
const Size kSizes[] = {{1, 1}, {3, 5}, {37, 1}, {1, 37}, {65, 64}, {257, 193}, {2000, 3}, {3, 2000}};

struct Case {
    DeviceChoice device;
    SampleType type;
    Boundary boundary;
};

class SampleTest : public DeviceTest<Case> {};

// Random samples of `type` over the whole range, and the same image as the filters' [0, 1] floats.
Halide::Runtime::Buffer<> random_samples(std::mt19937_64 &rng, SampleType type, Size size, int channels,
                                         Image &as_float) {
    Halide::Runtime::Buffer<> samples(halide_type(type), size.width, size.height, channels);
    const double largest = type == SampleType::u8 ? 255 : 65535;
    std::uniform_int_distribution<int> level(0, int(largest));
    as_float = Image(size.width, size.height, channels);
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < size.height; y++)
            for (int x = 0; x < size.width; x++) {
                const int v = level(rng);
                if (type == SampleType::u8) {
                    samples.as<uint8_t>()(x, y, c) = uint8_t(v);
                } else {
                    samples.as<uint16_t>()(x, y, c) = uint16_t(v);
                }
                as_float.at(x, y, c) = float(v / largest);
            }
    return samples;
}

double level_at(const Halide::Runtime::Buffer<> &b, int x, int y, int c) {
    return b.type().bits == 8 ? b.as<uint8_t>()(x, y, c) : b.as<uint16_t>()(x, y, c);
}

// Filters `input` twice, into outputs poisoned with the lowest and the highest level (a sample a
// pipeline leaves unwritten then differs), and checks each sample against the reference rounded:
// within half a level plus float32's error, 3e-5 of the range (0.008 levels for uint8, 2 for
// uint16) times the largest magnitude the filtered image reaches before clamping (random filters
// with poles near −1 amplify the highest frequencies a hundredfold).
void expect_rounded_reference(const std::function<bool(halide_buffer_t *, halide_buffer_t *)> &run,
                              Halide::Runtime::Buffer<> input, const std::vector<reference::Matrix> &expected,
                              const std::string &what) {
    const double largest = input.type().bits == 8 ? 255 : 65535;
    Halide::Runtime::Buffer<> low(input.type(), input.width(), input.height(), input.channels()),
        high(input.type(), input.width(), input.height(), input.channels());
    if (input.type().bits == 8) {
        low.as<uint8_t>().fill(0);
        high.as<uint8_t>().fill(0xff);
    } else {
        low.as<uint16_t>().fill(0);
        high.as<uint16_t>().fill(0xffff);
    }
    for (Halide::Runtime::Buffer<> *out : {&low, &high})
        ASSERT_TRUE(run(input.raw_buffer(), out->raw_buffer())) << what;
    double peak = 1;
    for (const reference::Matrix &m : expected) peak = std::max(peak, m.cwiseAbs().maxCoeff());
    double worst = 0;
    for (int c = 0; c < input.channels(); c++)
        for (int y = 0; y < input.height(); y++)
            for (int x = 0; x < input.width(); x++) {
                ASSERT_EQ(level_at(low, x, y, c), level_at(high, x, y, c))
                    << what << " unwritten at " << x << "," << y;
                const double exact = std::clamp(expected[c](y, x), 0.0, 1.0) * largest;
                worst = std::max(worst, std::abs(level_at(low, x, y, c) - exact));
            }
    EXPECT_LE(worst, 0.5 + 3e-5 * largest * peak) << what << " (peak " << peak << ")";
}

TEST_P(SampleTest, IirMatchesTheRoundedReference) {
    const Case &p = GetParam();
    auto rng = rng_for_test();
    // Order 1: the direct form; 2: one or two sections; 3 and 4 with complex poles: two (the
    // 8/16-bit variants' largest; SampleRouting checks what needs more).
    for (int order = 1; order <= 4; order++) {
        for (Size size : kSizes) {
            const int channels = size.width % 2 ? 1 : 3;
            const bool complex_poles = order >= 3 || (order == 2 && size.height % 2);
            const Filter2D filter{random_stable_filter(rng, order, 0.95, complex_poles),
                                  random_stable_filter(rng, order, 0.95, complex_poles)};
            Image as_float;
            const Halide::Runtime::Buffer<> input = random_samples(rng, p.type, size, channels, as_float);
            std::vector<reference::Matrix> expected;
            for (int c = 0; c < channels; c++)
                expected.push_back(reference::filter_2d(filter, reference::plane(as_float, c), p.boundary));
            const IirOptions options{p.boundary, p.device};
            expect_rounded_reference(
                [&](halide_buffer_t *in, halide_buffer_t *out) { return iir_2d(in, out, filter, options); },
                input, expected,
                "order " + std::to_string(order) + " " + std::to_string(size.width) + "x" +
                    std::to_string(size.height));
        }
    }
}

TEST_P(SampleTest, VanVlietGaussianMatchesTheRoundedReference) {
    const Case &p = GetParam();
    auto rng = rng_for_test();
    // Up to sigma 10: beyond, float32's recursion drifts past the tolerance whatever the sample
    // type (test_boundary.cpp measures it).
    for (double sigma : {0.5, 3.0, 10.0}) {
        const GaussianDesign design = design_gaussian(sigma, GaussianMethod::vanvliet);
        const Filter2D filter{design.parts.pass, design.parts.pass};
        for (Size size : {Size{1, 1}, Size{257, 193}, Size{3, 2000}}) {
            Image as_float;
            const Halide::Runtime::Buffer<> input = random_samples(rng, p.type, size, 3, as_float);
            std::vector<reference::Matrix> expected;
            for (int c = 0; c < 3; c++)
                expected.push_back(reference::filter_2d(filter, reference::plane(as_float, c), p.boundary));
            const IirOptions options{p.boundary, p.device};
            expect_rounded_reference(
                [&](halide_buffer_t *in, halide_buffer_t *out) {
                    return gaussian_blur(in, out, design, options);
                },
                input, expected,
                "sigma " + std::to_string(sigma) + " " + std::to_string(size.width) + "x" +
                    std::to_string(size.height));
        }
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (SampleType type : {SampleType::u8, SampleType::u16})
            for (Boundary boundary : {Boundary::none, Boundary::clamp, Boundary::mirror})
                cases.push_back({device, type, boundary});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    const Case &c = info.param;
    return std::string(c.device == DeviceChoice::cuda ? "cuda" : "cpu") + "_" + sample_name(c.type) + "_" +
           boundary_name(c.boundary);
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleTest, ::testing::ValuesIn(all_cases()), case_name);

// Where no variant converts, the calls say so and run nothing; a plan asked for one refuses.
TEST(SampleRouting, OnlyAlgorithmSixConvertsAndOnlyTheBuiltOrders) {
    auto rng = rng_for_test();
    const RecursiveFilter first = random_stable_filter(rng, 1, 0.9, false);
    const Filter2D order1{first, first};
    EXPECT_TRUE(converts_samples(order1, {}, SampleType::u8, Device::cpu));
    EXPECT_TRUE(converts_samples(order1, {}, SampleType::f32, Device::cpu));
    IirOptions rt;
    rt.algorithm = Algorithm::rt;
    EXPECT_FALSE(converts_samples(order1, rt, SampleType::u16, Device::cpu));
    EXPECT_THROW(IirPlan(order1, 8, 8, {Boundary::none, DeviceChoice::cpu, Form::automatic, Algorithm::rt},
                         SampleType::u8),
                 Error);
    EXPECT_THROW(IirPlan(order1, 8, 8, {Boundary::none, DeviceChoice::cpu, Form::automatic, Algorithm::a6},
                         SampleType::u32),
                 Error);
    const RecursiveFilter high = random_stable_filter(rng, 8, 0.9, true);
    EXPECT_FALSE(converts_samples(Filter2D{high, high}, {}, SampleType::u8, Device::cpu));
    Halide::Runtime::Buffer<uint8_t> in(4, 4, 1), out(4, 4, 1);
    in.fill(7);
    out.fill(3);
    EXPECT_FALSE(iir_2d(in.raw_buffer(), out.raw_buffer(), Filter2D{high, high}, IirOptions{}));
    EXPECT_EQ(out(0, 0, 0), 3);
    const GaussianDesign deriche = design_gaussian(2.0, GaussianMethod::deriche2);
    EXPECT_FALSE(gaussian_blur(in.raw_buffer(), out.raw_buffer(), deriche, IirOptions{}));
}

}  // namespace
}  // namespace cascade
