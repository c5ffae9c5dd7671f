#include "tile_staging.h"

#include <algorithm>

namespace cascade {

using namespace Halide;

void stage_tile(Func tile, Var xi, Var yi, int b, int rows_per_pass, int columns) {
    Var yo("yo"), yr("yr"), xo("xo"), xt("xt");
    tile.bound_storage(xi, std::max(columns, b) + 1)
        .split(yi, yo, yr, rows_per_pass)
        .split(xi, xo, xt, b, TailStrategy::GuardWithIf)
        .reorder(yo, xo, xt, yr)
        .gpu_threads(xt, yr)
        .unroll(xo)
        .unroll(yo);
}

Var tile_output_cuda(Func output, Var x, Var y, Var c, int b, int rows_per_pass) {
    Var xo("xo"), yt("yt"), xi("xi_out"), yi("yi_out"), yio("yio"), yii("yii");
    output.tile(x, y, xo, yt, xi, yi, b, b, TailStrategy::GuardWithIf)
        .split(yi, yio, yii, rows_per_pass)
        .reorder(yio, xi, yii, xo, yt, c)
        .gpu_blocks(xo, yt, c)
        .gpu_threads(xi, yii)
        .unroll(yio);
    return xo;
}

void compute_one_tile_at(Func tile, Func output, Var at, int columns, int rows) {
    const std::vector<Var> args = tile.args();
    tile.compute_at(output, at)
        .bound_extent(args[0], columns)
        .bound_extent(args[1], rows)
        .bound_extent(args[2], 1)
        .bound_extent(args[3], 1);
}

}  // namespace cascade
