#pragma once
// Schedules of algorithm 2 (algebra/iir_blocked.h): each pass one tile per GPU block (one
// per task on the CPU), its two tile Funcs in shared memory, the stored image written by b × rows
// threads; the carry completions as for algorithms 4–6.
#include "algebra/iir_blocked.h"

namespace cascade {

void schedule_iir_blocked_cpu(IirBlockedFuncs &f);
// `rows`: tile rows loaded per pass by the b × rows threads of a tile's block.
void schedule_iir_blocked_cuda(IirBlockedFuncs &f, int rows);

}  // namespace cascade
