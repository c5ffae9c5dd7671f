#include "correlate_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// The sums of a block of outputs along x at `level` of the output, one vector register each: the
// taps loop outside the block's vectors, unrolled across them, so that a tap is loaded once for
// all of them and the sums never leave their registers.
void sum_in_registers(Correlation &f, LoopLevel level, int lanes) {
    Var sx("sx"), sv("sv");
    f.sum.compute_at(level).split(f.x, sx, sv, lanes, TailStrategy::GuardWithIf).vectorize(sv).unroll(sx);
    f.sum.update()
        .split(f.x, sx, sv, lanes, TailStrategy::GuardWithIf)
        .reorder(sv, sx, f.y, f.c, f.taps.x)
        .vectorize(sv)
        .unroll(sx);
}

}  // namespace

void schedule_correlate_cpu(Correlation &f, int lanes) {
    // 8 vectors a block: 8 independent FMA chains, enough to cover the FMA latency at 2 FMAs a
    // cycle; per tap the loop is then a broadcast and 8 FMAs that read their operands from L1.
    const int block = 8 * lanes;
    Var xt("xt"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), t("t");
    if (f.axis == Dim::y) {
        // Tiles of 24 vectors × 64 rows, a task each, their extension (64 + T − 1 rows) copied
        // first, so that the taps loop reads dense rows, no folds nor selects (float32, 33 taps,
        // 4096², wall time on the loaded build machine: 43 ms through the folds, 29 copied). A
        // block walks down its columns, the last T rows it read still in L1 (129 taps: 81 → 54 ms
        // of CPU time). 24 vectors, not 32: rows 768 bytes apart spread over the L1's sets
        // (float64, 129 taps: 184 → 115 ms of CPU time).
        f.output.tile(f.x, f.y, xt, yo, xo, yi, 24 * lanes, 64, TailStrategy::GuardWithIf)
            .split(xo, xo, xi, block, TailStrategy::GuardWithIf)
            .reorder(xi, yi, xo, xt, yo, f.c)
            .fuse(xt, yo, t)
            .fuse(t, f.c, t)
            .parallel(t)
            .vectorize(xi, lanes);
        // Guarded: a tile's columns past the image's are not the input's to read.
        f.extended.compute_at(f.output, t).vectorize(f.x, lanes, TailStrategy::GuardWithIf);
        sum_in_registers(f, LoopLevel(f.output, yi), lanes);
    } else {
        // Strips of 8 rows a task; each row's extension copied once, through the folds only near
        // its ends and a dense copy elsewhere (a gather through the folds throughout: 30.5 ms
        // against 24, float32, 33 taps, 4096², wall time, loaded), then read T times densely.
        f.output.split(f.y, yo, yi, 8, TailStrategy::GuardWithIf)
            .split(f.x, xo, xi, block, TailStrategy::GuardWithIf)
            .reorder(xi, xo, yi, yo, f.c)
            .fuse(yo, f.c, t)
            .parallel(t)
            .vectorize(xi, lanes);
        f.extended.compute_at(f.output, yi).vectorize(f.x, lanes);
        sum_in_registers(f, LoopLevel(f.output, xo), lanes);
    }
    f.source.compute_root();
}

void schedule_correlate_cuda(Correlation &f) {
    // The block's extension staged in shared memory ran 2 to 2.8 times faster at 33 taps (H200,
    // 4096² float32: columns 27 → 52 GiP/s, rows 26 → 72), but its size grows with the run-time
    // tap count past the 48 KB of a launch; the input is read through L1 instead.
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), pb("pb"), pt("pt");
    f.output.tile(f.x, f.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
        .gpu_blocks(xo, yo, f.c)
        .gpu_threads(xi, yi);
    f.sum.compute_at(f.output, xi);
    f.source.compute_root().gpu_tile(f.p, pb, pt, 64, TailStrategy::GuardWithIf);
}

}  // namespace cascade
