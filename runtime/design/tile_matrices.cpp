#include "tile_matrices.h"

#include <cfloat>
#include <cmath>
#include <string>

#include "cascade/error.h"
#include "contract/tiled_layout.h"
#include "reference.h"

namespace cascade {

using Eigen::MatrixXd;

TileMatrices tile_matrices(const std::vector<RecursiveFilter> &sections, int b, int length) {
    if (sections.empty()) throw Error("a tiled filter needs at least one section");
    const int q = sections[0].order(), K = int(sections.size()) * q;
    for (const RecursiveFilter &s : sections)
        if (s.order() != q) throw Error("the sections of a tiled filter must share one order");
    if (b < q || length < 1 || length > b) throw Error("tile length out of range");

    // One experiment per column: a unit input sample (b), a unit entering prologue state (K), a
    // unit entering epilogue state (K).
    const int n = b + 2 * K;
    MatrixXd X = MatrixXd::Zero(b, n), P = MatrixXd::Zero(K, n), E = MatrixXd::Zero(K, n);
    X.leftCols(b).setIdentity();
    P.middleCols(b, K).setIdentity();
    E.rightCols(K).setIdentity();

    // The causal sections run over the whole tile; their state is taken after sample length − 1
    // (in the image's last tile, its last sample). The anticausal sections run over the first
    // `length` samples only, entering from sample `length`: past the image they never look.
    MatrixXd V = X, P_out(K, n), E_start(K, n);
    for (size_t j = 0; j < sections.size(); j++) {
        MatrixXd stacked(q + b, n);
        stacked.topRows(q) = P.middleRows(j * q, q);
        stacked.bottomRows(b) = V = reference::causal(sections[j], P.middleRows(j * q, q), V);
        P_out.middleRows(j * q, q) = stacked.middleRows(length, q);
    }
    MatrixXd W = V.topRows(length);
    for (size_t j = 0; j < sections.size(); j++) {
        MatrixXd stacked(length + q, n);
        stacked.bottomRows(q) = E.middleRows(j * q, q);
        stacked.topRows(length) = W = reference::anticausal(sections[j], W, E.middleRows(j * q, q));
        E_start.middleRows(j * q, q) = stacked.topRows(q);
    }
    V.setZero();
    V.topRows(length) = W;
    TileMatrices m;
    m.Gf = P_out.leftCols(b);
    m.Mf = P_out.middleCols(b, K);
    m.Gr = E_start.leftCols(b);
    m.Mc = E_start.middleCols(b, K);
    m.Mr = E_start.rightCols(K);
    m.UP = V.middleCols(b, K);
    m.UE = V.rightCols(K);
    return m;
}

std::vector<double> tiled_table(const std::vector<RecursiveFilter> &sections, int b, int extent) {
    if (extent < 1) throw Error("an empty dimension has no tiles");
    const TileMatrices full = tile_matrices(sections, b, b);
    const TileMatrices last = tile_matrices(sections, b, extent - (extent - 1) / b * b);
    const TiledLayout layout{b, int(full.Mf.rows())};
    if (layout.K > b) throw Error("a tiled filter's state must fit in a tile's width");
    std::vector<double> table(size_t(layout.rows()) * b, 0.0);
    // Row `row` + s holds row s of M.
    auto put = [&](int row, const MatrixXd &M) {
        for (int s = 0; s < M.rows(); s++)
            for (int k = 0; k < M.cols(); k++) table[size_t(row + s) * b + k] = M(s, k);
    };
    put(layout.mf(), full.Mf);
    put(layout.mr(), full.Mr);
    put(layout.mc(0), full.Mc);
    put(layout.mc(1), last.Mc);
    put(layout.up(0), full.UP.transpose());
    put(layout.up(1), last.UP.transpose());
    put(layout.ue(), full.UE.transpose());
    put(layout.gf(), full.Gf);
    put(layout.gr(0), full.Gr);
    put(layout.gr(1), last.Gr);
    put(layout.mf_last(), last.Mf);
    put(layout.gf_last(), last.Gf);
    put(layout.ue_last(), last.UE.transpose());
    MatrixXd f_power = full.Mf, r_power = full.Mr;
    for (int v = 0; v < TiledLayout::kChunk; v++, f_power = full.Mf * f_power, r_power = full.Mr * r_power) {
        put(layout.mf_power(v), f_power);
        put(layout.mr_power(v), r_power);
    }
    return table;
}

std::vector<RecursiveFilter> with_unit_gains(std::vector<RecursiveFilter> sections) {
    for (RecursiveFilter &s : sections) s.gain = 1.0;
    return sections;
}

float table_entry(double v, const char *who) {
    if (!(std::abs(v) <= FLT_MAX))
        throw Error(
            std::string(who) +
            ": this filter's tiles need tables past float32's range (a gain or pole too extreme for a "
            "float32 pipeline)");
    return float(v);
}

}  // namespace cascade
