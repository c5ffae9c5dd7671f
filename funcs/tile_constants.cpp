#include "tile_constants.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "cascade/error.h"
#include "contract/tiled_layout.h"
#include "runtime/design/boundary_tables.h"
#include "runtime/design/tile_matrices.h"

namespace cascade::funcs {

using namespace Halide;

namespace {

float to_float(double v) {
    if (!(std::abs(v) <= FLT_MAX))
        throw Error(
            "cascade::funcs: this filter's tiles need tables past float32's range (a gain or pole too "
            "extreme for a float32 pipeline)");
    return float(v);
}

// The largest difference between two tables of one shape, relative to the second's largest entry.
double relative_difference(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    const double scale = b.size() ? b.cwiseAbs().maxCoeff() : 0.0;
    const double d = a.size() ? (a - b).cwiseAbs().maxCoeff() : 0.0;
    return scale > 0 ? d / scale : d;
}

// Table differences that float32 pipelines cannot see.
constexpr double kSameTables = 1e-9;

int state_of(const std::vector<RecursiveFilter> &sections) {
    int K = 0;
    for (const RecursiveFilter &s : sections) K += s.order();
    return K;
}

}  // namespace

TileConstants::TileConstants(const std::vector<RecursiveFilter> &sections, int b) : b_(b) {
    const std::vector<double> whole = tiled_table(sections, b, b);
    rows_ = int(whole.size()) / b;
    K_ = rows_ / TiledLayout{b, 1}.rows();
    last_blocks_ = TiledLayout{b, K_}.last_tile_blocks();
    blocks_ = int(last_blocks_.size());
    table_ = Buffer<float>(b, rows_ + b * blocks_ * K_);
    for (int r = 0; r < rows_; r++)
        for (int k = 0; k < b; k++) table_(k, r) = to_float(whole[size_t(r) * b + k]);
    for (int length = 1; length <= b; length++) {
        const std::vector<double> t = tiled_table(sections, b, length);
        for (int j = 0; j < blocks_; j++)
            for (int s = 0; s < K_; s++)
                for (int k = 0; k < b; k++)
                    table_(k, rows_ + ((length - 1) * blocks_ + j) * K_ + s) =
                        to_float(t[size_t(last_blocks_[j] + s) * b + k]);
    }
}

Func TileConstants::table(Expr n) const {
    Var column("column"), row("row");
    const Expr length = n - ((n + b_ - 1) / b_ - 1) * b_;
    // Rows are mostly constants where the tiles read them, so this folds to a row of the table.
    const Expr block = row / K_ * K_;
    Expr slot = -1;
    for (int j = blocks_ - 1; j >= 0; j--) slot = select(block == last_blocks_[j], j, slot);
    const Expr at = select(slot >= 0, rows_ + ((length - 1) * blocks_ + slot) * K_ + row % K_, row);
    Func f("tile_table");
    f(column, row) = table_(column, clamp(at, 0, table_.height() - 1));
    return f;
}

EdgeConstants::EdgeConstants(const std::vector<RecursiveFilter> &sections, int b, Boundary boundary)
    : b_(b), K_(state_of(sections)) {
    // The shortest whole number of tiles past the responses' reach at which the tables of lines
    // one, two and three tiles longer (two lengths of the last tile) agree.
    const int64_t reach = decay_length(sections, 1e-12);
    int64_t from = std::max<int64_t>(2 * b, (reach + b - 1) / b * b);
    BoundaryTables whole;
    for (;; from *= 2) {
        if (from > (int64_t(1) << 24))
            throw Error("cascade::funcs: this filter's boundary tables do not settle on long lines");
        whole = tiled_boundary_tables(sections, from + b, b, boundary);
        const BoundaryTables longer = tiled_boundary_tables(sections, from + 3 * b, b, boundary),
                             shorter_tile =
                                 tiled_boundary_tables(sections, from + 2 * b + b / 2 + 1, b, boundary);
        if (relative_difference(longer.seeds, whole.seeds) < kSameTables &&
            relative_difference(longer.start, whole.start) < kSameTables &&
            relative_difference(longer.end, whole.end) < kSameTables &&
            relative_difference(shorter_tile.seeds, whole.seeds) < kSameTables &&
            relative_difference(shorter_tile.start, whole.start) < kSameTables)
            break;
    }
    long_from_ = int(from);
    start_tiles_ = int(whole.start.rows()) / K_;
    matrix_ = Buffer<float>(int(whole.seeds.cols()), int(whole.seeds.rows()));
    for (int s = 0; s < whole.seeds.rows(); s++)
        for (int j = 0; j < whole.seeds.cols(); j++) matrix_(j, s) = to_float(whole.seeds(s, j));
    start_ = Buffer<float>(int(whole.start.cols()), int(whole.start.rows()));
    for (int i = 0; i < whole.start.rows(); i++)
        for (int k = 0; k < whole.start.cols(); k++) start_(k, i) = to_float(whole.start(i, k));
    std::vector<Eigen::MatrixXd> ends;
    end_tiles_ = 0;
    for (int length = 1; length <= b; length++) {
        ends.push_back(length == b ? whole.end
                                   : tiled_boundary_tables(sections, from + length, b, boundary).end);
        end_tiles_ = std::max(end_tiles_, int(ends.back().rows()) / K_);
    }
    // Tiles past a length's own reach hold zeros: they add nothing.
    end_ = Buffer<float>(K_, end_tiles_ * K_, b);
    end_.fill(0.0f);
    for (int length = 1; length <= b; length++) {
        const Eigen::MatrixXd &e = ends[size_t(length - 1)];
        for (int i = 0; i < e.rows(); i++)
            for (int k = 0; k < e.cols(); k++) end_(k, i, length - 1) = to_float(e(i, k));
    }
}

TiledEdges EdgeConstants::edges(Expr n) const {
    Var j("j"), i("i");
    const Expr length = n - ((n + b_ - 1) / b_ - 1) * b_;
    Func matrix("boundary_matrix"), start("boundary_start"), end("boundary_end");
    matrix(j, i) = matrix_(j, i);
    start(j, i) = start_(j, i);
    end(j, i) = end_(j, i, clamp(length - 1, 0, b_ - 1));
    return {matrix, start, end, Expr(start_tiles_), Expr(end_tiles_)};
}

}  // namespace cascade::funcs
