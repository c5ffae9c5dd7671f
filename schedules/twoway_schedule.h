#pragma once
// Schedules of the two-way partitioned Gaussian (algebra/twoway.h): every scan of a pass runs
// over both halves of every line at once, so a pass has twice the lines' parallelism (the
// paper's point), and the centre points are computed before the second pass needs them.
#include "algebra/twoway.h"

namespace cascade {

// `last`: the step's `out` is the pipeline's output (not computed at root); `states`: the
// values past a line's end each half's first pass starts from (exact boundaries: 2 per section).
void schedule_two_way_cpu(TwoWayStep step, bool last, int states);
void schedule_two_way_cuda(TwoWayStep step, bool last, int states);
// The centre points (o, c): a thread per line (also the block-parallel form's, twoway_tiled_schedule.h).
void schedule_two_way_centre_cuda(Halide::Func centre);

}  // namespace cascade
