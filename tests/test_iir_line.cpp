// The 1D block-parallel filters (runtime/line_filter.h, Nehab et al. 2011's algorithms 1 and 3)
// against the double-precision serial reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "cascade/error.h"
#include "contract/line_layout.h"
#include "cuda_support.h"
#include "line_filter.h"
#include "reference.h"
#include "strips.h"
#include "test_support.h"
#include "tile_matrices.h"
#include "variants.h"

namespace cascade {
namespace {

using Eigen::MatrixXd;
using testing::random_matrix;
using testing::random_stable_filter;
using testing::rng_for_test;
using testing::within_relative_l2;

constexpr int64_t kBlock = CASCADE_LINE_BLOCK;
// Past this many samples the completion's serial top level has more than one item to scan.
// (An integer power: std::pow is not constexpr in Clang.)
constexpr int64_t power(int64_t base, int exponent) {
    return exponent == 0 ? 1 : base * power(base, exponent - 1);
}
constexpr int64_t kHierarchy = kBlock * power(CASCADE_LINE_CHUNK, CASCADE_LINE_LEVELS);

// The serial filter of every column (channel) of X: causal, then for algorithm 3 anticausal.
MatrixXd expected(const RecursiveFilter &f, const MatrixXd &X, int algorithm) {
    const MatrixXd zero = MatrixXd::Zero(f.order(), X.cols());
    MatrixXd Y = reference::causal(f, zero, X);
    return algorithm == 3 ? reference::anticausal(f, Y, zero) : Y;
}

// Filters a random signal of `length` × `channels` on `device`, its output poisoned with NaN
// beforehand; every sample must be written and each channel within 1e-5 of the reference.
void check(const RecursiveFilter &f, int64_t length, int channels, int algorithm, DeviceChoice device,
           std::mt19937_64 &rng, LineMethod method = LineMethod::blocks) {
    const MatrixXd X = random_matrix(rng, int(length), channels);  // column-major: planar channels
    const std::vector<float> input(X.data(), X.data() + X.size());
    std::vector<float> output(input.size(), std::numeric_limits<float>::quiet_NaN());
    iir_line(input.data(), output.data(), length, channels, f, algorithm, device, method);
    const MatrixXd Z = expected(f, X, algorithm);
    for (int c = 0; c < channels; c++) {
        MatrixXd got(length, 1);
        int64_t unwritten = 0;
        for (int64_t n = 0; n < length; n++) {
            const float v = output[size_t(c) * length + n];
            unwritten += !std::isfinite(v);
            got(n, 0) = v;
        }
        ASSERT_EQ(unwritten, 0) << "length " << length << " channel " << c;
        EXPECT_TRUE(within_relative_l2(got, Z.col(c), 1e-5)) << "length " << length << " channel " << c;
    }
}

// A device-parameterised case's name.
std::string device_name(const ::testing::TestParamInfo<DeviceChoice> &info) {
    return info.param == DeviceChoice::cuda ? "cuda" : "cpu";
}

struct LineCase {
    DeviceChoice device;
    int algorithm;
    int order;
    bool complex_poles;
};

class IirLineTest : public testing::DeviceTest<LineCase> {};

// Around the block (b − 1, b, b + 1), primes, one past each chunk level's span (b·C, b·C²), and
// one over 2^20.
TEST_P(IirLineTest, MatchesDoubleReference) {
    const LineCase &p = GetParam();
    auto rng = rng_for_test();
    const int64_t span = kBlock * CASCADE_LINE_CHUNK;
    for (int64_t length : {int64_t(1), int64_t(2), int64_t(7), kBlock - 1, kBlock, kBlock + 1, int64_t(1009),
                           span + 1, span * CASCADE_LINE_CHUNK + 1, int64_t(65537), (int64_t(1) << 20) + 3}) {
        const RecursiveFilter f = random_stable_filter(rng, p.order, 0.95, p.complex_poles);
        check(f, length, length > 100000 ? 2 : 3, p.algorithm, p.device, rng);
    }
}

std::vector<LineCase> all_cases() {
    std::vector<LineCase> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (int algorithm : {1, 3})
            for (int order = 1; order <= 8; order++)
                for (bool complex_poles : {false, true})
                    if (!(complex_poles && order == 1))
                        cases.push_back({device, algorithm, order, complex_poles});
    return cases;
}

std::string case_name(const ::testing::TestParamInfo<LineCase> &info) {
    const LineCase &c = info.param;
    return std::string(c.device == DeviceChoice::cuda ? "cuda" : "cpu") + "_a" + std::to_string(c.algorithm) +
           "_order" + std::to_string(c.order) + (c.complex_poles ? "_complex" : "_real");
}

INSTANTIATE_TEST_SUITE_P(Variants, IirLineTest, ::testing::ValuesIn(all_cases()), case_name);

// A signal long enough that the completion's serial top level scans several items and carries one
// into later blocks (3·b·C^levels samples: 2·b·C^levels would not, the state leaving the second
// being read by no block), with a real pole of time constant 2^23 samples, so that the carries
// cross every level. Its coefficients (and the
// complex pair's, poles of magnitude 0.9995) are exact in float32, so that what is measured is
// the arithmetic, not the rounding of poles this close to 1 (docs/algorithms.md).
class IirLineLongTest : public testing::DeviceTest<DeviceChoice> {};

TEST_P(IirLineLongTest, CarriesCrossEveryLevel) {
    auto rng = rng_for_test();
    const double slow = 1 - std::ldexp(1.0, -23), radius = std::sqrt(1 - std::ldexp(1.0, -10));
    const std::complex<double> pair = std::polar(radius, std::acos(0.75 / radius));
    for (const RecursiveFilter &f :
         {unit_gain_filter({slow}), unit_gain_filter({pair, std::conj(pair), slow})})
        for (int algorithm : {1, 3}) check(f, 3 * kHierarchy + 17, 1, algorithm, GetParam(), rng);
}

INSTANTIATE_TEST_SUITE_P(Devices, IirLineLongTest, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         device_name);

// The table's matrices: Mc of a full and of the last block from tile_matrices, and at each level
// l the powers Mf^(C^l·(v+1)), Mr^(C^l·(v+1)), here by repeated squaring (the table multiplies them
// in sequence). A pole pair of magnitude 1 − 2^-21 keeps even the top level's powers far from 0;
// its poles are far apart (a near-double pair makes the powers ill-conditioned: with an angle of
// 1e-4 the two ways of computing them in double differed by 4e-6).
TEST(IirLine, TableHoldsThePowersOfTheBlockMatrices) {
    const std::complex<double> slow = std::polar(1 - std::ldexp(1.0, -21), 0.5), fast = std::polar(0.9, 1.0);
    const std::vector<RecursiveFilter> sections =
        to_sections(unit_gain_filter({slow, std::conj(slow), fast, std::conj(fast)}));
    const int C = CASCADE_LINE_CHUNK, levels = CASCADE_LINE_LEVELS, length = 1000;
    const std::vector<float> table = line_table(sections, int(kBlock), C, levels, length);
    const TileMatrices full = tile_matrices(sections, int(kBlock), int(kBlock));
    const TileMatrices last =
        tile_matrices(sections, int(kBlock), length - (length - 1) / int(kBlock) * int(kBlock));
    const LineLayout layout{int(full.Mf.rows()), C, levels};
    ASSERT_EQ(table.size(), size_t(layout.rows()) * layout.K);
    auto expect_rows = [&](int first, const MatrixXd &M, const std::string &what) {
        const double scale = std::max(M.cwiseAbs().maxCoeff(), 1e-30);
        for (int s = 0; s < layout.K; s++)
            for (int k = 0; k < layout.K; k++)
                EXPECT_NEAR(table[size_t(first + s) * layout.K + k], M(s, k), 1e-6 * scale) << what;
    };
    auto power = [](MatrixXd M, int64_t n) {
        MatrixXd p = MatrixXd::Identity(M.rows(), M.cols());
        for (; n > 0; n >>= 1, M = M * M)
            if (n & 1) p = p * M;
        return p;
    };
    expect_rows(layout.mc(0), full.Mc, "Mc");
    expect_rows(layout.mc(1), last.Mc, "Mc of the last block");
    for (int l = 0; l <= levels; l++)
        for (int v : {0, 1, C - 1}) {
            const int64_t n = int64_t(std::pow(double(C), double(l))) * (v + 1);
            expect_rows(layout.f_power(l) + v * layout.K, power(full.Mf, n), "Mf^" + std::to_string(n));
            expect_rows(layout.r_power(l) + v * layout.K, power(full.Mr, n), "Mr^" + std::to_string(n));
        }
}

// The overlapped segments (algebra/line_strips.h) of every order the build holds, on filters
// whose responses fit its overlaps: around a segment and a GPU block of them, primes, and one
// over 2^20.
constexpr int64_t kSegment = CASCADE_LINE_STRIPS_SEGMENT, kSegments = kSegment * CASCADE_LINE_STRIPS_THREADS;
struct StripsCase {
    DeviceChoice device;
    int algorithm;
    int order;
};

class IirLineStripsTest : public testing::DeviceTest<StripsCase> {};

TEST_P(IirLineStripsTest, MatchesDoubleReference) {
    const StripsCase &p = GetParam();
    auto rng = rng_for_test();
    // Poles up to 0.5 at order 1 (an overlap of up to 30 samples), smaller as the order grows, so
    // that the cascade's response fits the build's largest overlap.
    const double radius = p.order == 1 ? 0.5 : p.order <= 4 ? 0.35 : 0.2;
    for (int64_t length : {int64_t(1), int64_t(2), kSegment - 1, kSegment, kSegment + 1, int64_t(1009),
                           kSegments - 1, kSegments, kSegments + 1, int64_t(65537), (int64_t(1) << 20) + 3}) {
        const RecursiveFilter f = random_stable_filter(rng, p.order, radius, p.order > 1);
        const bool direct = f.order() == 1;
        const int overlap =
            strips_overlap(variant_sections(f, direct, direct ? 1 : int(to_sections(f).size())));
        ASSERT_GE(overlap, 0) << "order " << p.order;
        LinePlan plan(f, length, p.algorithm, p.device == DeviceChoice::cuda ? Device::cuda : Device::cpu,
                      LineMethod::strips);
        EXPECT_TRUE(plan.strips());
        check(f, length, length > 100000 ? 2 : 3, p.algorithm, p.device, rng, LineMethod::strips);
    }
}

std::vector<StripsCase> strips_cases() {
    std::vector<StripsCase> cases;
    for (DeviceChoice device : {DeviceChoice::cpu, DeviceChoice::cuda})
        for (int algorithm : {1, 3})
            for (int order : {1, 2, 3, 4, 8}) cases.push_back({device, algorithm, order});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Variants, IirLineStripsTest, ::testing::ValuesIn(strips_cases()),
                         [](const ::testing::TestParamInfo<StripsCase> &info) {
                             const StripsCase &c = info.param;
                             return std::string(c.device == DeviceChoice::cuda ? "cuda" : "cpu") + "_a" +
                                    std::to_string(c.algorithm) + "_order" + std::to_string(c.order);
                         });

// Each overlap of the build serves the filters that fit it and need more than the next smaller
// one, here a pole (or pair) whose response just fits; the automatic method takes the segments on
// CUDA where they fit and the blocks elsewhere; a filter beyond every overlap is refused by name.
class IirLineStripsChoiceTest : public testing::DeviceTest<DeviceChoice> {};

TEST_P(IirLineStripsChoiceTest, OverlapDecidesTheMethod) {
    auto rng = rng_for_test();
    const Device device = GetParam() == DeviceChoice::cuda ? Device::cuda : Device::cpu;
    const RecursiveFilter fits{0.3, {-0.7}}, slow{0.05, {-0.95}};
    ASSERT_GT(strips_overlap({fits}), 32);
    ASSERT_LE(strips_overlap({fits}), 64);
    // The largest overlap the build holds, and for each one a filter that needs it: the pole of
    // the first order whose response reaches past the next smaller overlap.
    std::vector<int> overlaps;
    for (const Variant &v : variants())
        if (v.device == device && v.key.family == Family::line_strips && v.key.algorithm == 3 &&
            !v.key.sections && !v.key.exact)
            overlaps.push_back(v.key.overlap);
    std::sort(overlaps.begin(), overlaps.end());
    ASSERT_FALSE(overlaps.empty());
    int smaller = 0;
    for (int w : overlaps) {
        double pole = 0.01;
        while (strips_overlap({RecursiveFilter{1 - pole, {-pole}}}) <= smaller) pole += 0.001;
        const RecursiveFilter needs{1 - pole, {-pole}};
        ASSERT_LE(strips_overlap({needs}), w) << "pole " << pole;
        LinePlan plan(needs, 5000, 3, device, LineMethod::strips);
        EXPECT_EQ(plan.variant().key.computes(), "line_strips3_w" + std::to_string(w));
        check(needs, 100003, 1, 3, GetParam(), rng, LineMethod::strips);
        smaller = w;
    }
    for (int algorithm : {1, 3}) {
        check(fits, 100003, 2, algorithm, GetParam(), rng, LineMethod::strips);
        EXPECT_EQ(LinePlan(fits, 1000, algorithm, device).strips(), device == Device::cuda);
        EXPECT_FALSE(LinePlan(slow, 1000, algorithm, device).strips());
        EXPECT_FALSE(LinePlan(fits, 1000, algorithm, device, LineMethod::blocks).strips());
        try {
            LinePlan(slow, 1000, algorithm, device, LineMethod::strips);
            ADD_FAILURE() << "a pole at 0.95 needs more overlap than the build holds";
        } catch (const Error &e) {
            EXPECT_NE(std::string(e.what()).find("no line_strips variant"), std::string::npos) << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Devices, IirLineStripsChoiceTest,
                         ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda), device_name);

// The strips under every extension: the windows past the signal's ends read the extended
// signal, so every segment filters it as if it went on (the reference writes the extension out
// past the decay). Lengths shorter than the overlap fold more than once.
class IirLineBoundaryTest : public testing::DeviceTest<DeviceChoice> {};

TEST_P(IirLineBoundaryTest, StripsMatchTheExtendedReference) {
    auto rng = rng_for_test();
    const RecursiveFilter identity{1.0, {}};
    for (Boundary boundary :
         {Boundary::zero, Boundary::clamp, Boundary::periodic, Boundary::reflect, Boundary::mirror}) {
        for (int order : {1, 2, 3}) {
            for (int64_t length : {int64_t(1), int64_t(2), int64_t(5), kSegment, kSegment + 1, int64_t(1009),
                                   kSegments + 1, int64_t(65537)}) {
                const RecursiveFilter f = random_stable_filter(rng, order, 0.6, order > 1);
                const MatrixXd X = random_matrix(rng, int(length), 2);
                const std::vector<float> input(X.data(), X.data() + X.size());
                std::vector<float> output(input.size(), std::numeric_limits<float>::quiet_NaN());
                iir_line(input.data(), output.data(), length, 2, f, 3, GetParam(), LineMethod::automatic,
                         boundary);
                for (int c = 0; c < 2; c++) {
                    MatrixXd got(length, 1);
                    for (int64_t n = 0; n < length; n++) got(n, 0) = output[size_t(c) * length + n];
                    const MatrixXd expected = reference::filter_2d(Filter2D{f, identity}, X.col(c), boundary);
                    EXPECT_TRUE(within_relative_l2(got, expected, 1e-5))
                        << boundary_name(boundary) << " order " << order << " length " << length
                        << " channel " << c;
                }
            }
        }
    }
}

// An extension needs the strips, both passes, and a filter that fits them.
TEST_P(IirLineBoundaryTest, RefusesWhatTheStripsCannotRun) {
    const Device device = GetParam() == DeviceChoice::cuda ? Device::cuda : Device::cpu;
    const RecursiveFilter fits{0.5, {-0.5}}, slow{0.05, {-0.95}};
    EXPECT_TRUE(LinePlan(fits, 100, 3, device, LineMethod::automatic, Boundary::reflect).strips());
    EXPECT_THROW(LinePlan(fits, 100, 1, device, LineMethod::automatic, Boundary::reflect), Error);
    EXPECT_THROW(LinePlan(fits, 100, 3, device, LineMethod::blocks, Boundary::clamp), Error);
    EXPECT_THROW(LinePlan(slow, 100, 3, device, LineMethod::automatic, Boundary::mirror), Error);
    EXPECT_TRUE(line_strips_fit(fits, Boundary::zero, device));
    EXPECT_FALSE(line_strips_fit(slow, Boundary::zero, device));
}

INSTANTIATE_TEST_SUITE_P(Devices, IirLineBoundaryTest,
                         ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda), device_name);

TEST(IirLine, RejectsBadArguments) {
    const RecursiveFilter stable{0.5, {-0.5}};
    std::vector<float> x(8, 1.0f), y(8);
    EXPECT_THROW(iir_line(x.data(), y.data(), 8, 1, stable, 2, DeviceChoice::cpu), Error);
    EXPECT_THROW(iir_line(x.data(), y.data(), 0, 1, stable, 3, DeviceChoice::cpu), Error);
    EXPECT_THROW(iir_line(x.data(), y.data(), 8, 1, RecursiveFilter{1.0, {-1.0}}, 3, DeviceChoice::cpu),
                 Error);
}

}  // namespace
}  // namespace cascade
