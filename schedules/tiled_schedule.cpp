#include "tiled_schedule.h"

#include "tile_staging.h"

namespace cascade {

using namespace Halide;

namespace {

std::vector<CarryScan> carry_scans(const IirTiledFuncs &f) {
    return {f.column_prologue, f.column_epilogue, f.row_prologue, f.row_epilogue};
}

}  // namespace

void schedule_iir_tiled_cpu(IirTiledFuncs &f) {
    const int b = f.b, lanes = 8;
    Var tile("tile"), io("io"), ii("ii");
    auto schedule_tile = [&](TileScans t) {
        t.func.vectorize(t.func.args()[0], lanes, TailStrategy::GuardWithIf);
        // Lanes of neighbouring columns (rows) scan in lockstep.
        for (const TileUpdate &u : t.updates)
            t.func.update(u.index)
                .reorder(u.across, u.along)
                .vectorize(u.across, lanes, TailStrategy::GuardWithIf);
    };
    for (EdgePass &pass : f.edge_passes) {
        pass.edges.compute_root().reorder(f.i, f.s, f.tx, f.ty, f.c).fuse(f.ty, f.c, tile).parallel(tile);
        pass.tile.func.compute_at(pass.edges, f.tx);
        schedule_tile(pass.tile);
    }
    for (CarryScan p : carry_scans(f)) {
        const std::vector<Var> args = p.flat.args();  // i, n, c
        p.flat.compute_root();
        p.flat.update()
            .split(args[0], io, ii, lanes, TailStrategy::GuardWithIf)
            .reorder(ii, p.steps.x, p.steps.y, io, args[2])
            .vectorize(ii)
            .unroll(p.steps.x)
            .parallel(io);
    }
    if (f.algorithm == 6)
        f.column_effect.compute_root()
            .bound(f.u, 0, f.column_states)
            .bound(f.v, 0, f.row_states)
            .parallel(f.ty)
            .unroll(f.u)
            .unroll(f.v);

    Var xo("xo"), yo("yo"), xi("xi_out"), yi("yi_out");
    f.output.tile(f.x, f.y, xo, yo, xi, yi, b, b, TailStrategy::GuardWithIf)
        .fuse(yo, f.c, tile)
        .parallel(tile)
        .vectorize(xi, lanes);
    f.final_tile.func.compute_at(f.output, xo);
    schedule_tile(f.final_tile);
}

void schedule_iir_tiled_cuda(IirTiledFuncs &f, int rows) {
    const int b = f.b;
    // A tile in shared memory; each scan one thread per column (row), the scan unrolled so the
    // running values stay in registers and the seeds' selects fold away.
    auto schedule_tile = [&](TileScans t) {
        stage_tile(t.func, t.func.args()[0], t.func.args()[1], b, rows, t.columns);
        for (const TileUpdate &u : t.updates)
            t.func.update(u.index).reorder(u.along, u.across).gpu_threads(u.across).unroll(u.along);
    };
    for (EdgePass &pass : f.edge_passes) {
        pass.edges.compute_root()
            .reorder(f.s, f.i, f.tx, f.ty, f.c)
            .gpu_blocks(f.tx, f.ty, f.c)
            .gpu_threads(f.i)
            .unroll(f.s);
        pass.tile.func.compute_at(pass.edges, f.tx);
        schedule_tile(pass.tile);
    }
    // One thread per column (row) runs the recurrence over tiles; its state in registers.
    for (CarryScan p : carry_scans(f)) {
        const std::vector<Var> args = p.flat.args();  // i, n, c
        Var io("io"), ii("ii");
        p.flat.compute_root();
        p.flat.update()
            .split(args[0], io, ii, 64, TailStrategy::GuardWithIf)
            .reorder(p.steps.x, p.steps.y, ii, io, args[2])
            .gpu_blocks(io, args[2])
            .gpu_threads(ii)
            .unroll(p.steps.x);
    }
    if (f.algorithm == 6) {
        Var to("to"), ti("ti");
        f.column_effect.compute_root()
            .bound(f.u, 0, f.column_states)
            .bound(f.v, 0, f.row_states)
            .split(f.tx, to, ti, 32, TailStrategy::GuardWithIf)
            .reorder(f.u, f.v, ti, to, f.ty, f.c)
            .gpu_blocks(to, f.ty, f.c)
            .gpu_threads(ti)
            .unroll(f.u)
            .unroll(f.v);
    }

    Var xo("xo"), yt("yt"), xi("xi_out"), yi("yi_out"), yio("yio"), yii("yii");
    f.output.tile(f.x, f.y, xo, yt, xi, yi, b, b, TailStrategy::GuardWithIf)
        .split(yi, yio, yii, rows)
        .reorder(yio, xi, yii, xo, yt, f.c)
        .gpu_blocks(xo, yt, f.c)
        .gpu_threads(xi, yii)
        .unroll(yio);
    f.final_tile.func.compute_at(f.output, xo)
        .bound_extent(f.final_tile.func.args()[0], b)
        .bound_extent(f.final_tile.func.args()[1], b)
        .bound_extent(f.final_tile.func.args()[2], 1)
        .bound_extent(f.final_tile.func.args()[3], 1);
    schedule_tile(f.final_tile);
}

}  // namespace cascade
