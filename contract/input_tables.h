#pragma once
// The block-parallel tables of recursions whose coefficients are known only at run time, as one
// input of a user's pipeline: the runtime library makes them (cascade/tile_tables.h), the Func
// API's pipeline reads them (funcs/tile_inputs.h); this header is where both agree.
//
// One float32 buffer (column, row, plane) of b columns:
//   plane 0, row 0: the level gain (exact boundaries that keep constants), then per dimension, the
//            columns' and then the rows', its start and end tiles (TiledEdges);
//   planes 1, 2: the tile tables (contract/tiled_layout.h) down the columns and along the rows;
//   planes 3–5: with an exact boundary, the columns' boundary matrix, start and end tables
//            (algebra/iir_tiled.h, TiledEdges), each a plane's first rows; 6–8 the rows'.
// Its mins are the image's width and height and the boundary it was made for (cascade/boundary.h's
// value), so that a pipeline refuses tables of another size or boundary when it starts, before
// any kernel runs.
#include "cascade/boundary.h"

namespace cascade::input_tables {

enum Plane { kHeader = 0, kDown = 1, kAcross = 2, kColumnEdges = 3, kRowEdges = 6 };
constexpr int kEdgePlanes = 3;                                   // matrix, start, end
enum Entry { kLevelGain = 0, kColumnTiles = 1, kRowTiles = 3 };  // tiles: start, then end

// The tile of recursions of order ≤ `order`: 128 to order 3, as the prebuilt direct form's, else 64.
constexpr int tile(int order) { return order <= 3 ? 128 : 64; }

// The highest order a tile holds: the boundary matrix's 2K + 2 columns within b.
constexpr int most_order(int b) { return b / 2 - 1; }

constexpr int planes(Boundary boundary) {
    return boundary == Boundary::none ? kAcross + 1 : kRowEdges + kEdgePlanes;
}

// Whether the pipeline filters about the image's level: the extensions that keep a constant line
// constant (the filter is not known when the pipeline is built to need it or not).
constexpr bool about_level(Boundary boundary) {
    return boundary != Boundary::none && boundary != Boundary::zero;
}

}  // namespace cascade::input_tables
