#pragma once
// Schedule of the row strips with overlapped column windows (algebra/iir_strips.h), CPU only.
#include "algebra/iir_strips.h"

namespace cascade {

// `lanes`: the target's natural float32 vector width.
void schedule_strips_cpu(IirStripsFuncs &f, int lanes);

}  // namespace cascade
