#pragma once
// Schedules of the tiled summed-area tables (generators/sat_tiled.h).
#include "generators/sat_tiled.h"

namespace cascade {

void schedule_sat_tiled_cpu(SatTiledFuncs &f);
// rows_per_pass: a tile moves to or from memory b × rows_per_pass samples at a time (the block's
// thread count).
void schedule_sat_tiled_cuda(SatTiledFuncs &f, int rows_per_pass);

}  // namespace cascade
