#pragma once
// Schedules of the tiled summed-area tables (algebra/sat_tiled.h).
#include "algebra/sat_tiled.h"

namespace cascade {

void schedule_sat_tiled_cpu(SatTiledFuncs &f);
// rows_per_pass: a tile moves to or from memory b × rows_per_pass samples at a time (the block's
// thread count). corner_in_block (2R1W): each tile's block sums its corner, rather than a kernel
// of its own before the last pass (the faster below 8192², docs/performance.md).
void schedule_sat_tiled_cuda(SatTiledFuncs &f, int rows_per_pass, bool corner_in_block);

}  // namespace cascade
