#pragma once
// The block-parallel algorithms' tables (contract/tiled_layout.h, runtime/design/boundary_tables.h)
// for a filter known when the generator runs, embedded in the pipeline as constants and picked
// at run time by the image's size.
//
// A dimension of n samples cut into tiles of b needs, beside the whole tiles' matrices, its last
// tile's, which depend on n only through the last tile's length L = n − (⌈n/b⌉ − 1)·b: they are
// embedded for every L in [1, b]. The exact boundaries' tables depend on L alone once n reaches
// `long_from`, where what the feedbacks of one end add has died out before the other (found and
// checked when the tables are built); shorter dimensions take another path (funcs.cpp).
#include <Halide.h>

#include <vector>

#include "algebra/iir_tiled.h"
#include "cascade/boundary.h"
#include "cascade/filter.h"

namespace cascade::funcs {

// The tile tables of a cascade: `sections` as the tiles scan them (variant_sections; the
// unit-gain filter's under boundary none).
class TileConstants {
public:
    TileConstants(const std::vector<RecursiveFilter> &sections, int b);
    // The table (column, row) of a dimension of `n` samples.
    Halide::Func table(Halide::Expr n) const;

private:
    int b_, K_, rows_, blocks_;
    std::vector<int> last_blocks_;
    Halide::Buffer<float> table_;  // the whole tiles' rows, then the last tile's blocks for each L
};

// The exact boundary's tables of a cascade under `boundary` (not none).
class EdgeConstants {
public:
    EdgeConstants(const std::vector<RecursiveFilter> &sections, int b, Boundary boundary);
    // The tables of a dimension of `n` ≥ long_from() samples.
    TiledEdges edges(Halide::Expr n) const;
    int long_from() const { return long_from_; }

private:
    int b_, K_, start_tiles_, end_tiles_, long_from_;
    Halide::Buffer<float> matrix_, start_, end_;  // end_: one plane per L
};

}  // namespace cascade::funcs
