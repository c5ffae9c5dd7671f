#include "tile_constants.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "cascade/error.h"
#include "contract/tiled_layout.h"
#include "runtime/design/boundary_tables.h"
#include "runtime/design/tile_matrices.h"

namespace cascade::funcs {

using namespace Halide;

namespace {

constexpr const char *kWho = "cascade::funcs";  // what a table's error names

// The largest difference between two tables of one shape, relative to the second's largest entry.
double relative_difference(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    const double scale = b.size() ? b.cwiseAbs().maxCoeff() : 0.0;
    const double d = a.size() ? (a - b).cwiseAbs().maxCoeff() : 0.0;
    return scale > 0 ? d / scale : d;
}

// Table differences that float32 pipelines cannot see.
constexpr double kSameTables = 1e-9;

}  // namespace

TileConstants::TileConstants(const std::vector<RecursiveFilter> &sections, int b) : b_(b) {
    const int rows = int(tiled_table(sections, b, b).size()) / b;
    const TiledLayout layout{b, rows / TiledLayout{b, 1}.rows()};
    int last = 0;
    for (int block : layout.last_tile_blocks()) last = std::max(last, block + layout.K);
    matrices_ = last;
    table_ = Buffer<float>(b, b * matrices_ + rows - matrices_);
    for (int length = 1; length <= b; length++) {
        const std::vector<double> t = tiled_table(sections, b, length);
        for (int r = 0; r < rows; r++) {
            if (r >= matrices_ && length < b) break;
            const int at = r < matrices_ ? (length - 1) * matrices_ + r : b * matrices_ + r - matrices_;
            for (int k = 0; k < b; k++) table_(k, at) = table_entry(t[size_t(r) * b + k], kWho);
        }
    }
}

Func TileConstants::table(Expr n) const {
    Var column("column"), row("row");
    const Expr length = n - ((n + b_ - 1) / b_ - 1) * b_;
    const Expr at = select(row < matrices_, (length - 1) * matrices_ + row, (b_ - 1) * matrices_ + row);
    Func f("tile_table");
    f(column, row) = table_(column, clamp(at, 0, table_.height() - 1));
    return f;
}

EdgeConstants::EdgeConstants(const std::vector<RecursiveFilter> &sections, int b, Boundary boundary) : b_(b) {
    // The shortest whole number of tiles past the responses' reach at which the tables of lines
    // one and three tiles longer, and of another last tile's length, agree.
    const int64_t reach = decay_length(sections, 1e-12);
    int64_t from = std::max<int64_t>(2 * b, (reach + b - 1) / b * b);
    for (;; from *= 2) {
        if (from > (int64_t(1) << 16))
            throw Error("cascade::funcs: this filter's boundary tables do not settle on long lines");
        const BoundaryTables whole = tiled_boundary_tables(sections, from + b, b, boundary),
                             longer = tiled_boundary_tables(sections, from + 3 * b, b, boundary),
                             other = tiled_boundary_tables(sections, from + 2 * b + b / 2 + 1, b, boundary);
        if (relative_difference(longer.seeds, whole.seeds) < kSameTables &&
            relative_difference(longer.start, whole.start) < kSameTables &&
            relative_difference(longer.end, whole.end) < kSameTables &&
            relative_difference(other.seeds, whole.seeds) < kSameTables &&
            relative_difference(other.start, whole.start) < kSameTables)
            break;
    }
    long_from_ = int(from);
    // Every n below long_from, then one line of each last tile's length past it.
    std::vector<BoundaryTables> cases;
    for (int n = 1; n < long_from_; n++) cases.push_back(tiled_boundary_tables(sections, n, b, boundary));
    for (int length = 1; length <= b; length++)
        cases.push_back(tiled_boundary_tables(sections, long_from_ + length, b, boundary));
    const int K = int(cases.back().seeds.rows()) / 2, count = int(cases.size());
    int start_rows = 0, end_rows = 0;
    for (const BoundaryTables &t : cases) {
        start_rows = std::max(start_rows, int(t.start.rows()));
        end_rows = std::max(end_rows, int(t.end.rows()));
    }
    matrix_ = Buffer<float>(2 * K + 2, 2 * K, count);
    start_ = Buffer<float>(2 * K, start_rows, count);
    end_ = Buffer<float>(K, end_rows, count);
    tiles_ = Buffer<int>(2, count);
    start_.fill(0.0f);
    end_.fill(0.0f);
    for (int k = 0; k < count; k++) {
        const BoundaryTables &t = cases[size_t(k)];
        for (int s = 0; s < t.seeds.rows(); s++)
            for (int j = 0; j < t.seeds.cols(); j++) matrix_(j, s, k) = table_entry(t.seeds(s, j), kWho);
        for (int i = 0; i < t.start.rows(); i++)
            for (int j = 0; j < t.start.cols(); j++) start_(j, i, k) = table_entry(t.start(i, j), kWho);
        for (int i = 0; i < t.end.rows(); i++)
            for (int j = 0; j < t.end.cols(); j++) end_(j, i, k) = table_entry(t.end(i, j), kWho);
        tiles_(0, k) = int(t.start.rows()) / K;
        tiles_(1, k) = int(t.end.rows()) / K;
    }
}

TiledEdges EdgeConstants::edges(Expr n) const {
    Var j("j"), i("i");
    const Expr length = n - ((n + b_ - 1) / b_ - 1) * b_;
    const Expr at = clamp(select(n < long_from_, n - 1, long_from_ - 1 + length - 1), 0, tiles_.height() - 1);
    Func matrix("boundary_matrix"), start("boundary_start"), end("boundary_end");
    matrix(j, i) = matrix_(j, i, at);
    start(j, i) = start_(j, i, at);
    end(j, i) = end_(j, i, at);
    // Clamped to what the tables hold, so that bounds inference sees how many tiles they reach.
    const int K = matrix_.height() / 2;
    return {matrix, start, end, clamp(tiles_(0, at), 1, start_.height() / K),
            clamp(tiles_(1, at), 1, end_.height() / K)};
}

}  // namespace cascade::funcs
