#include "tile_staging.h"

namespace cascade {

using namespace Halide;

void stage_tile(Func tile, Var xi, Var yi, int b, int rows_per_pass, int columns) {
    Var yo("yo"), yr("yr");
    tile.bound_storage(xi, (columns > 0 ? columns : b) + 1)
        .split(yi, yo, yr, rows_per_pass)
        .reorder(yo, xi, yr)
        .gpu_threads(xi, yr)
        .unroll(yo);
}

}  // namespace cascade
