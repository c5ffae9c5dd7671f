// Summed-area tables of every algorithm and type against a double reference.
#include <HalideBuffer.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "cascade/error.h"
#include "cascade/sat.h"
#include "pipeline_call.h"
#include "reference.h"
#include "sat_variant.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

struct Size {
    int width, height;
};

// Tile-aware awkward sizes: single samples, lines, primes, one off the 64-sample tile each way,
// and sizes of at least 3×3 tiles, where the (1+r)R1W split has parts of its own.
const Size kSizes[] = {{1, 1},    {1, 29},    {29, 1},   {2, 3},    {63, 64},   {64, 65},  {65, 63},
                       {131, 67}, {127, 129}, {2000, 3}, {3, 2000}, {400, 333}, {193, 260}};

struct Case {
    SatAlgorithm algorithm;
    DeviceChoice device;
};

bool skip_cuda(std::string &why) {
    if (!has_variants(Device::cuda))
        why = "this build has no CUDA variants";
    else if (cuda_info().devices == 0)
        why = "no CUDA device: " + cuda_info().reason;
    return !why.empty();
}

class SatTest : public ::testing::TestWithParam<Case> {
protected:
    void SetUp() override {
        std::string why;
        if (GetParam().device == DeviceChoice::cuda && skip_cuda(why)) GTEST_SKIP() << why;
    }
    SatOptions options(bool exclusive = false) const {
        return {GetParam().algorithm, exclusive, GetParam().device};
    }
};

// Random raw samples of `type` (integers over their whole range, floats in [0, 1)).
RawImage random_raw(std::mt19937_64 &rng, SampleType type, int w, int h, int c) {
    RawImage raw;
    raw.width = w;
    raw.height = h;
    raw.channels = c;
    raw.type = type;
    raw.bytes.resize(raw.samples() * sample_size(type));
    for (size_t n = 0; n < raw.samples(); n++) {
        if (type == SampleType::f32) {
            float v = std::uniform_real_distribution<float>(0, 1)(rng);
            std::memcpy(&raw.bytes[n * 4], &v, 4);
        } else if (type == SampleType::u8) {
            raw.bytes[n] = uint8_t(rng());
        } else {
            uint16_t v = uint16_t(rng());
            std::memcpy(&raw.bytes[n * 2], &v, 2);
        }
    }
    return raw;
}

// Sample (x, y, c) of an interleaved raw image as a double.
double sample(const RawImage &raw, size_t x, size_t y, size_t c) {
    return raw_sample(raw, (y * raw.width + x) * raw.channels + c);
}

reference::Matrix channel(const RawImage &raw, size_t c, size_t border = 0) {
    reference::Matrix m(raw.height - border, raw.width - border);
    for (size_t y = border; y < raw.height; y++)
        for (size_t x = border; x < raw.width; x++) m(y - border, x - border) = sample(raw, x, y, c);
    return m;
}

TEST_P(SatTest, FloatMatchesReference) {
    auto rng = testing::rng_for_test();
    for (Size s : kSizes) {
        RawImage input = random_raw(rng, SampleType::f32, s.width, s.height, 2);
        RawImage table = summed_area_table(input, options());
        ASSERT_EQ(table.type, SampleType::f32);
        ASSERT_EQ(table.width, size_t(s.width));
        ASSERT_EQ(table.height, size_t(s.height));
        for (size_t c = 0; c < 2; c++)
            EXPECT_LE(
                testing::relative_l2(channel(table, c), reference::summed_area_table(channel(input, c))),
                2e-6)
                << s.width << "x" << s.height;
    }
}

TEST_P(SatTest, IntegersAreExact) {
    auto rng = testing::rng_for_test();
    for (SampleType type : {SampleType::u8, SampleType::u16}) {
        for (Size s : kSizes) {
            RawImage input = random_raw(rng, type, s.width, s.height, 3);
            RawImage table = summed_area_table(input, options());
            ASSERT_EQ(table.type, sat_output_type(input));
            for (size_t c = 0; c < 3; c++)
                EXPECT_EQ(channel(table, c), reference::summed_area_table(channel(input, c)))
                    << sample_name(type) << " " << s.width << "x" << s.height;
        }
    }
}

TEST_P(SatTest, ExclusiveTableHasZeroFirstRowAndColumn) {
    auto rng = testing::rng_for_test();
    RawImage input = random_raw(rng, SampleType::u8, 70, 33, 1);
    RawImage table = summed_area_table(input, options(true));
    ASSERT_EQ(table.width, 71u);
    ASSERT_EQ(table.height, 34u);
    reference::Matrix m = channel(table, 0);
    EXPECT_EQ(m.row(0).norm(), 0.0);
    EXPECT_EQ(m.col(0).norm(), 0.0);
    EXPECT_EQ(channel(table, 0, 1), reference::summed_area_table(channel(input, 0)));
}

TEST_P(SatTest, WidensToUint64InsteadOfWrapping) {
    // 300×300 samples of 65535 sum to 5.9e9 > 2^32.
    RawImage input;
    input.width = input.height = 300;
    input.channels = 1;
    input.type = SampleType::u16;
    input.bytes.assign(input.samples() * 2, 0xFF);
    ASSERT_EQ(sat_output_type(input), SampleType::u64);
    RawImage table = summed_area_table(input, options());
    ASSERT_EQ(table.type, SampleType::u64);
    uint64_t last;
    std::memcpy(&last, &table.bytes[table.bytes.size() - 8], 8);
    EXPECT_EQ(last, uint64_t(300) * 300 * 65535);
}

TEST_P(SatTest, PlanarFloatTablesMatchReference) {
    auto rng = testing::rng_for_test();
    Image input = testing::random_image(rng, 97, 45, 3);
    Image table = summed_area_table(input, options());
    for (int c = 0; c < 3; c++)
        EXPECT_LE(testing::relative_l2(reference::plane(table, c),
                                       reference::summed_area_table(reference::plane(input, c))),
                  2e-6);
}

// The CPU's strips (algebra/sat_strips.h) around their 8-column chunks (narrower images take
// the sample-by-sample recurrence; the last chunk shifts inwards) and their strips of rows (a
// partial last strip; several strips of the fewest rows): floats within the bound, 16-bit
// samples exactly.
TEST(SatStrips, MatchesReferenceAroundChunksAndStrips) {
    auto rng = testing::rng_for_test();
    const Size sizes[] = {{7, 5},   {8, 1},    {8, 8},    {9, 17},   {15, 9},
                          {16, 33}, {17, 100}, {24, 257}, {1000, 9}, {333, 1031}};
    for (Size s : sizes) {
        const std::string size = std::to_string(s.width) + "x" + std::to_string(s.height);
        const RawImage floats = random_raw(rng, SampleType::f32, s.width, s.height, 2);
        const RawImage table = summed_area_table(floats, {SatAlgorithm::strips, false, DeviceChoice::cpu});
        for (size_t c = 0; c < 2; c++)
            EXPECT_LE(
                testing::relative_l2(channel(table, c), reference::summed_area_table(channel(floats, c))),
                2e-6)
                << size;
        const RawImage words = random_raw(rng, SampleType::u16, s.width, s.height, 1);
        const RawImage exact = summed_area_table(words, {SatAlgorithm::strips, false, DeviceChoice::cpu});
        ASSERT_EQ(exact.type, sat_output_type(words));  // uint64 for the largest
        const reference::Matrix expected = reference::summed_area_table(channel(words, 0));
        int wrong = 0;
        for (int y = 0; y < s.height; y++)
            for (int x = 0; x < s.width; x++) wrong += sample(exact, x, y, 0) != expected(y, x);
        EXPECT_EQ(wrong, 0) << size;
    }
}

// Where it cannot run, it says so.
TEST(SatStrips, RefusesTheGpu) {
    Halide::Runtime::Buffer<float> input(16, 16, 1), output(16, 16, 1);
    try {
        summed_area_table(input.raw_buffer(), output.raw_buffer(), SatAlgorithm::strips, Device::cuda);
        ADD_FAILURE() << "the strips ran on the GPU";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("CPU only"), std::string::npos) << e.what();
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (DeviceChoice d : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (SatAlgorithm a : {SatAlgorithm::naive, SatAlgorithm::overlapped, SatAlgorithm::two_read,
                               SatAlgorithm::one_read, SatAlgorithm::one_read_split, SatAlgorithm::automatic})
            cases.push_back({a, d});
    cases.push_back({SatAlgorithm::strips, DeviceChoice::cpu});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case> &info) {
    std::string name = std::string(info.param.device == DeviceChoice::cuda ? "cuda_" : "cpu_") +
                       sat_algorithm_name(info.param.algorithm);
    for (char &ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Algorithms, SatTest, ::testing::ValuesIn(all_cases()), case_name);

// The accuracy bound at the largest size the library targets: float tables of 8192² within 2e-6
// (relative L2) of double. On the GPU only: the double reference of 64 Mi samples is too slow for CI.
TEST(SatLarge, FloatTablesOf8192SquaredStayAccurate) {
    std::string why;
    if (skip_cuda(why)) GTEST_SKIP() << why;
    auto rng = testing::rng_for_test();
    Image input = testing::random_image(rng, 8192, 8192, 1);
    for (float &v : input.data) v = 0.5f * (v + 1.0f);  // [0, 1), so the table grows to 2^25
    const reference::Matrix expected = reference::summed_area_table(reference::plane(input, 0));
    for (SatAlgorithm a : {SatAlgorithm::naive, SatAlgorithm::overlapped, SatAlgorithm::two_read,
                           SatAlgorithm::one_read, SatAlgorithm::one_read_split}) {
        Image table = summed_area_table(input, SatOptions{a, false, DeviceChoice::cuda});
        const double error = testing::relative_l2(reference::plane(table, 0), expected);
        RecordProperty(sat_algorithm_name(a), std::to_string(error));
        std::printf("8192^2 %s: relative L2 %.3g\n", sat_algorithm_name(a), error);
        EXPECT_LE(error, 2e-6) << sat_algorithm_name(a);
    }
}

// The GPU's 2R1W for large images (its corners summed in a kernel of their own) at the awkward
// sizes, called directly: the library routes only images above 2^25 samples to it. Floats within
// the bound, integers exactly, two planes.
template <typename In, typename Out>
void check_corner_kernel(const std::string &types, std::mt19937_64 &rng) {
    const Variant &variant = find_variant(VariantKey::parse("sat_2r1w_corner_kernel_" + types + "_o0_cuda"));
    for (Size s : kSizes) {
        // The library takes a wider table where the largest sum would not fit (sat_output_type).
        if (double(std::numeric_limits<In>::max()) * s.width * s.height >
            double(std::numeric_limits<Out>::max()))
            continue;
        Halide::Runtime::Buffer<In> input(s.width, s.height, 2);
        Halide::Runtime::Buffer<Out> table(s.width, s.height, 2);
        input.for_each_value([&](In &v) {
            if constexpr (std::is_floating_point_v<In>) {
                v = std::uniform_real_distribution<In>(0, 1)(rng);
            } else {
                v = In(rng());
            }
        });
        table.fill(std::numeric_limits<Out>::has_quiet_NaN ? std::numeric_limits<Out>::quiet_NaN() : Out(7));
        input.set_host_dirty();
        table.set_host_dirty();
        PipelineCall call;
        call.buffer("input", input.raw_buffer()).buffer("output", table.raw_buffer());
        call.run(variant);
        table.copy_to_host();
        for (int c = 0; c < 2; c++) {
            reference::Matrix samples(s.height, s.width), got(s.height, s.width);
            for (int y = 0; y < s.height; y++)
                for (int x = 0; x < s.width; x++) {
                    samples(y, x) = double(input(x, y, c));
                    got(y, x) = double(table(x, y, c));
                }
            const reference::Matrix expected = reference::summed_area_table(samples);
            if constexpr (std::is_floating_point_v<Out>) {
                EXPECT_LE(testing::relative_l2(got, expected), 2e-6)
                    << types << " " << s.width << "x" << s.height;
            } else {
                EXPECT_EQ(got, expected) << types << " " << s.width << "x" << s.height;
            }
        }
    }
}

TEST(SatCornerKernel, MatchesReferenceForEveryType) {
    std::string why;
    if (skip_cuda(why)) GTEST_SKIP() << why;
    auto rng = testing::rng_for_test();
    check_corner_kernel<float, float>("f32_f32", rng);
    check_corner_kernel<uint8_t, uint32_t>("u8_u32", rng);
    check_corner_kernel<uint16_t, uint32_t>("u16_u32", rng);
    check_corner_kernel<uint8_t, uint64_t>("u8_u64", rng);
    check_corner_kernel<uint16_t, uint64_t>("u16_u64", rng);
}

TEST(Sat, TwoReadSumsCornersInTheTilesBlocksUpTo2To25Samples) {
    EXPECT_EQ(two_read_kind(4096, 4096, Device::cuda), "2r1w");
    EXPECT_EQ(two_read_kind(8192, 4096, Device::cuda), "2r1w");
    EXPECT_EQ(two_read_kind(5000, 3001, Device::cuda), "2r1w");
    EXPECT_EQ(two_read_kind(8192, 4097, Device::cuda), "2r1w_corner_kernel");
    EXPECT_EQ(two_read_kind(8193, 64, Device::cuda), "2r1w_corner_kernel");
    EXPECT_EQ(two_read_kind(16384, 16384, Device::cuda), "2r1w_corner_kernel");
    EXPECT_EQ(two_read_kind(16384, 16384, Device::cpu), "2r1w");
}

TEST(Sat, OutputTypeFollowsTheLargestPossibleSum) {
    RawImage small;
    small.type = SampleType::u8;
    small.width = small.height = 4096;  // 4096² × 255 < 2^32
    EXPECT_EQ(sat_output_type(small), SampleType::u32);
    small.width = 4113;  // 4113 × 4096 × 255 > 2^32 − 1
    EXPECT_EQ(sat_output_type(small), SampleType::u64);
    small.type = SampleType::f64;
    EXPECT_EQ(sat_output_type(small), SampleType::f32);
}

TEST(Sat, RefusesTablesBeyondWhatAPipelineAddresses) {
    RawImage huge;  // 40000² uint8: a 6.4 GB uint32 table; refused before anything is allocated
    huge.width = huge.height = 40000;
    huge.channels = 1;
    huge.type = SampleType::u8;
    try {
        summed_area_table(huge, SatOptions{SatAlgorithm::automatic, false, DeviceChoice::cpu});
        FAIL() << "accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("2 GiB"), std::string::npos) << e.what();
    }
}

TEST(Sat, ParsesAlgorithmNames) {
    for (const char *name : {"auto", "overlapped", "2r1w", "1r1w", "1r1w-split", "naive"})
        EXPECT_EQ(sat_algorithm_name(parse_sat_algorithm(name)), std::string(name));
    EXPECT_THROW(parse_sat_algorithm("fast"), Error);
}

}  // namespace
}  // namespace cascade
