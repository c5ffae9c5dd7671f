#include "line_strips_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// A window in registers: all its indices constant once its scan is unrolled.
void window_in_registers(Func window, RDom scan, Func at, Var thread, Var i, int extent) {
    window.compute_at(at, thread).store_in(MemoryType::Register).bound_extent(i, extent).unroll(i);
    window.update().unroll(scan.x);
}

// One thread per segment (a row of S samples), 32 segments a warp; the rows padded to S + 1
// samples, so that a warp's threads, one row apart, read and write sample i in 32 different
// banks (S = 32).
Var segment_per_thread(Func rows, Var i, Var g, int S, Func at, Var level) {
    Var gx("gx"), gy("gy");
    rows.compute_at(at, level)
        .bound_extent(i, S)
        .align_storage(i, S + 1)
        .split(g, gy, gx, 32, TailStrategy::GuardWithIf)
        .reorder(i, gx, gy)
        .gpu_threads(gx, gy)
        .unroll(i);
    return gx;
}

// Under an extension, a kernel for each extension on signals that fold once, so that staging a
// sample costs a fold of its own kind (a run-time choice among all five: 249 GiP/s at 2^28 on an
// H100, where boundary none runs at 315), and one for shorter signals.
void specialise_extensions(LineStripsFuncs &f) {
    if (!f.folds_once.defined()) return;
    for (int extension = 1; extension <= 5; extension++)  // Boundary::zero … Boundary::mirror
        f.output.specialize(f.folds_once && f.extension == extension);
}

}  // namespace

void schedule_line_strips_cuda(LineStripsFuncs &f, int threads) {
    const int S = f.segment;
    // A block scans `threads` segments causally; anticausally, and to the output, all but the
    // last A/S of them, whose causal results only warm the anticausal scans up. Blocks overlap by
    // those segments (2.3% more causal scans at A = 96).
    const int L = (threads - f.after / S) * S;
    Var blk("blk"), ni("ni"), no("no"), nr("nr"), tx("tx"), ty("ty");
    // Thread (tx, ty) writes every threads-th sample of the block's L: a warp stores 32
    // consecutive samples.
    f.output.split(f.n, blk, ni, L, TailStrategy::GuardWithIf)
        .split(ni, no, nr, threads, TailStrategy::GuardWithIf)
        .split(nr, ty, tx, 32)
        .reorder(no, tx, ty, blk, f.c)
        .gpu_blocks(blk, f.c)
        .gpu_threads(tx, ty)
        .unroll(no);
    // The block's rows, the overlap's before them included, staged in shared memory with
    // coalesced loads, a warp a row; padded as the segments' results are.
    Var go("go"), gy("gy");
    f.rows.compute_at(f.output, blk)
        .align_storage(f.i, S + 1)
        .split(f.g, go, gy, threads / 32, TailStrategy::RoundUp)
        .reorder(f.i, gy, go)
        .gpu_threads(f.i, gy);
    specialise_extensions(f);
    const Func causal = f.causal.defined() ? f.causal : f.segments;
    Var gx = segment_per_thread(causal, f.i, f.g, S, f.output, blk);
    window_in_registers(f.forward, f.forward_scan, causal, gx, f.i, f.overlap + S);
    if (f.causal.defined()) {
        gx = segment_per_thread(f.segments, f.i, f.g, S, f.output, blk);
        window_in_registers(f.backward, f.backward_scan, f.segments, gx, f.i, S + f.after);
    }
}

void schedule_line_strips_cpu(LineStripsFuncs &f, int lanes) {
    const int S = f.segment;
    // A task: 64 segments (2K samples for S = 32).
    const int L = 64 * S;
    Var blk("blk"), ni("ni");
    f.output.split(f.n, blk, ni, L, TailStrategy::GuardWithIf)
        .reorder(ni, blk, f.c)
        .parallel(blk)
        .vectorize(ni, lanes, TailStrategy::GuardWithIf);
    specialise_extensions(f);
    // The task's rows stored transposed (the segment innermost): a window's sample across `lanes`
    // neighbouring segments is one dense vector.
    f.rows.compute_at(f.output, blk)
        .reorder_storage(f.g, f.i, f.c)
        .vectorize(f.g, lanes, TailStrategy::RoundUp);
    // `lanes` neighbouring segments scan in lockstep, their windows stored with the segment
    // innermost: each scan step is one vector.
    auto lockstep = [&](Func results, Func window, RDom scan, int extent) {
        Var go("go"), gv("gv");
        results.compute_at(f.output, blk)
            .bound_extent(f.i, S)
            .split(f.g, go, gv, lanes, TailStrategy::RoundUp)
            .reorder(gv, f.i, go)
            .vectorize(gv);
        window.compute_at(results, go)
            .bound_extent(f.i, extent)
            .reorder_storage(f.g, f.i, f.c)
            .reorder(f.g, f.i, f.c)
            .vectorize(f.g, lanes);
        window.update().reorder(f.g, scan.x).vectorize(f.g, lanes);
    };
    lockstep(f.causal.defined() ? f.causal : f.segments, f.forward, f.forward_scan, f.overlap + S);
    if (f.causal.defined()) lockstep(f.segments, f.backward, f.backward_scan, S + f.after);
}

}  // namespace cascade
