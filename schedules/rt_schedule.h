#pragma once
// Schedules of algorithm RT (Ruijters & Thévenaz; Nehab et al. 2011 section 4): every pass is a
// full sequential scan along its dimension, parallel across the other one.
#include <vector>

#include "generators/recursive_filter.h"

namespace cascade {

// `passes` in order of computation; the last one is the pipeline's output.
void schedule_rt_cpu(const std::vector<Pass> &passes);
void schedule_rt_cuda(const std::vector<Pass> &passes);

}  // namespace cascade
