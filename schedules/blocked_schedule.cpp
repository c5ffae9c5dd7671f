#include "blocked_schedule.h"

#include "tile_staging.h"
#include "tiled_schedule.h"

namespace cascade {

using namespace Halide;

void schedule_iir_blocked_cpu(IirBlockedFuncs &f) {
    schedule_edge_pass_cpu(f.first);
    for (CarryScan &p : f.carries) schedule_carry_cpu(p);
    Var tile("tile");
    for (BlockedPass &p : f.passes) {
        p.stored.compute_root()
            .bound(f.xi, 0, f.b)
            .bound(f.yi, 0, p.rows)
            .fuse(f.ty, f.c, tile)
            .parallel(tile)
            .vectorize(f.xi, kCpuLanes);
        for (TileScans t : {p.seeded, p.scratch}) {
            t.func.compute_at(p.stored, f.tx);
            schedule_tile_cpu(t);
        }
    }
    Var xo("xo"), yo("yo"), xi("xi_out"), yi("yi_out");
    f.output.tile(f.x, f.y, xo, yo, xi, yi, f.b, f.b, TailStrategy::GuardWithIf)
        .fuse(yo, f.c, tile)
        .parallel(tile)
        .vectorize(xi, kCpuLanes);
    f.final_tile.func.compute_at(f.output, xo);
    schedule_tile_cpu(f.final_tile);
}

void schedule_iir_blocked_cuda(IirBlockedFuncs &f, int rows) {
    const int b = f.b;
    schedule_edge_pass_cuda(f.first, f.samples, b, rows);
    // Completed where the next pass reads them up to K = 4, as for algorithm 4
    // (schedules/tiled_schedule.cpp says why).
    for (CarryScan &p : f.carries) schedule_carry_cuda(p, p.K > 4);
    Func source = f.samples;
    for (BlockedPass &p : f.passes) {
        Var yo("yo"), yr("yr");
        p.stored.compute_root()
            .bound(f.xi, 0, b)
            .bound(f.yi, 0, p.rows)
            .split(f.yi, yo, yr, rows, TailStrategy::GuardWithIf)
            .reorder(yo, f.xi, yr, f.tx, f.ty, f.c)
            .gpu_blocks(f.tx, f.ty, f.c)
            .gpu_threads(f.xi, yr)
            .unroll(yo);
        compute_one_tile_at(p.seeded.func, p.stored, f.tx, p.seeded.columns,
                            staged_rows(p.seeded.rows, rows));
        schedule_tile_cuda(p.seeded, source, b, rows);
        compute_one_tile_at(p.scratch.func, p.stored, f.tx, p.scratch.columns, p.scratch.rows);
        stage_tile(p.scratch.func, p.scratch.func.args()[0], p.scratch.func.args()[1], b, rows,
                   p.scratch.columns);
        schedule_scans_cuda(p.scratch);
        source = p.stored;
    }
    compute_one_tile_at(f.final_tile.func, f.output, tile_output_cuda(f.output, f.x, f.y, f.c, b, rows),
                        f.final_tile.columns, staged_rows(f.final_tile.rows, rows));
    schedule_tile_cuda(f.final_tile, source, b, rows);
}

}  // namespace cascade
