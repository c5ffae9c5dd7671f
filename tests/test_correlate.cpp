// One axis's FIR of run-time length (cascade/correlate.h) against direct double sums over the
// extension (correlation_reference.h).
#include <HalideBuffer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "cascade/correlate.h"
#include "cascade/error.h"
#include "correlation_reference.h"
#include "cuda_support.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

using testing::expect_correlated;
using testing::random_taps;
using Filter = testing::Taps;

// `output` against `input` correlated by `f` along `axis`.
template <typename T>
void expect_matches(const Halide::Runtime::Buffer<T> &input, const Halide::Runtime::Buffer<T> &output,
                    const Filter &f, LineAxis axis, Boundary boundary, double tolerance,
                    const std::string &what) {
    const bool rows = axis == LineAxis::rows;
    expect_correlated(input, output, rows ? std::nullopt : std::optional<Filter>(f),
                      rows ? std::optional<Filter>(f) : std::nullopt, boundary, tolerance, what);
}

struct Case {
    DeviceChoice device;
    SampleType samples;
    LineAxis axis;
    Boundary boundary;
};

void PrintTo(const Case &k, std::ostream *os) {
    *os << device_choice_names()[int(k.device)] << " " << sample_name(k.samples) << " "
        << (k.axis == LineAxis::rows ? "rows" : "columns") << " " << boundary_name(k.boundary);
}

class CorrelateTest : public testing::DeviceTest<Case> {
protected:
    template <typename T>
    void check_all(double tolerance) {
        const Case &k = GetParam();
        const Device device = resolve_device(k.device);
        std::mt19937 rng(7 + int(k.boundary) + 10 * int(k.axis) + 100 * int(k.samples));
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        struct Shape {
            int width, height, channels;
        };
        // Single samples, single lines either way, primes, and lines shorter than the filters.
        const Shape shapes[] = {{1, 1, 1}, {1, 17, 2},   {17, 1, 2}, {37, 23, 3}, {2, 3, 1},
                                {5, 4, 2}, {131, 67, 1}, {64, 9, 1}, {9, 64, 1}};
        for (const Shape &s : shapes) {
            const int n = k.axis == LineAxis::rows ? s.width : s.height;
            // One tap; a short even filter; one longer than most lines; many taps on short lines:
            // centers at 0, in the middle and at the end.
            std::vector<Filter> filters;
            for (int count : {1, 2, 5, 33, 257}) {
                if (count == 257 && n > 23) continue;
                for (int center : {0, count / 2, count - 1})
                    filters.push_back({random_taps(rng, count), center});
            }
            for (const Filter &f : filters) {
                Halide::Runtime::Buffer<T> input(s.width, s.height, s.channels),
                    output(s.width, s.height, s.channels);
                input.for_each_value([&](T &v) { v = T(u(rng)); });
                output.fill(std::numeric_limits<T>::quiet_NaN());
                CorrelatePlan plan(f.taps, f.center, k.axis, k.boundary, device, k.samples);
                plan.run_host(input.raw_buffer(), output.raw_buffer());
                const std::string what = std::to_string(s.width) + "x" + std::to_string(s.height) + "x" +
                                         std::to_string(s.channels) + ", " + std::to_string(f.taps.size()) +
                                         " taps, center " + std::to_string(f.center);
                expect_matches(input, output, f, k.axis, k.boundary, tolerance, what);
                if (HasFailure()) return;
            }
        }
    }
};

TEST_P(CorrelateTest, MatchesTheDirectSum) {
    if (GetParam().samples == SampleType::f64) {
        check_all<double>(1e-12);
    } else {
        check_all<float>(1e-6);
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice d : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (SampleType t : {SampleType::f32, SampleType::f64})
            for (LineAxis a : {LineAxis::columns, LineAxis::rows})
                for (Boundary b : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                                   Boundary::reflect, Boundary::mirror})
                    cases.push_back({d, t, a, b});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    const Case &k = info.param;
    return std::string(k.device == DeviceChoice::cuda ? "cuda_" : "cpu_") + sample_name(k.samples) + "_" +
           (k.axis == LineAxis::rows ? "rows_" : "columns_") + boundary_name(k.boundary);
}

INSTANTIATE_TEST_SUITE_P(Filters, CorrelateTest, ::testing::ValuesIn(all_cases()), case_name);

// A long filter on a long line, where the sum runs past a vector's worth of outputs, rows and
// tasks: a 1025-tap filter over 2000 samples.
class CorrelateLongTest : public testing::DeviceTest<DeviceChoice> {};

TEST_P(CorrelateLongTest, LongFiltersOnLongLines) {
    const Device device = resolve_device(GetParam());
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const Filter f{random_taps(rng, 1025), 300};
    for (LineAxis axis : {LineAxis::columns, LineAxis::rows}) {
        const int width = axis == LineAxis::rows ? 2000 : 19, height = axis == LineAxis::rows ? 19 : 2000;
        Halide::Runtime::Buffer<double> input(width, height, 2), output(width, height, 2);
        input.for_each_value([&](double &v) { v = u(rng); });
        output.fill(std::numeric_limits<double>::quiet_NaN());
        CorrelatePlan plan(f.taps, f.center, axis, Boundary::reflect, device, SampleType::f64);
        plan.run_host(input.raw_buffer(), output.raw_buffer());
        expect_matches(input, output, f, axis, Boundary::reflect, 1e-12,
                       axis == LineAxis::rows ? "rows" : "columns");
    }
}

INSTANTIATE_TEST_SUITE_P(Devices, CorrelateLongTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const ::testing::TestParamInfo<DeviceChoice> &info) {
                             return std::string(info.param == DeviceChoice::cuda ? "cuda" : "cpu");
                         });

// An output shorter than the input along the filtered axis holds the first positions of the
// line's correlation; with center 0 it reads no extension ("valid"): the positions `center` on of
// the whole line's result, to the bit.
class CorrelateWindowTest : public testing::DeviceTest<DeviceChoice> {};

TEST_P(CorrelateWindowTest, ShorterOutputsAreWindowsOfTheLine) {
    const Device device = resolve_device(GetParam());
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const Filter f{random_taps(rng, 9), 3};
    for (LineAxis axis : {LineAxis::columns, LineAxis::rows})
        for (Boundary boundary : {Boundary::zero, Boundary::reflect, Boundary::periodic}) {
            const bool rows = axis == LineAxis::rows;
            const int n = 41, m = n - 8, across = 5;
            Halide::Runtime::Buffer<float> input(rows ? n : across, rows ? across : n, 2);
            input.for_each_value([&](float &v) { v = float(u(rng)); });
            Halide::Runtime::Buffer<float> whole(input.width(), input.height(), 2);
            Halide::Runtime::Buffer<float> first(rows ? m : across, rows ? across : m, 2);
            Halide::Runtime::Buffer<float> valid(rows ? m : across, rows ? across : m, 2);
            for (auto *b : {&whole, &first, &valid}) b->fill(std::numeric_limits<float>::quiet_NaN());
            CorrelatePlan plan(f.taps, f.center, axis, boundary, device);
            CorrelatePlan at_zero(f.taps, 0, axis, boundary, device);
            plan.run_host(input.raw_buffer(), whole.raw_buffer());
            plan.run_host(input.raw_buffer(), first.raw_buffer());
            at_zero.run_host(input.raw_buffer(), valid.raw_buffer());
            const std::string what = std::string(rows ? "rows " : "columns ") + boundary_name(boundary);
            first.for_each_element([&](int x, int y, int c) {
                const int i = rows ? x : y;
                const int wx = rows ? x + f.center : x, wy = rows ? y : y + f.center;
                EXPECT_EQ(first(x, y, c), whole(x, y, c)) << what << " first " << i;
                EXPECT_EQ(valid(x, y, c), whole(wx, wy, c)) << what << " valid " << i;
            });
        }
}

INSTANTIATE_TEST_SUITE_P(Devices, CorrelateWindowTest,
                         ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const ::testing::TestParamInfo<DeviceChoice> &info) {
                             return std::string(info.param == DeviceChoice::cuda ? "cuda" : "cpu");
                         });

// The convenience functions on images and host buffers, and one plan run twice.
TEST(Correlate, ConvenienceFunctionsAndReuse) {
    Image image(23, 11, 2);
    for (size_t k = 0; k < image.data.size(); k++) image.data[k] = float(std::sin(0.37 * double(k)));
    const std::vector<double> taps = {0.25, 0.5, 0.25};
    const Image out = correlate1d(image, taps, 1, LineAxis::rows, Boundary::mirror, DeviceChoice::cpu);
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
    correlate1d(in.raw_buffer(), once.raw_buffer(), {1.0, -1.0}, 0, LineAxis::columns, Boundary::clamp,
                DeviceChoice::cpu);
    // Down the columns, clamp: the next row less this one, 0 in the last.
    once.for_each_element([&](int x, int y, int c) { EXPECT_EQ(once(x, y, c), y == 4 ? 0.0 : -10.0); });
    CorrelatePlan plan({2.0}, 0, LineAxis::rows, Boundary::zero, Device::cpu, SampleType::f64);
    for (int k = 0; k < 2; k++) {
        twice.fill(std::numeric_limits<double>::quiet_NaN());
        plan.run(in.raw_buffer(), twice.raw_buffer());
        twice.for_each_element([&](int x, int y, int c) { EXPECT_EQ(twice(x, y, c), 2 * in(x, y, c)); });
    }
}

// Empty images need no pipeline.
TEST(Correlate, EmptyImages) {
    Halide::Runtime::Buffer<float> in(0, 7, 1), out(0, 7, 1);
    EXPECT_NO_THROW(correlate1d(in.raw_buffer(), out.raw_buffer(), {1.0, 2.0}, 1, LineAxis::columns,
                                Boundary::reflect, DeviceChoice::cpu));
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

TEST(Correlate, BadInputThrows) {
    const auto plan = [](std::vector<double> taps, int center, SampleType samples = SampleType::f32) {
        CorrelatePlan p(taps, center, LineAxis::rows, Boundary::reflect, Device::cpu, samples);
    };
    expect_error([&] { plan({}, 0); }, "at least one tap");
    expect_error([&] { plan({1.0, std::nan("")}, 0); }, "not a finite number");
    expect_error([&] { plan({1.0, std::numeric_limits<double>::infinity()}, 0); }, "not a finite number");
    expect_error([&] { plan({1.0, 2.0}, -1); }, "center -1");
    expect_error([&] { plan({1.0, 2.0}, 2); }, "center 2");
    expect_error([&] { plan({1.0}, 0, SampleType::u8); }, "float32 or float64");
    expect_error([] { parse_boundary("sideways"); }, "sideways");

    Halide::Runtime::Buffer<double> f64(8, 8, 1);
    Halide::Runtime::Buffer<float> f32(8, 8, 1), narrow(7, 8, 1), longer(8, 9, 1);
    Halide::Runtime::Buffer<uint8_t> u8(8, 8, 1), u8_out(8, 8, 1);
    CorrelatePlan p({1.0, 2.0, 1.0}, 1, LineAxis::columns, Boundary::zero, Device::cpu);
    expect_error([&] { p.run(f64.raw_buffer(), f64.raw_buffer()); }, "float32");
    expect_error([&] { p.run(f32.raw_buffer(), f64.raw_buffer()); }, "float32");
    expect_error([&] { p.run(f32.raw_buffer(), narrow.raw_buffer()); }, "the input 8x8x1");
    expect_error([&] { p.run(f32.raw_buffer(), longer.raw_buffer()); }, "the input 8x8x1");
    expect_error(
        [&] {
            correlate1d(u8.raw_buffer(), u8_out.raw_buffer(), {1.0}, 0, LineAxis::rows, Boundary::zero,
                        DeviceChoice::cpu);
        },
        "not uint8");
    expect_error(
        [&] {
            correlate1d(f32.raw_buffer(), f64.raw_buffer(), {1.0}, 0, LineAxis::rows, Boundary::zero,
                        DeviceChoice::cpu);
        },
        "float32");
}

}  // namespace
}  // namespace cascade
