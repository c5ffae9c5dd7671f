#pragma once
// The Func API's blocked path for CUDA targets (funcs.cpp), reachable on any target so that the CPU
// tests can run its algebra, tables and short-line path: algorithm 6 over `input` with tables
// embedded for `filter`, a filter known at generator time. Scheduled for a CPU target it takes
// the prebuilt CPU tiles' schedule (schedules/tiled_schedule.h).
#include <Halide.h>

#include "cascade/boundary.h"
#include "cascade/filter.h"
#include "cascade/funcs.h"

namespace cascade::funcs {

Filtered constant_tiles(Halide::Func input, const Filter2D &filter, Boundary boundary, Halide::Expr width,
                        Halide::Expr height, const Halide::Target &target);

}  // namespace cascade::funcs
