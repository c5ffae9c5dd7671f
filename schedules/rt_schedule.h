#pragma once
// Schedules of algorithm RT (Ruijters & Thévenaz; Nehab et al. 2011 section 4): every pass is a
// full sequential scan along its dimension, parallel across the other one.
#include <vector>

#include "generators/boundary.h"
#include "generators/recursive_filter.h"

namespace cascade {

// `passes` in order of computation; `output` is the pipeline's output: the last pass, or with
// exact boundaries the last of the `corrections` (each dimension's lines corrected by its
// `feedbacks`, generators/boundary.h).
void schedule_rt_cpu(const std::vector<Pass> &passes, const std::vector<Halide::Func> &feedbacks,
                     const std::vector<CorrectedLines> &corrections, Halide::Func output);
void schedule_rt_cuda(const std::vector<Pass> &passes, const std::vector<Halide::Func> &feedbacks,
                      const std::vector<CorrectedLines> &corrections, Halide::Func output);

}  // namespace cascade
