#pragma once
// Schedules of the tiled summed-area tables (generators/sat_tiled.h).
#include "generators/sat_tiled.h"

namespace cascade {

void schedule_sat_tiled_cpu(SatTiledFuncs &f);
void schedule_sat_tiled_cuda(SatTiledFuncs &f);

}  // namespace cascade
