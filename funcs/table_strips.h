#pragma once
// The CPU's summed-area tables by strips of rows (algebra/sat_strips.h) with their schedule: the
// Func API's blocked tables on a CPU and the prebuilt sat_strips variants.
#include <Halide.h>

#include "algebra/sat_strips.h"
#include "funcs/stages.h"

namespace cascade::funcs {

// `output` (x, y, c) the table of `input` in `type`, `strip` rows a strip.
StagesPtr table_strips(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                       Halide::Type type, Halide::Expr strip);

}  // namespace cascade::funcs
