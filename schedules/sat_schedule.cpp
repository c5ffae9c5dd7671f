#include "sat_schedule.h"

#include "tile_staging.h"

namespace cascade {

using namespace Halide;

namespace {

// Small per-tile Funcs of the carries stage; those of the other algorithm are undefined.
std::vector<Func> small_funcs(const SatTiledFuncs &f) {
    std::vector<Func> all;
    for (Func g : {f.strip_totals, f.corner})
        if (g.defined()) all.push_back(g);
    return all;
}

// A small per-tile Func of stage 2 in a kernel of its own, a thread per tile; returns the
// thread's var.
Var thread_per_tile_cuda(Func g, const SatTiledFuncs &f) {
    Var fo("fo"), fi("fi");
    g.compute_root()
        .split(f.tx, fo, fi, 64, TailStrategy::GuardWithIf)
        .gpu_blocks(fo, f.ty, f.c)
        .gpu_threads(fi);
    return fi;
}

std::vector<TilePrefix *> prefixes(SatTiledFuncs &f) {
    std::vector<TilePrefix *> all = {&f.column_prefix};
    if (f.row_prefix_scan.result.defined()) all.push_back(&f.row_prefix_scan);
    return all;
}

std::vector<Func> tile_sum_funcs(const SatTiledFuncs &f) {
    std::vector<Func> all;
    for (Func g : {f.column_sums, f.row_sums, f.row_prefix})
        if (g.defined()) all.push_back(g);
    return all;
}

// The updates of `local` that seed one row or column: neither scan.
std::vector<int> edge_updates(const SatTiledFuncs &f) {
    std::vector<int> all;
    for (int u = 0; u < f.local.num_update_definitions(); u++)
        if (u != f.column_scan && u != f.row_scan) all.push_back(u);
    return all;
}

}  // namespace

void schedule_sat_tiled_cpu(SatTiledFuncs &f) {
    const int b = f.tile;
    Var tile("tile");
    // Stage 1: a tile at a time, its sums vectorized across the tile.
    f.block_sums.compute_root().reorder(f.i, f.k, f.tx, f.ty, f.c).fuse(f.ty, f.c, tile).parallel(tile);
    f.tile_in.compute_at(f.block_sums, f.tx).vectorize(f.xi, 8);
    for (Func g : tile_sum_funcs(f)) {
        g.compute_at(f.block_sums, f.tx).vectorize(f.i, 8);
        g.update().reorder(f.i, f.across.x).vectorize(f.i, 8);
    }

    // Stage 2: the carries, vectorized across carries.
    for (Func g : small_funcs(f)) {
        g.compute_root().parallel(g.args()[1]).vectorize(g.args()[0], 8, TailStrategy::GuardWithIf);
        for (int u = 0; u < g.num_update_definitions(); u++)
            g.update(u).parallel(g.args()[1]).vectorize(g.args()[0], 8, TailStrategy::GuardWithIf);
    }
    for (TilePrefix *p : prefixes(f)) {
        p->chunk_sums.compute_root().parallel(p->u).vectorize(p->j, 8, TailStrategy::GuardWithIf);
        p->result.compute_root().parallel(p->t).vectorize(p->j, 8, TailStrategy::GuardWithIf);
    }

    // Stage 3: a tile at a time, in a b×b buffer that stays in cache.
    Var xo("xo"), yo("yo"), xi("xi_out"), yi("yi_out");
    f.output.tile(f.x, f.y, xo, yo, xi, yi, b, b, TailStrategy::GuardWithIf)
        .fuse(yo, f.c, tile)
        .parallel(tile)
        .vectorize(xi, 8);
    f.local.compute_at(f.output, xo).vectorize(f.xi, 8);
    f.local.update(f.column_scan).reorder(f.xi, f.scan.x).vectorize(f.xi, 8);
    f.local.update(f.row_scan).reorder(f.yi, f.scan.x).vectorize(f.yi, 8);
}

void schedule_sat_tiled_cuda(SatTiledFuncs &f, int rows_per_pass, bool corner_in_block) {
    const int b = f.tile;

    // Stage 1: one block per tile; the tile staged in shared memory, its rows padded by one
    // sample so that the row sums read across banks. Unrolled loads keep 16 in flight per thread.
    f.block_sums.compute_root()
        .reorder(f.k, f.i, f.tx, f.ty, f.c)
        .gpu_blocks(f.tx, f.ty, f.c)
        .gpu_threads(f.i);
    f.tile_in.compute_at(f.block_sums, f.tx);
    stage_tile(f.tile_in, f.xi, f.yi, b, rows_per_pass);
    for (Func g : tile_sum_funcs(f)) {
        g.compute_at(f.block_sums, f.tx).gpu_threads(f.i);
        g.update().reorder(f.across.x, f.i).gpu_threads(f.i).unroll(f.across.x);
    }

    // Stage 2: the carries. Each thread runs one chunk of a prefix in registers.
    if (f.strip_totals.defined()) thread_per_tile_cuda(f.strip_totals, f);
    for (TilePrefix *p : prefixes(f)) {
        // One kernel per prefix: a block holds kLines lines and all their chunks, the chunks'
        // totals in shared memory, each thread's chunk in registers: 11.4 µs at 8192² on an H100,
        // 2r1w (totals and prefix in two kernels: 15.6); 16 lines × 8 threads 203 GiP/s (32 × 8: 202).
        constexpr int kLines = 16, kChunkThreads = 8;
        Var jo("jo"), ji("ji"), uo("uo"), co("co"), ci("ci"), so("so"), si("si");
        p->result.compute_root()
            .split(p->t, uo, p->v, TilePrefix::kChunk, TailStrategy::RoundUp)
            .split(p->j, jo, ji, kLines, TailStrategy::GuardWithIf)
            .split(uo, co, ci, kChunkThreads, TailStrategy::GuardWithIf)
            .reorder(p->v, co, ji, ci, jo, p->c)
            .gpu_blocks(jo, p->c)
            .gpu_threads(ji, ci)
            .unroll(p->v);
        p->chunk_sums.compute_at(p->result, jo)
            .split(p->u, so, si, kChunkThreads, TailStrategy::GuardWithIf)
            .reorder(so, p->j, si)
            .gpu_threads(p->j, si);
        p->chunk_prefix.compute_at(p->result, co);
        p->within.compute_at(p->result, co).unroll(p->v);
        p->within.update().unroll(p->steps.x);
    }

    // Stage 3: one block per tile: seed, scan in shared memory, write.
    const Var block = tile_output_cuda(f.output, f.x, f.y, f.c, b, rows_per_pass);
    compute_one_tile_at(f.local, f.output, block, b, b);
    if (f.corner.defined() && corner_in_block) {
        // 2R1W's corner summed by the tile's block in two levels: b threads each add every b-th
        // earlier tile column's carry, 8 threads 8 of those sums each, one thread the 8: 158 GiP/s
        // at 2048² on an H100 (a kernel of its own: 140). It delays the block's loads: 198 against
        // 200 at 8192².
        RVar eo("eo"), ei("ei"), lo("lo"), li("li");
        Var lane("lane"), lane8("lane8");
        Func by_lane =
            f.corner.update().split(f.earlier.x, eo, ei, b, TailStrategy::GuardWithIf).rfactor(ei, lane);
        Func by_eight = f.corner.update().split(ei, lo, li, 8).rfactor(li, lane8);
        f.corner.compute_at(f.output, block);
        for (auto [partial, v] : {std::pair{by_lane, lane}, std::pair{by_eight, lane8}}) {
            partial.compute_at(f.output, block).gpu_threads(v);
            partial.update().gpu_threads(v);
        }
    } else if (f.corner.defined()) {
        // A thread per tile, its loop over the tile columns to the left in registers.
        Func corners = f.corner.in(f.output);
        f.corner.compute_at(corners, thread_per_tile_cuda(corners, f));
    }
    stage_tile(f.local, f.xi, f.yi, b, rows_per_pass);
    // The first-row seed runs over xi, the first-column seeds over yi: one thread per sample.
    for (int u : edge_updates(f)) {
        const bool first_column = Internal::is_const_zero(f.local.update_args(u)[0]);
        f.local.update(u).gpu_threads(first_column ? f.yi : f.xi);
    }
    f.local.update(f.column_scan).reorder(f.scan.x, f.xi).gpu_threads(f.xi).unroll(f.scan.x);
    f.local.update(f.row_scan).reorder(f.scan.x, f.yi).gpu_threads(f.yi).unroll(f.scan.x);
}

}  // namespace cascade
