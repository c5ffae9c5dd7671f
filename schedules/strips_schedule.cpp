#include "strips_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

const int kLanes = 8;  // float32 lanes of AVX2
// Columns per tile of the column passes, whose window (strip + 2·overlap rows) stays in the
// core's L2 cache.
const int kColumnTile = 256;
const int kRowGroup = 8 * kLanes;

}  // namespace

// Per strip (the parallel loop): per tile of columns, the column passes vectorised across them;
// their result restaged rows-innermost through 8×8 register transposes, so that the row passes
// run down 8-row vectors (the strip's vectors unrolled: independent recurrences in flight); and
// transposed back into the output.
void schedule_strips_cpu(IirStripsFuncs &f) {
    const std::vector<Var> a = f.output.args();  // x, y, c
    const Var x = a[0], y = a[1], c = a[2];
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yii("yii"), tile("tile"), strip("strip");
    f.output.split(y, yo, yi, f.strip, TailStrategy::GuardWithIf)
        .split(x, xo, xi, kLanes, TailStrategy::GuardWithIf)
        .split(yi, yi, yii, kLanes, TailStrategy::GuardWithIf)
        .reorder(xi, yii, xo, yi, yo, c)
        .vectorize(xi)
        .unroll(yii)
        .fuse(yo, c, strip)
        .parallel(strip);

    f.rows.compute_at(f.output, strip)
        .reorder_storage(y, x, c)
        .split(x, tile, x, kColumnTile, TailStrategy::GuardWithIf)
        .split(x, xo, xi, kLanes, TailStrategy::GuardWithIf)
        .split(y, yo, yi, kLanes, TailStrategy::GuardWithIf)
        .reorder(yi, xi, yo, xo, tile)
        .vectorize(yi)
        .unroll(xi);
    // Eight vectors of rows in lockstep: independent recurrences that hide the FMA latency.
    Var group("group"), vector("vector");
    for (size_t n = 0; n < f.row_scans.size(); n++)
        f.rows.update(int(n))
            .split(y, group, yi, kRowGroup, TailStrategy::GuardWithIf)
            .split(yi, vector, yi, kLanes, TailStrategy::GuardWithIf)
            .reorder(yi, vector, f.row_scans[n].x, group)
            .vectorize(yi)
            .unroll(vector);

    const Var cx = f.columns.args()[0];
    f.columns.compute_at(f.rows, tile).vectorize(cx, kLanes, TailStrategy::GuardWithIf);
    for (size_t n = 0; n < f.column_scans.size(); n++)
        f.columns.update(int(n))
            .reorder(cx, f.column_scans[n].x)
            .vectorize(cx, kLanes, TailStrategy::GuardWithIf);
}

}  // namespace cascade
