#include "rt_schedule.h"

#include "boundary_schedule.h"

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

void schedule_rt_cpu(const std::vector<Pass> &passes, const std::vector<Func> &feedbacks,
                     const std::vector<CorrectedLines> &corrections, Func output, int lanes, int grain) {
    for (const Pass &p : passes) {
        Func f = p.func;
        if (f.name() != output.name()) f.compute_root();
        PassVars v = vars_of(p);
        Var o("o"), i("i"), t("t"), il("il");
        // `lanes` neighbouring scans run in lockstep. Down the columns the lanes are contiguous;
        // along the rows they are rows apart (gathers), which RT accepts as its cost.
        f.update()
            .split(v.across, o, i, lanes * grain, TailStrategy::GuardWithIf)
            .reorder(i, v.along, o, v.c)
            .fuse(o, v.c, t)
            .parallel(t);
        if (grain > 1) {
            f.update().split(i, i, il, lanes).reorder(il, v.along, i).vectorize(il);
        } else {
            f.update().vectorize(i);
        }
    }
    for (Func f : feedbacks) schedule_feedbacks_cpu(f);
    for (const CorrectedLines &lines : corrections) {
        Func f = lines.func;
        const auto a = f.args();  // x, y, c
        if (f.name() != output.name()) f.compute_root();
        f.vectorize(a[0], lanes, TailStrategy::GuardWithIf).parallel(a[1]);
        // Down the columns, lanes of neighbouring columns; along the rows, one row per task.
        for (int u = 0; u < 2; u++) {
            if (lines.dim == Dim::y) {
                f.update(u).vectorize(a[0], lanes, TailStrategy::GuardWithIf).parallel(a[2]);
            } else {
                f.update(u).parallel(a[1]);
            }
        }
    }
}

void schedule_rt_cuda(const std::vector<Pass> &passes, const std::vector<Func> &feedbacks,
                      const std::vector<CorrectedLines> &corrections, Func output, int block_size) {
    for (const Pass &p : passes) {
        Func f = p.func;
        if (f.name() != output.name()) {
            f.compute_root();
        } else {
            // Its pure definition writes nothing (undef), but left on the host it makes Halide require
            // the output's host pointer, refusing a caller's device-only buffer (cuda::wrap, a
            // realisation's intermediate).
            const auto a = f.args();  // x, y, c
            Var bx("bx"), by("by"), tx("tx"), ty("ty");
            f.gpu_tile(a[0], a[1], bx, by, tx, ty, 32, 8, TailStrategy::GuardWithIf);
        }
        PassVars v = vars_of(p);
        Var block("block"), thread("thread");
        // One thread per column (or row), scanning serially: only W (or H) threads in flight,
        // which is why RT is the baseline the tiled algorithms are measured against.
        f.update()
            .split(v.across, block, thread, block_size, TailStrategy::GuardWithIf)
            .reorder(v.along, thread, block, v.c)
            .gpu_blocks(block, v.c)
            .gpu_threads(thread);
    }
    for (Func f : feedbacks) schedule_feedbacks_cuda(f);
    for (const CorrectedLines &lines : corrections) {
        Func f = lines.func;
        const auto a = f.args();  // x, y, c
        Var bx("bx"), by("by"), tx("tx"), ty("ty"), block("block"), thread("thread");
        if (f.name() != output.name()) f.compute_root();
        f.gpu_tile(a[0], a[1], bx, by, tx, ty, 32, 8, TailStrategy::GuardWithIf);
        // One thread per line adds the correction to its first and last samples.
        const Var across = lines.dim == Dim::y ? a[0] : a[1];
        for (int u = 0; u < 2; u++)
            f.update(u)
                .split(across, block, thread, 64, TailStrategy::GuardWithIf)
                .gpu_blocks(block, a[2])
                .gpu_threads(thread);
    }
}

}  // namespace cascade
