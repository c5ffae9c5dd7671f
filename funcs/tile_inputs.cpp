#include "tile_inputs.h"

#include <algorithm>
#include <string>

#include "contract/input_tables.h"

namespace cascade::funcs {

using namespace Halide;
using namespace input_tables;

TileInputs tile_inputs(ImageParam tables, int vertical_order, int horizontal_order, Boundary boundary,
                       Expr width, Expr height) {
    const int b = tile(std::max(vertical_order, horizontal_order));
    tables.dim(0).set_bounds(width, b);
    tables.dim(1).set_min(height);
    tables.dim(2).set_bounds(int(boundary), planes(boundary));
    Var column("column"), row("row");
    auto plane = [&](int p, const std::string &name) {
        Func f(tables.name() + "_" + name);
        f(column, row) = tables(column + width, row + height, p + int(boundary));
        return f;
    };
    auto entry = [&](int e) { return tables(e + width, height, kHeader + int(boundary)); };
    TileInputs in{plane(kDown, "down"), plane(kAcross, "across"), {}};
    if (boundary == Boundary::none) return in;
    auto edges = [&](int first, int tiles_at, int K, const std::string &axis) {
        // Clamped to what a plane holds, so that bounds inference sees how far the tables reach.
        auto tiles = [&](int e) { return clamp(cast<int>(entry(e)), 1, max(tables.dim(1).extent() / K, 1)); };
        return TiledEdges{plane(first, axis + "_matrix"), plane(first + 1, axis + "_start"),
                          plane(first + 2, axis + "_end"), tiles(tiles_at), tiles(tiles_at + 1)};
    };
    in.edges.vertical = edges(kColumnEdges, kColumnTiles, vertical_order, "y");
    in.edges.horizontal = edges(kRowEdges, kRowTiles, horizontal_order, "x");
    if (about_level(boundary)) in.edges.level_gain = entry(kLevelGain);
    return in;
}

}  // namespace cascade::funcs
