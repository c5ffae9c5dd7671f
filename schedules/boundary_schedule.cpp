#include "boundary_schedule.h"

namespace cascade {

using namespace Halide;

void schedule_feedbacks_cpu(Func feedbacks) {
    const auto args = feedbacks.args();  // s, line, c
    feedbacks.compute_root().vectorize(args[1], 8, TailStrategy::GuardWithIf).parallel(args[2]);
}

void schedule_feedbacks_cuda(Func feedbacks) {
    const auto args = feedbacks.args();
    Var block("block"), thread("thread");
    feedbacks.compute_root()
        .split(args[1], block, thread, 64, TailStrategy::GuardWithIf)
        .reorder(args[0], thread, block, args[2])
        .gpu_blocks(block, args[2])
        .gpu_threads(thread);
}

void schedule_level_cpu(Func level) { level.compute_root(); }

void schedule_level_cuda(Func level) {
    // One thread, its 64 loads in flight at once (generators/boundary.cpp sums one expression; a
    // loop of dependent loads and adds cost 62 µs per call on the H100, 8192², order 1). Inlined,
    // every tile would repeat the sum.
    level.compute_root().gpu_single_thread();
}

}  // namespace cascade
