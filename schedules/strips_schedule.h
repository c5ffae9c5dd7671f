#pragma once
// Schedule of the row strips with overlapped column windows (generators/iir_strips.h), CPU only.
#include "generators/iir_strips.h"

namespace cascade {

void schedule_strips_cpu(IirStripsFuncs &f);

}  // namespace cascade
