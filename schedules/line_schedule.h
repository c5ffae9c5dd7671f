#pragma once
// Schedules of the 1D block-parallel filters (algebra/iir_line.h): where each block is
// scanned, and how the carry completion's levels map to tasks, lanes and GPU threads.
#include "algebra/iir_line.h"

namespace cascade {

void schedule_iir_line_cpu(IirLineFuncs &f);
// `rows`: rows of b threads per GPU block; a GPU block scans b·rows signal blocks, one thread
// each (fewer rows where their shared memory would exceed 48 KiB).
void schedule_iir_line_cuda(IirLineFuncs &f, int rows);

}  // namespace cascade
