#include "twoway_tiled_schedule.h"

#include "contract/register_budget.h"
#include "tiled_schedule.h"
#include "twoway_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// A block's scans (i, σ, t, s, o, c) computed per thread, unrolled so that they stay in registers:
// of a constant size, which bounds inference does not see through the output's predicate.
void in_registers(Func scan, RDom r, Func at, Var level) {
    const std::vector<Var> a = scan.args();
    scan.compute_at(at, level).bound_extent(a[0], r.y.extent()).bound_extent(a[1], r.x.extent());
    for (size_t d = 2; d < a.size(); d++) scan.bound_extent(a[d], 1);
    scan.update().unroll(r.x).unroll(r.y);
}

}  // namespace

void schedule_two_way_block_matrices_cuda(TwoWayBlockMatrices m) {
    // One GPU block, once per call: the unit states' scans and the powers in shared memory (a
    // thread per state), then a thread per row of the table: 9 µs on an H100 (the powers as the
    // states after kChunk blocks, a 256-step scan: 26 µs; three kernels from global memory: 25).
    const std::vector<Var> a = m.table.args();  // column, row
    Var ro("ro"), ri("ri");
    m.table.compute_root()
        .bound(a[0], 0, m.K)
        .bound(a[1], 0, m.rows())
        .split(a[1], ro, ri, 128, TailStrategy::GuardWithIf)
        .reorder(a[0], ri, ro)
        .gpu_blocks(ro)
        .gpu_threads(ri);
    for (auto [f, r] : {std::pair{m.unit_in, m.unit_in_scan}, std::pair{m.unit_out, m.unit_out_scan},
                        std::pair{m.unit_out_tail, m.unit_out_tail_scan}}) {
        const std::vector<Var> u = f.args();  // i, σ, k
        f.compute_at(m.table, ro).bound(u[2], 0, m.K);
        f.update().reorder(r.x, r.y, u[2]).gpu_threads(u[2]);
    }
    const std::vector<Var> p = m.powers.args();  // r, k, v
    m.powers.compute_at(m.table, ro)
        .bound(p[0], 0, m.K)
        .bound(p[1], 0, m.K)
        .bound(p[2], 0, TiledLayout::kChunk);
    m.powers.reorder(p[0], p[2], p[1]).gpu_threads(p[1]);
    m.powers.update().reorder(m.power_steps.x, m.power_steps.y, p[1]).gpu_threads(p[1]);
}

void schedule_two_way_tiled_cuda(TwoWayTiledStep step, bool last) {
    // Lines per GPU block, each block of b samples of a line one thread's. 32 lines: 0.87 ms at
    // 8192² on an H100, the aligned K = 3 form (64: 0.89; 128: 0.90; K = 4 within 2% at all three).
    const int lines = 32, warp = 32;
    const std::vector<Var> e = step.edges.args();  // k, t, s, o, c
    Var k = e[0], t = e[1], s = e[2], o = e[3], c = e[4];
    Var oo("oo"), oi("oi"), sc("sc");
    schedule_two_way_centre_cuda(step.centre);

    // Each thread loads its block's samples into registers before it scans them, so that its
    // loads are in flight together.
    auto load_first = [&](Func scan, Func at, Var level) {
        Func loaded = step.samples.in(scan);
        const std::vector<Var> a = loaded.args();  // i, t, s, o, c
        loaded.compute_at(at, level).bound_extent(a[0], step.b).unroll(a[0]);
        for (size_t d = 1; d < a.size(); d++) loaded.bound_extent(a[d], 1);
    };

    // 1. A thread per line and block, its scans in registers; the carries stored with the lines
    // innermost (a warp's stores, and the carries' kernel's loads, one run of lines).
    step.edges.compute_root()
        .bound(k, 0, 2 * step.K)
        .reorder_storage(o, k, t, s, c)
        .reorder(k, o, t, s, c)
        .split(o, oo, oi, lines, TailStrategy::GuardWithIf)
        .fuse(s, c, sc)
        .gpu_blocks(oo, t, sc)
        .gpu_threads(oi)
        .unroll(k);
    in_registers(step.edge_in, step.edge_in_scan, step.edges, oi);
    in_registers(step.edge_out, step.edge_out_scan, step.edges, oi);
    load_first(step.edge_in, step.edges, oi);

    // 2. Each carry in the powers form, its chunks' scans and the scan over chunks in kernels of
    // their own, the carries completed where read: 1.203 ms at 8192² on an H100 (stored: 1.234;
    // in one kernel, rescanned, schedule_carries_in_one_kernel_cuda: 250 µs a step against 190).
    // The outward chunk scans, which form B̄ + Mc·A with A completed where read, spill under the
    // JIT's 64 registers, so they run uncapped: 43 µs for the columns (capped: 65; H100, 8192², K = 4).
    schedule_carry_cuda(step.inward, false);
    schedule_carry_cuda(step.outward, false, kUncappedRegisters);

    // 3. A thread per line and block scans in registers into a tile in shared memory (each line's
    // row padded to b + 1 samples, so the threads' stores a row apart fall in different banks);
    // the tile is then written transposed, a warp storing 32 consecutive samples of one line:
    // `folded` (the samples of a line innermost, so the next step's warps read 32 neighbouring
    // positions), or with `last` the output itself.
    Var ot("ot"), os("os"), lo("lo"), hi("hi");
    Func tile = step.final_out.in(step.folded);
    const std::vector<Var> ta = tile.args();  // i, σ, t, s, o, c
    if (!last) {
        const std::vector<Var> f = step.folded.args();  // i, t, s, o, c
        Var i = f[0];
        step.folded.compute_root()
            .bound(i, 0, step.b)
            .split(f[3], oo, oi, lines, TailStrategy::GuardWithIf)
            .split(oi, ot, os, warp, TailStrategy::GuardWithIf)
            .reorder(os, i, ot, oo, f[1], f[2], f[4])
            .fuse(f[2], f[4], sc)
            .gpu_blocks(oo, f[1], sc)
            .gpu_threads(i, ot);
        tile.compute_at(step.folded, oo);
    } else {
        const std::vector<Var> a = step.out.args();  // x, y, c
        Var line = step.dim == Dim::y ? a[0] : a[1];
        RDom w = step.written;  // i, t, s
        // (Halide cannot prove that the blocks write different samples: they do, sample j of a half
        // to m − 1 − j on the left, m + j on the right.)
        step.out.update(0)
            .allow_race_conditions()
            .split(line, oo, oi, lines, TailStrategy::GuardWithIf)
            .split(oi, ot, os, warp, TailStrategy::GuardWithIf)
            .reorder(os, w.x, ot, oo, w.y, w.z, a[2])
            .gpu_blocks(oo, w.y, w.z)
            .gpu_threads(w.x, ot);
        tile.compute_at(step.out, oo);
    }
    // (Bounded: the output's predicate would otherwise trim the last block, and the scans, sized
    // at run time, would leave the registers.)
    tile.bound(ta[0], 0, step.b)
        .align_storage(ta[0], step.b + 1)
        .split(ta[4], hi, lo, warp, TailStrategy::GuardWithIf)
        .reorder(ta[0], ta[1], lo, hi)
        .gpu_threads(lo, hi)
        .unroll(ta[0])
        .unroll(ta[1]);
    in_registers(step.final_in, step.final_in_scan, tile, lo);
    in_registers(step.final_out, step.final_out_scan, tile, lo);
    load_first(step.final_in, tile, lo);
}

}  // namespace cascade
