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
    // One thread: a launch of a few µs; inlined, every tile would repeat the 64-sample sum.
    level.compute_root().gpu_single_thread();
}

}  // namespace cascade
