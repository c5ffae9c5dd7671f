#pragma once
// Schedule of the CPU's summed-area table by strips (generators/sat_strips.h).
#include "generators/sat_strips.h"

namespace cascade {

void schedule_sat_strips_cpu(SatStripsFuncs &f);

}  // namespace cascade
