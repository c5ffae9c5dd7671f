#include "boundary_schedule.h"

namespace cascade {

using namespace Halide;

void schedule_feedbacks_cpu(Func feedbacks) {
    const auto args = feedbacks.args();  // s, line, c
    feedbacks.compute_root().vectorize(args[1], 8, TailStrategy::GuardWithIf).parallel(args[2]);
}

Var schedule_feedbacks_cuda(Func feedbacks) {
    const auto args = feedbacks.args();
    Var block("block"), thread("thread");
    feedbacks.compute_root()
        .split(args[1], block, thread, 64, TailStrategy::GuardWithIf)
        .reorder(args[0], thread, block, args[2])
        .gpu_blocks(block, args[2])
        .gpu_threads(thread);
    return thread;
}

void schedule_level_cpu(Func level) { level.compute_root(); }

void schedule_level_cuda(Func level, Func terms) {
    // A block a channel: 8 threads each sum a column of the grid, its 8 loads in flight, then one
    // thread the 8 sums (and the terms). (One thread issuing all 64 loads: 7–11 µs a call on an
    // H100, 2048² to 8192²; a loop of dependent loads: 62 µs.)
    const std::vector<RVar> r = level.rvars();
    Var lane("level_lane");
    Func columns = level.update().rfactor(r[0], lane);
    Func kernel = terms.defined() ? terms : level.in();
    const std::vector<Var> a = kernel.args();  // (c), or the terms' (k, c)
    const Var c = a.back();
    kernel.compute_root().gpu_blocks(c);
    if (a.size() > 1) kernel.unroll(a[0]);
    level.compute_at(kernel, c);
    columns.compute_at(kernel, c).gpu_threads(lane);
    columns.update().reorder(r[1], lane).gpu_threads(lane).unroll(r[1]);
}

}  // namespace cascade
