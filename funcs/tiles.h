#pragma once
// The Func API's blocked path for CUDA targets (funcs.cpp), reachable on any target so that the CPU
// tests can run its algebra and tables: algorithm 6 over `input`, with tables embedded for
// `filter`, a filter known at generator time (constant_tiles), or read from `tables` for
// recursions of run-time coefficients (input_tiles, contract/input_tables.h). Built for a CPU
// target and scheduled for it, they take the prebuilt CPU tiles' schedule
// (schedules/tiled_schedule.h).
#include <Halide.h>

#include "cascade/boundary.h"
#include "cascade/filter.h"
#include "cascade/funcs.h"

namespace cascade::funcs {

Filtered constant_tiles(Halide::Func input, const Filter2D &filter, Boundary boundary, Halide::Expr width,
                        Halide::Expr height, const Halide::Target &target);

Filtered input_tiles(Halide::Func input, const Recursion &vertical, const Recursion &horizontal,
                     Halide::ImageParam tables, Boundary boundary, Halide::Expr width, Halide::Expr height,
                     const Halide::Target &target);

}  // namespace cascade::funcs
