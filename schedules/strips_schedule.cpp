#include "strips_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// Columns per tile of the column passes, whose window (strip + 2·overlap rows) stays in the
// core's L2 cache.
const int kColumnTile = 256;
// Row vectors in lockstep along the rows: independent recurrences that hide the FMA latency.
const int kRowVectors = 8;

// Rows in flight along the row passes by blocks: independent recurrences that hide each block's
// wait on the block before.
const int kBlockRows = 8;

// Stepping one sample at a time: the rows restaged rows-innermost, so that the row passes run
// down 8-row vectors (the strip's vectors unrolled: independent recurrences in flight), then
// transposed back into the output. Halide 14 builds each restaged vector from 8 lane inserts,
// also through an 8 × 8 block staged in registers (`Func::in`): 12.0 ms at 4096² on 2 cores,
// order 1 float32 (with that block: 12.8).
void schedule_restaged_rows(IirStripsFuncs &f, int lanes) {
    const std::vector<Var> r = f.rows.args();  // x, y, c
    const Var x = r[0], y = r[1], c = r[2];
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), tile("tile"), group("group"), vector("vector");
    f.rows.reorder_storage(y, x, c)
        .split(x, tile, x, kColumnTile, TailStrategy::GuardWithIf)
        .split(x, xo, xi, lanes, TailStrategy::GuardWithIf)
        .split(y, yo, yi, lanes, TailStrategy::GuardWithIf)
        .reorder(yi, xi, yo, xo, tile)
        .vectorize(yi)
        .unroll(xi);
    f.columns.compute_at(f.rows, tile);
    // An exact boundary's margins: a copy of a column, down the strip's rows.
    for (size_t n = 0; n < f.margins.size(); n++)
        f.rows.update(int(n)).reorder(y, f.margins[n].x).vectorize(y, lanes, TailStrategy::GuardWithIf);
    for (size_t n = 0; n < f.row_scans.size(); n++)
        f.rows.update(int(f.margins.size() + n))
            .split(y, group, yi, kRowVectors * lanes, TailStrategy::GuardWithIf)
            .split(yi, vector, yi, lanes, TailStrategy::GuardWithIf)
            .reorder(yi, vector, f.row_scans[n].x, group)
            .vectorize(yi)
            .unroll(vector);
}

// By blocks: the rows as they lie, each step a vector along its row, kBlockRows rows in flight.
void schedule_row_blocks(IirStripsFuncs &f, int lanes) {
    const Var y = f.rows.args()[1];
    Var yi("yi"), group("group");
    RVar copy = f.copy.x, tile("copy_tile"), co("copy_o"), ci("copy_i");
    // Per tile of columns, the column passes, then their copy into the rows.
    f.rows.update(0)
        .split(copy, tile, copy, kColumnTile, TailStrategy::GuardWithIf)
        .split(copy, co, ci, lanes, TailStrategy::GuardWithIf)
        .reorder(ci, co, y, tile)
        .vectorize(ci);
    f.columns.compute_at(f.rows, tile);
    // A margin reads the row's own columns, never a margin's (a copy, reversed or shifted).
    for (size_t n = 0; n < f.margins.size(); n++)
        f.rows.update(int(n) + 1)
            .allow_race_conditions()
            .reorder(f.margins[n].x, y)
            .vectorize(f.margins[n].x, lanes, TailStrategy::GuardWithIf);
    // Each lane reads the block's inputs and the block before, and the vector loads them all
    // before it stores: no lane reads another's output.
    for (size_t n = 0; n < f.row_scans.size(); n++)
        f.rows.update(int(f.margins.size() + n) + 1)
            .allow_race_conditions()
            .split(y, group, yi, kBlockRows, TailStrategy::GuardWithIf)
            .reorder(f.row_scans[n].x, yi, f.row_scans[n].y, group)
            .vectorize(f.row_scans[n].x)
            .unroll(yi);
}

}  // namespace

// Per strip (the parallel loop): per tile of columns, the column passes vectorised across them;
// then the row passes (restaged, or by blocks) and the output.
void schedule_strips_cpu(IirStripsFuncs &f, int lanes, Func consumer) {
    Func last = consumer.defined() ? consumer : f.output;
    const std::vector<Var> a = last.args();  // x, y[, c]
    const Var x = a[0], y = a[1];
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yii("yii"), tile("tile"), strip("strip");
    last.split(y, yo, yi, f.strip, TailStrategy::GuardWithIf);
    std::vector<VarOrRVar> order;
    if (f.rows.defined() && f.row_block > 1) {
        // Rows by blocks lie as the output does: copied out a row at a time, two vectors a step
        // (2 cores, 256 planes of 256² float64 into another array: 17.7–18.3 ms against 19.5–20.2
        // four rows at once; 128² and 300 × 200 planes 6–10% less; 512² and wider within 2%).
        last.split(x, xo, xi, 2 * lanes, TailStrategy::GuardWithIf).vectorize(xi, lanes).unroll(xi);
        order = {xi, xo, yi};
    } else {
        // Restaged rows are transposed back a vector of rows at a time.
        last.split(x, xo, xi, lanes, TailStrategy::GuardWithIf)
            .split(yi, yi, yii, lanes, TailStrategy::GuardWithIf)
            .vectorize(xi)
            .unroll(yii);
        order = {xi, yii, xo, yi};
    }
    // Strips (fused with the channels) the parallel loop; the columns alone also loop over tiles
    // of columns inside a strip: per tile, the window's passes, then the strip's rows of it.
    if (!f.rows.defined()) {
        last.split(xo, tile, xo, kColumnTile / lanes, TailStrategy::GuardWithIf);
        order.push_back(tile);
    }
    order.push_back(yo);
    if (a.size() > 2) order.push_back(a[2]);
    last.reorder(order);
    if (a.size() > 2) {
        last.fuse(yo, a[2], strip);
    } else {
        last.rename(yo, strip);
    }
    last.parallel(strip);
    if (f.rows.defined()) {
        // The rows of each strip, by their own variables (the consumer's may be named otherwise).
        f.rows.compute_at(last, strip);
        if (f.row_block > 1) {
            schedule_row_blocks(f, lanes);
        } else {
            schedule_restaged_rows(f, lanes);
        }
    } else {
        f.columns.compute_at(last, tile);
    }

    // The folds and the level are a few values an image, read once a row, column or channel.
    for (Func fold : {f.row_fold, f.column_fold, f.level})
        if (fold.defined()) fold.compute_root();

    const Var cx = f.columns.args()[0];
    f.columns.vectorize(cx, lanes, TailStrategy::GuardWithIf);
    for (size_t n = 0; n < f.column_scans.size(); n++)
        f.columns.update(int(n))
            .reorder(cx, f.column_scans[n].x)
            .vectorize(cx, lanes, TailStrategy::GuardWithIf);
    // A lone real pole last in each dimension: its own code, a feedback less a step (2 cores: the
    // planes of a 256³ float64 volume, one real pole, 20.5 ms against 23.4 for a complex pair;
    // float32 2048², 4.6 against 4.8), for 2.5 CPU-minutes more generating the strips variants.
    if (f.first_order_ends.defined()) last.specialize(f.first_order_ends);
}

// float64 by blocks of 4: the planes of a 256³ volume, spline order 3 in place, 20.1 ms against
// 23.7 (2 cores, AVX2); float32's blocks of 8 lose (van Vliet σ 4 at 4096², 26.6 ms against 23.1).
int strips_row_block(Type type) { return type.bits() == 64 ? 256 / type.bits() : 1; }

}  // namespace cascade
