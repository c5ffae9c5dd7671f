#pragma once
// The block-parallel tiles (algorithms 2, 4, 5, 6: algebra/iir_blocked.h, algebra/iir_tiled.h) with
// their schedules: the Func API's blocked path on CUDA and the prebuilt iir_tiled variants.
#include <Halide.h>

#include <functional>

#include "algebra/iir_tiled.h"
#include "funcs/stages.h"
#include "schedules/tiled_schedule.h"

namespace cascade::funcs {

struct TileChoice {
    int tile = 64, algorithm = 6;
    int rows = 2;  // GPU: tile rows a block loads per pass
    ScanStyle scan = ScanStyle::automatic;
    CarryKernels carries = CarryKernels::automatic;
    int lanes = 0;  // CPU: the vector width; 0, the target's natural float32 width
    Halide::Type output_type = Halide::Float(32);
    // Where given: from `full` (the tiles cover the image exactly), whether the output is written
    // in whole tiles, its stores untested. Asked once the output is defined (a generator's Output
    // reads its buffer's extents only then).
    std::function<Halide::Expr(Halide::Expr full)> output_full;
    // The output computed over [0, width) × [0, height): the region's corner known, the carries'
    // chunk rescans stay in registers (else a device buffer sized at run time: 12.2 against 8.8
    // µs for the columns' carries at 2048², none, H200).
    bool over_image = false;
};

// `output` (x, y, c), the 2D filter of `input` with `vertical` down the columns and `horizontal`
// along the rows, tables `down` and `across` (contract/tiled_layout.h), boundary none or the
// exact `edges`.
StagesPtr tiles(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                const SectionCascade &vertical, const SectionCascade &horizontal, Halide::Func down,
                Halide::Func across, const ExactEdges *edges, const TileChoice &choice,
                const Halide::Target &target);

}  // namespace cascade::funcs
