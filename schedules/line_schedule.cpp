#include "line_schedule.h"

#include "tile_staging.h"

namespace cascade {

using namespace Halide;

namespace {

std::vector<LineCompletion *> completions(IirLineFuncs &f) {
    std::vector<LineCompletion *> p{&f.prologue};
    if (f.algorithm == 3) p.push_back(&f.epilogue);
    return p;
}

}  // namespace

void schedule_iir_line_cpu(IirLineFuncs &f) {
    const int b = f.b, lanes = 8;
    // Signal blocks per task: 64 blocks of 64 samples, 16 KiB of samples.
    const int group = 64;
    // Eight neighbouring blocks scan in lockstep, one per lane: stored transposed (the block index
    // innermost), each scan step is one dense vector load and store. The pure definition's loads
    // (and the output's) transpose: gathers, once per sample each.
    // A task's blocks have a constant size (past the signal's end they hold zeros), so that no
    // lane needs a guard.
    auto schedule_blocks = [&](LineBlocks x) {
        const std::vector<Var> a = x.func.args();  // i, t, c
        x.func.bound_extent(a[0], x.rows).bound_extent(a[1], group).bound_extent(a[2], 1);
        x.func.reorder_storage(a[1], a[0], a[2]).reorder(a[1], a[0], a[2]).vectorize(a[1], lanes);
        for (const LineUpdate &u : x.updates)
            x.func.update(u.index).reorder(a[1], u.along).vectorize(a[1], lanes);
    };
    Var to("to"), ti("ti"), task("task");
    f.edges.compute_root()
        .reorder_storage(f.t, f.s, f.c)
        .split(f.t, to, ti, group, TailStrategy::GuardWithIf)
        .reorder(ti, f.s, to, f.c)
        .fuse(to, f.c, task)
        .parallel(task)
        .vectorize(ti, lanes);
    f.edge_blocks.func.compute_at(f.edges, task);
    schedule_blocks(f.edge_blocks);

    for (LineCompletion *p : completions(f)) {
        // Each level: lanes of neighbouring chunks scan in lockstep, 64 chunks per task.
        for (ChunkLevel &lv : p->levels) {
            const std::vector<Var> a = lv.local.args();  // n, j, c
            Var jo("jo"), ji("ji"), level_task("level_task");
            lv.local.compute_root()
                .reorder_storage(a[1], a[0], a[2])
                .split(a[1], jo, ji, group, TailStrategy::GuardWithIf)
                .reorder(ji, a[0], jo, a[2])
                .fuse(jo, a[2], level_task)
                .parallel(level_task)
                .vectorize(ji, lanes, TailStrategy::GuardWithIf);
            const std::vector<Var> w = lv.within.args();
            lv.within.compute_at(lv.local, level_task).reorder_storage(w[1], w[0], w[2]);
            lv.within.update()
                .reorder(w[1], lv.steps.x, lv.steps.y)
                .vectorize(w[1], lanes, TailStrategy::GuardWithIf);
        }
        p->top.compute_root();
        p->top.update().parallel(p->top.args()[1]);
        // Every level's complete states are stored: each is read K times per item below it. The
        // lanes are items at the same place v of neighbouring chunks: the table's rows are then
        // the same for all lanes and the chunks' scans are read densely; the stores scatter.
        for (size_t l = 0; l < p->levels.size(); l++) {
            Func complete = p->complete[l];
            const std::vector<Var> a = complete.args();  // s, k, c
            // (The channel is not fused with the tasks: through the two splits, Halide would
            // bound the channels' extent by the tasks', allocating gigabytes.)
            Var kj("kj"), kv("kv"), ko("ko"), ki("ki");
            complete.compute_root()
                .bound(a[0], 0, p->K)
                .reorder_storage(a[1], a[0], a[2])
                .split(a[1], kj, kv, p->C, TailStrategy::GuardWithIf)
                .split(kj, ko, ki, lanes * 8, TailStrategy::GuardWithIf)
                .reorder(ki, a[0], kv, ko, a[2])
                .parallel(ko)
                .vectorize(ki, lanes, TailStrategy::GuardWithIf);
        }
        if (p->levels.empty()) p->complete[0].compute_root();
    }

    Var no("no"), ni("ni");
    f.output.split(f.n, no, ni, group * b, TailStrategy::GuardWithIf)
        .fuse(no, f.c, task)
        .parallel(task)
        .vectorize(ni, lanes, TailStrategy::GuardWithIf);
    f.final_blocks.func.compute_at(f.output, task);
    schedule_blocks(f.final_blocks);
}

void schedule_iir_line_cuda(IirLineFuncs &f, int rows) {
    const int b = f.b;
    // A GPU block holds W = b·rows signal blocks in shared memory (rows of b + carries samples,
    // padded by one so that the threads' scans, a row apart, fall in different banks). The static
    // shared memory of a kernel is limited to 48 KiB.
    const int stored = f.final_blocks.rows + 1;
    while (rows > 1 && b * rows * stored * 4 > 48 * 1024) rows /= 2;
    const int W = b * rows;
    Var tx("tx"), ty("ty");
    // Staged by b × rows threads, each loading consecutive signal blocks' sample i (so a warp
    // loads 32 consecutive samples), into registers first (tile_staging.h); each scan then runs
    // one thread per signal block, its running values in registers (the scan unrolled).
    auto schedule_blocks = [&](LineBlocks x, Func at, Var level) {
        const std::vector<Var> a = x.func.args();  // i, t, c
        x.func.compute_at(at, level).bound_extent(a[0], x.rows).bound_extent(a[1], W).bound_extent(a[2], 1);
        stage_tile_through_registers(x.func, f.blocks, a[0], a[1], b, rows, x.rows, W);
        for (const LineUpdate &u : x.updates)
            x.func.update(u.index)
                .split(a[1], ty, tx, b)
                .reorder(u.along, tx, ty)
                .gpu_threads(tx, ty)
                .unroll(u.along);
    };

    // 1. One thread per signal block writes its carries.
    Var to("to"), tt("tt");
    f.edges.compute_root()
        .split(f.t, to, tt, W, TailStrategy::GuardWithIf)
        .split(tt, ty, tx, b)
        .reorder(f.s, tx, ty, to, f.c)
        .gpu_blocks(to, f.c)
        .gpu_threads(tx, ty)
        .unroll(f.s);
    schedule_blocks(f.edge_blocks, f.edges, to);

    // 2. Each level of the completion: one thread per chunk, its scan in registers. Unrolling the
    // chunk (C·K steps of K products) is what keeps them there; beyond K = 4 LLVM takes minutes in
    // the tiled filters (tiled_schedule.cpp), so larger states run from local memory.
    for (LineCompletion *p : completions(f)) {
        const bool unrolled = p->K <= 4;
        for (ChunkLevel &lv : p->levels) {
            const std::vector<Var> a = lv.local.args();  // n, j, c
            Var jo("jo"), ji("ji");
            lv.local.compute_root()
                .split(a[1], jo, ji, 64, TailStrategy::GuardWithIf)
                .reorder(a[0], ji, jo, a[2])
                .gpu_blocks(jo, a[2])
                .gpu_threads(ji);
            lv.within.compute_at(lv.local, ji);
            if (unrolled) {
                lv.local.unroll(a[0]);
                lv.within.update().unroll(lv.steps.x).unroll(lv.steps.y);
            }
        }
        // The top: one thread per channel, ⌈T / C^levels⌉ steps.
        p->top.compute_root();
        p->top.update().gpu_single_thread().unroll(p->top_steps.x);
        // Stored: each level's states are read K times per item of the level below. The
        // carries themselves (level 0) are completed where the last pass reads them (2K loads
        // and K² products per block, instead of a store and a load of each), except for the
        // prologue of algorithm 3, which the epilogue's completion reads too, and large states.
        for (size_t l = 0; l < p->complete.size() - 1; l++) {
            if (l == 0 && p->K <= 4 && !(f.algorithm == 3 && p == &f.prologue)) continue;
            Func complete = p->complete[l];
            const std::vector<Var> a = complete.args();  // s, k, c
            Var ko("ko"), ki("ki");
            complete.compute_root()
                .bound(a[0], 0, p->K)
                .reorder(a[0], a[1], a[2])
                .split(a[1], ko, ki, 64, TailStrategy::GuardWithIf)
                .gpu_blocks(ko, a[2])
                .gpu_threads(ki)
                .unroll(a[0]);
        }
    }

    // 3. The output: W signal blocks per GPU block, each thread writing a sample i of every
    // rows-th signal block (a warp writes 32 consecutive samples).
    Var no("no"), nr("nr"), nt("nt"), ni("ni"), nto("nto"), nti("nti");
    f.output.split(f.n, no, nr, W * b, TailStrategy::GuardWithIf)
        .split(nr, nt, ni, b)
        .split(nt, nto, nti, rows)
        .reorder(nto, ni, nti, no, f.c)
        .gpu_blocks(no, f.c)
        .gpu_threads(ni, nti)
        .unroll(nto);
    schedule_blocks(f.final_blocks, f.output, no);
}

}  // namespace cascade
