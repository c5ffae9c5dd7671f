#include "rt_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

struct PassVars {
    Var across, c;  // the pure dimension the pass is parallel over, and the channel
    RVar along;     // the scanned dimension
};

PassVars vars_of(const Pass &p) {
    const auto args = p.func.args();
    return {p.dim == Dim::y ? args[0] : args[1], args[2], p.scan.x};
}

}  // namespace

void schedule_rt_cpu(const std::vector<Pass> &passes, const std::vector<Func> &feedbacks, Func output) {
    for (const Pass &p : passes) {
        Func f = p.func;
        if (f.name() != output.name()) f.compute_root();
        PassVars v = vars_of(p);
        Var o("o"), i("i"), t("t");
        // Eight lanes of neighbouring scans run in lockstep. Down the columns the lanes are
        // contiguous; along the rows they are rows apart (gathers), which RT accepts as its cost.
        f.update()
            .split(v.across, o, i, 8, TailStrategy::GuardWithIf)
            .reorder(i, v.along, o, v.c)
            .vectorize(i)
            .fuse(o, v.c, t)
            .parallel(t);
    }
    for (Func f : feedbacks) {
        const auto args = f.args();  // (s, across, c)
        f.compute_root().vectorize(args[1], 8, TailStrategy::GuardWithIf).parallel(args[2]);
    }
    if (!feedbacks.empty()) {
        Var x = output.args()[0], y = output.args()[1];
        output.vectorize(x, 8, TailStrategy::GuardWithIf).parallel(y);
    }
}

void schedule_rt_cuda(const std::vector<Pass> &passes, const std::vector<Func> &feedbacks, Func output) {
    for (const Pass &p : passes) {
        Func f = p.func;
        if (f.name() != output.name()) f.compute_root();
        PassVars v = vars_of(p);
        Var block("block"), thread("thread");
        // One thread per column (or row), scanning serially: only W (or H) threads in flight,
        // which is why RT is the baseline the tiled algorithms are measured against.
        f.update()
            .split(v.across, block, thread, 64, TailStrategy::GuardWithIf)
            .reorder(v.along, thread, block, v.c)
            .gpu_blocks(block, v.c)
            .gpu_threads(thread);
    }
    Var block("block"), thread("thread"), bx("bx"), by("by"), tx("tx"), ty("ty");
    for (Func f : feedbacks) {
        const auto args = f.args();  // (s, across, c): one thread per line, its 2K feedbacks in turn
        f.compute_root()
            .split(args[1], block, thread, 64, TailStrategy::GuardWithIf)
            .reorder(args[0], thread, block, args[2])
            .gpu_blocks(block, args[2])
            .gpu_threads(thread);
    }
    if (!feedbacks.empty()) output.gpu_tile(output.args()[0], output.args()[1], bx, by, tx, ty, 32, 8);
}

}  // namespace cascade
