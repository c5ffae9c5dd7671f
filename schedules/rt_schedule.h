#pragma once
// Schedules of algorithm RT (Ruijters & Thévenaz; Nehab et al. 2011 section 4): every pass is a
// full sequential scan along its dimension, parallel across the other one.
#include <vector>

#include "algebra/boundary.h"
#include "algebra/recursive_filter.h"

namespace cascade {

// `passes` in order of computation; `output` is the pipeline's output: the last pass, or with
// exact boundaries the last of the `corrections` (each dimension's lines corrected by its
// `feedbacks`, algebra/boundary.h).
// The knobs (docs/tuning.md): on the CPU `lanes` neighbouring lines scan in lockstep, `grain`
// such vectors of lines to a parallel task; on the GPU `block` lines (threads) to a block.
void schedule_rt_cpu(const std::vector<Pass> &passes, const std::vector<Halide::Func> &feedbacks,
                     const std::vector<CorrectedLines> &corrections, Halide::Func output, int lanes = 8,
                     int grain = 1);
void schedule_rt_cuda(const std::vector<Pass> &passes, const std::vector<Halide::Func> &feedbacks,
                      const std::vector<CorrectedLines> &corrections, Halide::Func output, int block = 64);

}  // namespace cascade
