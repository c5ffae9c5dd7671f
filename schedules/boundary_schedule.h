#pragma once
// Where the exact boundaries' feedbacks (algebra/boundary.h, iir_tiled.h) are computed: once per
// line, stored, before the passes that read them.
#include <Halide.h>

namespace cascade {

// `feedbacks` (s, line, c): one line per vector lane (CPU) or thread (CUDA), its 2K feedbacks in turn.
void schedule_feedbacks_cpu(Halide::Func feedbacks);
// Returns the CUDA schedule's thread variable (a line), where what the feedbacks read can be computed.
Halide::Var schedule_feedbacks_cuda(Halide::Func feedbacks);

// `level` (c), a few dozen samples' mean per channel: once, before everything that reads it.
void schedule_level_cpu(Halide::Func level);
// With `terms` (k, c), bounded in k: the kernel computes those of the level rather than the level.
void schedule_level_cuda(Halide::Func level, Halide::Func terms = Halide::Func());

}  // namespace cascade
