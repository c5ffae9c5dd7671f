#include "line_strips_schedule.h"

namespace cascade {

using namespace Halide;

void schedule_line_strips_cuda(LineStripsFuncs &f, int threads) {
    const int S = f.segment, L = threads * S, extent = f.overlap + S + f.after;
    const int warps = threads / 32;
    Var blk("blk"), ni("ni"), no("no"), nr("nr"), tx("tx"), ty("ty");
    // Thread (tx, ty) writes every threads-th sample of the block's L: a warp stores 32
    // consecutive samples.
    f.output.split(f.n, blk, ni, L, TailStrategy::GuardWithIf)
        .split(ni, no, nr, threads)
        .split(nr, ty, tx, 32)
        .reorder(no, tx, ty, blk, f.c)
        .gpu_blocks(blk, f.c)
        .gpu_threads(tx, ty)
        .unroll(no);
    // The block's rows (its overlap's on both sides included) and results in shared memory, a row
    // padded to S + 1 samples: a warp reads 32 consecutive segments' sample i, one a row apart, in
    // 32 different banks (S = 32), and writes or reads a row in one.
    Var go("go"), gx("gx"), gy("gy");
    f.rows.compute_at(f.output, blk)
        .align_storage(f.i, S + 1)
        .split(f.g, go, gy, warps, TailStrategy::RoundUp)
        .reorder(f.i, gy, go)
        .gpu_threads(f.i, gy);
    f.segments.compute_at(f.output, blk)
        .bound_extent(f.i, S)
        .align_storage(f.i, S + 1)
        .split(f.g, gy, gx, 32)
        .reorder(f.i, gx, gy)
        .gpu_threads(gx, gy)
        .unroll(f.i);
    // One thread per segment: the window in registers (all its indices constant), every scan
    // unrolled.
    f.window.compute_at(f.segments, gx).store_in(MemoryType::Register).bound_extent(f.i, extent).unroll(f.i);
    for (size_t u = 0; u < f.scans.size(); u++) f.window.update(int(u)).unroll(f.scans[u].x);
}

void schedule_line_strips_cpu(LineStripsFuncs &f, int lanes) {
    const int S = f.segment, extent = f.overlap + S + f.after;
    // A task: 64 segments (2K samples for S = 32).
    const int group = 64, L = group * S;
    Var blk("blk"), ni("ni"), go("go"), gv("gv");
    f.output.split(f.n, blk, ni, L, TailStrategy::GuardWithIf)
        .reorder(ni, blk, f.c)
        .parallel(blk)
        .vectorize(ni, lanes, TailStrategy::GuardWithIf);
    // The task's rows stored transposed (the segment innermost): a window's sample across `lanes`
    // neighbouring segments is one dense vector.
    f.rows.compute_at(f.output, blk)
        .reorder_storage(f.g, f.i, f.c)
        .vectorize(f.g, lanes, TailStrategy::RoundUp);
    f.segments.compute_at(f.output, blk)
        .bound_extent(f.i, S)
        .split(f.g, go, gv, lanes, TailStrategy::RoundUp)
        .reorder(gv, f.i, go)
        .vectorize(gv);
    // Stored with the segment innermost: each scan step is one vector across `lanes` segments.
    f.window.compute_at(f.segments, go)
        .bound_extent(f.i, extent)
        .reorder_storage(f.g, f.i, f.c)
        .reorder(f.g, f.i, f.c)
        .vectorize(f.g, lanes);
    for (size_t u = 0; u < f.scans.size(); u++)
        f.window.update(int(u)).reorder(f.g, f.scans[u].x).vectorize(f.g, lanes);
}

}  // namespace cascade
