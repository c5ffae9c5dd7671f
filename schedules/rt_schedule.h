#pragma once
// Schedules of algorithm RT (Ruijters & Thévenaz; Nehab et al. 2011 section 4): every pass is a
// full sequential scan along its dimension, parallel across the other one.
#include <vector>

#include "generators/recursive_filter.h"

namespace cascade {

// `passes` in order of computation; `output` is the pipeline's output: the last pass, or with
// exact boundaries the last pass corrected by the `feedbacks` of each dimension (s, across, c).
void schedule_rt_cpu(const std::vector<Pass> &passes, const std::vector<Halide::Func> &feedbacks,
                     Halide::Func output);
void schedule_rt_cuda(const std::vector<Pass> &passes, const std::vector<Halide::Func> &feedbacks,
                      Halide::Func output);

}  // namespace cascade
