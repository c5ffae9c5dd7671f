// The separable 2D FIR (cascade/fir2d.h) against double sums over the extension
// (correlation_reference.h): down the columns in double, then along the rows.
#include <HalideBuffer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "cascade/error.h"
#include "cascade/fir2d.h"
#include "correlation_reference.h"
#include "cuda_support.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

using testing::expect_correlated;
using testing::random_taps;
using Filter = testing::Taps;

struct Case {
    DeviceChoice device;
    SampleType samples;
    Boundary boundary;
};

void PrintTo(const Case &k, std::ostream *os) {
    *os << device_choice_names()[int(k.device)] << " " << sample_name(k.samples) << " "
        << boundary_name(k.boundary);
}

class Fir2dTest : public testing::DeviceTest<Case> {
protected:
    template <typename T>
    void check_all(double tolerance) {
        const Case &k = GetParam();
        const Device device = resolve_device(k.device);
        std::mt19937 rng(7 + int(k.boundary) + 100 * int(k.samples) + 1000 * int(k.device));
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        struct Shape {
            int width, height, channels;
        };
        // Single samples, single lines either way, primes, lines shorter than the taps, and
        // images of several CUDA tiles with ragged last ones.
        const Shape shapes[] = {{1, 1, 1},   {1, 17, 2}, {17, 1, 2}, {2, 3, 1},    {5, 4, 2},
                                {37, 23, 3}, {64, 9, 1}, {9, 64, 1}, {131, 67, 1}, {67, 131, 2}};
        // (count, center) pairs for y then x: one tap, even counts, centres at the ends and off the
        // middle, a box of 31, the widest reach of each radius class (8, 16, 32).
        const std::pair<Filter, Filter> filters[] = {
            {{random_taps(rng, 1), 0}, {random_taps(rng, 1), 0}},
            {{random_taps(rng, 2), 0}, {random_taps(rng, 2), 1}},
            {{random_taps(rng, 5), 4}, {random_taps(rng, 3), 1}},
            {{random_taps(rng, 17), 3}, {random_taps(rng, 9), 8}},
            {{std::vector<double>(31, 1.0 / 31), 15}, {std::vector<double>(31, 1.0 / 31), 15}},
            {{random_taps(rng, 33), 16}, {random_taps(rng, 20), 4}},
            {{random_taps(rng, 33), 0}, {random_taps(rng, 65), 32}},
        };
        for (const Shape &s : shapes)
            for (const auto &[fy, fx] : filters) {
                Halide::Runtime::Buffer<T> input(s.width, s.height, s.channels),
                    output(s.width, s.height, s.channels);
                input.for_each_value([&](T &v) { v = T(u(rng)); });
                output.fill(std::numeric_limits<T>::quiet_NaN());
                Fir2dPlan plan(fy.taps, fy.center, fx.taps, fx.center, k.boundary, device, k.samples);
                plan.run_host(input.raw_buffer(), output.raw_buffer());
                const std::string what =
                    std::to_string(s.width) + "x" + std::to_string(s.height) + "x" +
                    std::to_string(s.channels) + ", taps " + std::to_string(fy.taps.size()) + "@" +
                    std::to_string(fy.center) + " by " + std::to_string(fx.taps.size()) + "@" +
                    std::to_string(fx.center) + ", radius " + std::to_string(plan.radius());
                expect_correlated(input, output, fy, fx, k.boundary, tolerance, what);
                if (HasFailure()) return;
            }
    }
};

TEST_P(Fir2dTest, MatchesTheDirectSums) {
    if (GetParam().samples == SampleType::f64) {
        check_all<double>(1e-13);
    } else {
        check_all<float>(2e-6);
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice d : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (SampleType t : {SampleType::f32, SampleType::f64})
            for (Boundary b : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                               Boundary::reflect, Boundary::mirror})
                cases.push_back({d, t, b});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    const Case &k = info.param;
    return std::string(k.device == DeviceChoice::cuda ? "cuda_" : "cpu_") + sample_name(k.samples) + "_" +
           boundary_name(k.boundary);
}

INSTANTIATE_TEST_SUITE_P(Filters, Fir2dTest, ::testing::ValuesIn(all_cases()), case_name);

// A plan takes the smallest radius class that reaches as far as its taps on both sides of both
// centres.
TEST(Fir2d, RadiusClasses) {
    std::vector<int> radii;
    for (const Variant &v : variants())
        if (v.key.family == Family::fir2d && v.key.device == "cpu" && v.key.samples.empty())
            radii.push_back(v.key.order);
    if (radii.empty()) GTEST_SKIP() << "this build has no fir2d variants";
    const auto radius = [](int count_y, int center_y, int count_x, int center_x) {
        return Fir2dPlan(std::vector<double>(count_y, 1.0), center_y, std::vector<double>(count_x, 1.0),
                         center_x, Boundary::reflect, Device::cpu)
            .radius();
    };
    const auto smallest = [&](int reach) {
        int best = -1;
        for (int r : radii)
            if (r >= reach && (best < 0 || r < best)) best = r;
        return best;
    };
    EXPECT_EQ(radius(1, 0, 1, 0), smallest(0));
    EXPECT_EQ(radius(33, 16, 3, 1), smallest(16));
    EXPECT_EQ(radius(17, 0, 3, 1), smallest(16));
    EXPECT_EQ(radius(3, 1, 18, 17), smallest(17));
}

// The convenience functions on images and host buffers, and one plan run twice.
TEST(Fir2d, ConvenienceFunctionsAndReuse) {
    Image image(23, 11, 2);
    for (size_t k = 0; k < image.data.size(); k++) image.data[k] = float(std::sin(0.37 * double(k)));
    const std::vector<double> taps = {0.25, 0.5, 0.25};
    const Image out = fir2d(image, {1.0}, 0, taps, 1, Boundary::mirror, DeviceChoice::cpu);
    for (int c = 0; c < 2; c++)
        for (int y = 0; y < 11; y++)
            for (int x = 0; x < 23; x++) {
                const int l = x == 0 ? 1 : x - 1, r = x == 22 ? 21 : x + 1;
                const double want =
                    0.25 * image.at(l, y, c) + 0.5 * image.at(x, y, c) + 0.25 * image.at(r, y, c);
                EXPECT_NEAR(out.at(x, y, c), want, 1e-6) << x << ", " << y << ", " << c;
            }
    Halide::Runtime::Buffer<double> in(4, 5, 1), once(4, 5, 1), twice(4, 5, 1);
    in.for_each_element([&](int x, int y, int c) { in(x, y, c) = x + 10 * y + c; });
    fir2d(in.raw_buffer(), once.raw_buffer(), {1.0, -1.0}, 0, {1.0}, 0, Boundary::clamp, DeviceChoice::cpu);
    // Down the columns, clamp: the next row less this one, 0 in the last.
    once.for_each_element([&](int x, int y, int c) { EXPECT_EQ(once(x, y, c), y == 4 ? 0.0 : -10.0); });
    Fir2dPlan plan({2.0}, 0, {0.5, 0.0}, 1, Boundary::zero, Device::cpu, SampleType::f64);
    for (int k = 0; k < 2; k++) {
        twice.fill(std::numeric_limits<double>::quiet_NaN());
        plan.run(in.raw_buffer(), twice.raw_buffer());
        // x taps {0.5, 0} centred on the 0: half the left neighbour, 0 at x = 0.
        twice.for_each_element(
            [&](int x, int y, int c) { EXPECT_EQ(twice(x, y, c), x == 0 ? 0.0 : in(x - 1, y, c)); });
    }
}

// Empty images need no pipeline.
TEST(Fir2d, EmptyImages) {
    Halide::Runtime::Buffer<float> in(0, 7, 1), out(0, 7, 1);
    EXPECT_NO_THROW(fir2d(in.raw_buffer(), out.raw_buffer(), {1.0, 2.0}, 1, {1.0}, 0, Boundary::reflect,
                          DeviceChoice::cpu));
}

void expect_error(const std::function<void()> &f, const std::string &part) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one saying '" << part << "'";
    } catch (const Error &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(part), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(Fir2d, BadInputThrows) {
    const auto plan = [](std::vector<double> taps, int center, SampleType samples = SampleType::f32) {
        Fir2dPlan p({1.0}, 0, taps, center, Boundary::reflect, Device::cpu, samples);
    };
    expect_error([&] { plan({}, 0); }, "at least one tap along x");
    expect_error([&] { Fir2dPlan p({}, 0, {1.0}, 0, Boundary::zero, Device::cpu); },
                 "at least one tap along y");
    expect_error([&] { plan({1.0, std::nan("")}, 0); }, "not a finite number");
    expect_error([&] { plan({1.0, std::numeric_limits<double>::infinity()}, 0); }, "not a finite number");
    expect_error([&] { plan({1.0, 2.0}, -1); }, "center along x -1");
    expect_error([&] { plan({1.0, 2.0}, 2); }, "center along x 2");
    expect_error([&] { plan({1.0}, 0, SampleType::u8); }, "float32 or float64");
    expect_error([&] { plan(std::vector<double>(1001, 1.0), 500); }, "");

    Halide::Runtime::Buffer<double> f64(8, 8, 1);
    Halide::Runtime::Buffer<float> f32(8, 8, 1), f32_out(8, 8, 1), narrow(7, 8, 1);
    Halide::Runtime::Buffer<uint8_t> u8(8, 8, 1), u8_out(8, 8, 1);
    Fir2dPlan p({1.0, 2.0, 1.0}, 1, {1.0}, 0, Boundary::zero, Device::cpu);
    expect_error([&] { p.run(f64.raw_buffer(), f64.raw_buffer()); }, "float32");
    expect_error([&] { p.run(f32.raw_buffer(), f64.raw_buffer()); }, "float32");
    expect_error([&] { p.run(f32.raw_buffer(), narrow.raw_buffer()); }, "the input 8x8x1");
    expect_error([&] { p.run(f32.raw_buffer(), f32.raw_buffer()); }, "in place");
    expect_error(
        [&] {
            fir2d(u8.raw_buffer(), u8_out.raw_buffer(), {1.0}, 0, {1.0}, 0, Boundary::zero,
                  DeviceChoice::cpu);
        },
        "not uint8");
    expect_error(
        [&] {
            fir2d(f32.raw_buffer(), f64.raw_buffer(), {1.0}, 0, {1.0}, 0, Boundary::zero, DeviceChoice::cpu);
        },
        "float32");
    EXPECT_NO_THROW(p.run(f32.raw_buffer(), f32_out.raw_buffer()));
}

}  // namespace
}  // namespace cascade
