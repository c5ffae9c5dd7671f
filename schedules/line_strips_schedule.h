#pragma once
// Schedules of the overlapped segments of one long signal (algebra/line_strips.h).
#include "algebra/line_strips.h"

namespace cascade {

// One GPU block filters `threads` consecutive segments, one thread each, its window's scans in
// registers; the block stages its samples and its results in shared memory.
void schedule_line_strips_cuda(LineStripsFuncs &f, int threads);

// `lanes` neighbouring segments scan in lockstep, one per vector lane.
void schedule_line_strips_cpu(LineStripsFuncs &f, int lanes);

}  // namespace cascade
