#pragma once
// The block-parallel algorithms' tables (contract/tiled_layout.h, runtime/design/boundary_tables.h)
// for a filter known when the generator runs, embedded in the pipeline as constants and picked
// at run time by the image's size.
//
// A dimension of n samples cut into tiles of b needs, beside the whole tiles' matrices, its last
// tile's, which depend on n only through the last tile's length L = n − (⌈n/b⌉ − 1)·b: the
// table's matrices are embedded for every L in [1, b] (the powers once), so that a read is one
// load at an offset, as from the prebuilt variants' table. The exact boundaries' tables depend on L alone
// once n reaches `long_from`, where what the feedbacks of one end add has died out before the other (found
// and checked when the tables are built); below it they are embedded for every n.
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
    int b_, matrices_;             // the rows of the matrices a last tile's length changes, and below
    Halide::Buffer<float> table_;  // those rows for L = 1 … b, then the rows past them (the powers)
};

// The exact boundary's tables of a cascade under `boundary` (not none).
class EdgeConstants {
public:
    EdgeConstants(const std::vector<RecursiveFilter> &sections, int b, Boundary boundary);
    // The tables of a dimension of `n` samples.
    TiledEdges edges(Halide::Expr n) const;

private:
    int b_, long_from_;
    // One plane per case: n − 1 for n < long_from, then long_from − 1 + L − 1; `tiles_` (2, case)
    // the start and end tiles each case holds.
    Halide::Buffer<float> matrix_, start_, end_;
    Halide::Buffer<int> tiles_;
};

}  // namespace cascade::funcs
