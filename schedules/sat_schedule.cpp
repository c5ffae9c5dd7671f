#include "sat_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// The carry Funcs; those of the other algorithm are undefined and skipped.
std::vector<Func> carry_funcs(const SatTiledFuncs &f) {
    std::vector<Func> all;
    for (Func g : {f.tile_totals, f.chunk_sums, f.carries, f.strip_totals, f.row_chunk_sums, f.row_carries, f.corner})
        if (g.defined()) all.push_back(g);
    return all;
}

std::vector<Func> tile_sum_funcs(const SatTiledFuncs &f) {
    std::vector<Func> all;
    for (Func g : {f.column_sums, f.row_sums, f.row_prefix})
        if (g.defined()) all.push_back(g);
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
    for (Func g : carry_funcs(f)) {
        Var first = g.args()[0], second = g.args()[1];
        g.compute_root().parallel(second).vectorize(first, 8, TailStrategy::GuardWithIf);
    }

    // Stage 3: a tile at a time, in a b×b buffer that stays in cache.
    Var xo("xo"), yo("yo"), xi("xi_out"), yi("yi_out");
    f.output.tile(f.x, f.y, xo, yo, xi, yi, b, b, TailStrategy::GuardWithIf)
        .fuse(yo, f.c, tile)
        .parallel(tile)
        .vectorize(xi, 8);
    f.local.compute_at(f.output, xo).vectorize(f.xi, 8);
    const int updates = f.local.num_update_definitions();
    f.local.update(0).reorder(f.xi, f.scan.x).vectorize(f.xi, 8);
    if (updates == 3) f.local.update(1).vectorize(f.yi, 8);  // overlapped: the row carries
    f.local.update(updates - 1).reorder(f.yi, f.scan.x).vectorize(f.yi, 8);
}

void schedule_sat_tiled_cuda(SatTiledFuncs &f) {
    const int b = f.tile;
    const int rows_per_pass = 4;  // a tile moves to or from memory b × rows_per_pass samples at a time
    Var yo("yo"), yr("yr");

    // Stage 1: one block per tile; the tile staged in shared memory, its rows padded by one
    // sample so that the row sums read across banks.
    f.block_sums.compute_root().reorder(f.k, f.i, f.tx, f.ty, f.c).gpu_blocks(f.tx, f.ty, f.c).gpu_threads(f.i);
    f.tile_in.compute_at(f.block_sums, f.tx)
        .bound_storage(f.xi, b + 1)
        .split(f.yi, yo, yr, rows_per_pass)
        .reorder(f.xi, yr, yo)
        .gpu_threads(f.xi, yr);
    for (Func g : tile_sum_funcs(f)) {
        g.compute_at(f.block_sums, f.tx).gpu_threads(f.i);
        g.update().reorder(f.across.x, f.i).gpu_threads(f.i);
    }

    // Stage 2: one thread per carry.
    for (Func g : carry_funcs(f)) {
        Var first = g.args()[0], second = g.args()[1], fo("fo"), fi("fi"), so("so"), si("si");
        g.compute_root()
            .split(first, fo, fi, 64, TailStrategy::GuardWithIf)
            .split(second, so, si, 4, TailStrategy::GuardWithIf)
            .reorder(fi, si, fo, so)
            .gpu_blocks(fo, so, g.args()[2])
            .gpu_threads(fi, si);
    }

    // Stage 3: one block per tile: seed, scan in shared memory, write.
    Var xo("xo"), yt("yt"), xi("xi_out"), yi("yi_out"), yio("yio"), yii("yii");
    f.output.tile(f.x, f.y, xo, yt, xi, yi, b, b, TailStrategy::GuardWithIf)
        .split(yi, yio, yii, rows_per_pass)
        .reorder(xi, yii, yio, xo, yt, f.c)
        .gpu_blocks(xo, yt, f.c)
        .gpu_threads(xi, yii);
    f.local.compute_at(f.output, xo)
        .bound_storage(f.xi, b + 1)
        .split(f.yi, yo, yr, rows_per_pass)
        .reorder(f.xi, yr, yo)
        .gpu_threads(f.xi, yr);
    const int updates = f.local.num_update_definitions();
    f.local.update(0).reorder(f.scan.x, f.xi).gpu_threads(f.xi);
    if (updates == 3) f.local.update(1).gpu_threads(f.yi);  // overlapped: the row carries
    f.local.update(updates - 1).reorder(f.scan.x, f.yi).gpu_threads(f.yi);
}

}  // namespace cascade
