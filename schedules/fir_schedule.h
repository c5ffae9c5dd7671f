#pragma once
// Schedules of the separable FIR (generators/fir_generator.cpp): the column pass is computed per
// strip (CPU) or per block (CUDA) right before the row pass reads it, so the image is read once
// and written once.
#include <Halide.h>

namespace cascade {

// `vertical` and `output` are (x, y, c) Funcs; `output` reads `vertical` at x ± radius.
void schedule_fir_cpu(Halide::Func vertical, Halide::Func output);
void schedule_fir_cuda(Halide::Func vertical, Halide::Func output);

}  // namespace cascade
