// The state-space matrices of the block-parallel variants (runtime/design/tile_matrices.h) against
// Nehab et al.'s block matrices (one section) and against the serial cascade (several).
#include <gtest/gtest.h>

#include "block_matrices.h"
#include "contract/tiled_layout.h"
#include "reference.h"
#include "test_support.h"
#include "tile_matrices.h"

namespace cascade {
namespace {

using Eigen::MatrixXd;

::testing::AssertionResult near(const MatrixXd &a, const MatrixXd &b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return ::testing::AssertionFailure() << "shapes differ";
    const double d = (a - b).cwiseAbs().maxCoeff();
    if (d <= 1e-12 * std::max(1.0, b.cwiseAbs().maxCoeff())) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "max difference " << d;
}

TEST(TileMatrices, OneSectionIsNehabsBlockAlgebra) {
    auto rng = testing::rng_for_test();
    for (int r = 1; r <= 4; r++) {
        for (int b : {8, 32}) {
            const RecursiveFilter f = testing::random_stable_filter(rng, r, 0.95, r % 2 == 0);
            const TileMatrices t = tile_matrices({f}, b, b);
            const BlockMatrices M = block_matrices(f, f, b);
            EXPECT_TRUE(near(t.Mf, M.AbF)) << "r=" << r << " b=" << b;
            EXPECT_TRUE(near(t.Mr, M.AbR)) << "r=" << r << " b=" << b;
            EXPECT_TRUE(near(t.Mc, M.H_ARB_AFP)) << "r=" << r << " b=" << b;
            EXPECT_TRUE(near(t.UP, M.ARB_AFP)) << "r=" << r << " b=" << b;
            EXPECT_TRUE(near(t.UE, M.A_RE)) << "r=" << r << " b=" << b;
            EXPECT_TRUE(near(t.Gf, M.T_AFB)) << "r=" << r << " b=" << b;
            EXPECT_TRUE(near(t.Gr, M.H_ARB_AFB)) << "r=" << r << " b=" << b;
        }
    }
}

// A signal of several tiles filtered by the cascade, rebuilt tile by tile from zero-carry scans
// and the matrices alone, as the variants do (last tile shorter than b).
TEST(TileMatrices, CarriesRebuildTheSerialCascade) {
    auto rng = testing::rng_for_test();
    const int b = 16, tiles = 5, n = b * (tiles - 1) + 7;
    const std::vector<RecursiveFilter> sections = {{0.8, {-0.5, 0.2}}, {1.0, {0.3, 0.0}}, {1.0, {-1.1, 0.4}}};
    const int K = 6;
    MatrixXd x = testing::random_matrix(rng, n, 1);
    MatrixXd expected = x;
    for (const RecursiveFilter &s : sections) expected = reference::causal(s, MatrixXd::Zero(2, 1), expected);
    for (const RecursiveFilter &s : sections)
        expected = reference::anticausal(s, expected, MatrixXd::Zero(2, 1));

    auto length = [&](int t) { return std::min(b, n - t * b); };
    auto tile_of = [&](int t) {
        MatrixXd v = MatrixXd::Zero(b, 1);
        v.topRows(length(t)) = x.middleRows(t * b, length(t));
        return v;
    };
    // P(t) leaving tile t, E(t) entering tile t from below, by the completions of iir_tiled.h.
    std::vector<MatrixXd> P(tiles), E(tiles);
    const TileMatrices full = tile_matrices(sections, b, b),
                       last = tile_matrices(sections, b, length(tiles - 1));
    for (int t = 0; t < tiles; t++)
        P[t] = full.Gf * tile_of(t) + (t > 0 ? MatrixXd(full.Mf * P[t - 1]) : MatrixXd::Zero(K, 1));
    E[tiles - 1] = MatrixXd::Zero(K, 1);
    for (int t = tiles - 2; t >= 0; t--) {
        const TileMatrices &next = t + 1 == tiles - 1 ? last : full;
        E[t] = next.Gr * tile_of(t + 1) + next.Mc * P[t] + full.Mr * E[t + 1];
    }
    for (int t = 0; t < tiles; t++) {
        const TileMatrices &m = t == tiles - 1 ? last : full;
        MatrixXd zero_carries = m.UP * MatrixXd::Zero(K, 1);
        // The tile's output: its input through the tile (columns of UP/UE are the carries' part).
        MatrixXd in_part = MatrixXd::Zero(b, 1);
        {
            MatrixXd v = tile_of(t);
            for (const RecursiveFilter &s : sections) v = reference::causal(s, MatrixXd::Zero(2, 1), v);
            v.bottomRows(b - length(t)).setZero();
            for (const RecursiveFilter &s : sections) v = reference::anticausal(s, v, MatrixXd::Zero(2, 1));
            in_part = v;
        }
        MatrixXd out =
            in_part + m.UP * (t > 0 ? P[t - 1] : MatrixXd::Zero(K, 1)) + m.UE * E[t] + zero_carries;
        EXPECT_TRUE(near(out.topRows(length(t)), expected.middleRows(t * b, length(t)))) << "tile " << t;
    }
}

TEST(TileMatrices, TableHoldsTheChunkPowers) {
    const std::vector<RecursiveFilter> sections = {{0.5, {-0.5}}};
    const int b = 8;
    const std::vector<double> table = tiled_table(sections, b, 20);
    const TiledLayout layout{b, 1};
    ASSERT_EQ(table.size(), size_t(layout.rows()) * b);
    const double mf = tile_matrices(sections, b, b).Mf(0, 0);
    for (int v = 0; v < TiledLayout::kChunk; v++)
        EXPECT_NEAR(table[size_t(layout.mf_power(v)) * b], std::pow(mf, v + 1), 1e-7 * std::pow(mf, v + 1));
}

}  // namespace
}  // namespace cascade
