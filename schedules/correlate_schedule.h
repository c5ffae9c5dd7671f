#pragma once
// Schedules of one axis's FIR of run-time length (algebra/correlate.h): every output's sum over
// the taps held in a register, the folds of the extension computed once per position.
#include "algebra/correlate.h"

namespace cascade {

// `lanes`: the vector width of the samples' type. Blocks of outputs along x, 8 vectors wide,
// accumulate over the taps in registers from a copy of the extension; tasks are tiles or strips
// of rows of one channel.
void schedule_correlate_cpu(Correlation &f, int lanes);

// A thread per output, its sum in a register; a block a tile of 32 × 8 outputs.
void schedule_correlate_cuda(Correlation &f);

}  // namespace cascade
