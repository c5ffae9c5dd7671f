#pragma once
// What the Func API's pipeline reads from the tables of run-time coefficients
// (contract/input_tables.h).
#include <Halide.h>

#include "algebra/iir_tiled.h"
#include "cascade/boundary.h"

namespace cascade::funcs {

// The tile tables and, under an exact boundary, the boundary's tables and level gain that
// `tables` holds for recursions of orders `vertical_order` and `horizontal_order` on an image of
// width × height; constrains `tables` to that image and boundary.
struct TileInputs {
    Halide::Func vertical, horizontal;
    ExactEdges edges;
};
TileInputs tile_inputs(Halide::ImageParam tables, int vertical_order, int horizontal_order, Boundary boundary,
                       Halide::Expr width, Halide::Expr height);

}  // namespace cascade::funcs
