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

}  // namespace cascade
