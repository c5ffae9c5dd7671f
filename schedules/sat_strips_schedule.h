#pragma once
// Schedule of the CPU's summed-area table by strips (algebra/sat_strips.h).
#include "algebra/sat_strips.h"

namespace cascade {

void schedule_sat_strips_cpu(SatStripsFuncs &f);

}  // namespace cascade
