#pragma once
// The CPU's row strips with overlapped column windows (algebra/iir_strips.h) with their schedule:
// the Func API's blocked path on a CPU and the prebuilt iir_strips variants.
#include <Halide.h>

#include <optional>
#include <vector>

#include "algebra/iir_strips.h"
#include "funcs/stages.h"

namespace cascade::funcs {

// `output` (x, y, c) from `input` of `samples`, as iir_strips defines it, its row passes by
// strips_row_block(samples); scheduled with the target's natural vector of `samples`, inside a
// consumer where Filtered::schedule is given one.
StagesPtr strips(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                 const std::vector<Coefficients> &vertical, const std::vector<Coefficients> &horizontal,
                 Halide::Expr overlap, Halide::Expr strip, const std::optional<StripsExtension> &exact,
                 Halide::Type samples);

}  // namespace cascade::funcs
