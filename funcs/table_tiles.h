#pragma once
// The GPU's tiled summed-area tables (algebra/sat_tiled.h) with their schedule: the Func API's
// blocked tables on CUDA and the prebuilt sat_tiled variants.
#include <Halide.h>

#include <string>

#include "algebra/sat_tiled.h"
#include "funcs/stages.h"

namespace cascade::funcs {

struct TableChoice {
    int tile = 64;
    std::string algorithm = "2r1w";
    int rows = 4;                 // GPU: tile rows a block moves per pass
    bool corner_in_block = true;  // GPU, 2r1w: each tile's corner summed in its block
    bool over_image = false;      // the table computed over [0, width) × [0, height)
};

// `output` (x, y, c) the table of `input` in `type`, continuing `boundary`'s where given.
StagesPtr table_tiles(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                      Halide::Type type, const TableChoice &choice, const SatBoundary *boundary = nullptr);

}  // namespace cascade::funcs
