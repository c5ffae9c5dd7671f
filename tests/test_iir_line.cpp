// The 1D block-parallel filters (runtime/line_filter.h, Nehab et al. 2011's algorithms 1 and 3)
// against the double-precision serial reference.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "cascade/error.h"
#include "cuda_support.h"
#include "generators/line_layout.h"
#include "line_filter.h"
#include "reference.h"
#include "test_support.h"
#include "tile_matrices.h"

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
           std::mt19937_64 &rng) {
    const MatrixXd X = random_matrix(rng, int(length), channels);  // column-major: planar channels
    const std::vector<float> input(X.data(), X.data() + X.size());
    std::vector<float> output(input.size(), std::numeric_limits<float>::quiet_NaN());
    iir_line(input.data(), output.data(), length, channels, f, algorithm, device);
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
                         [](const ::testing::TestParamInfo<DeviceChoice> &info) {
                             return std::string(info.param == DeviceChoice::cuda ? "cuda" : "cpu");
                         });

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
