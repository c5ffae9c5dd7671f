#include "strips_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// Columns per tile of the column passes, whose window (strip + 2·overlap rows) stays in the
// core's L2 cache.
const int kColumnTile = 256;
// Row vectors in lockstep along the rows: independent recurrences that hide the FMA latency.
const int kRowVectors = 8;

// The rows of each strip, computed at `last`'s strip loop, by their own variables (the
// consumer's may be named otherwise): their result restaged rows-innermost, so that the row passes
// run down 8-row vectors.
void schedule_rows(IirStripsFuncs &f, Func last, Var strip, int lanes) {
    const std::vector<Var> r = f.rows.args();  // x, y, c
    const Var x = r[0], y = r[1], c = r[2];
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), tile("tile");
    f.rows.compute_at(last, strip)
        .reorder_storage(y, x, c)
        .split(x, tile, x, kColumnTile, TailStrategy::GuardWithIf)
        .split(x, xo, xi, lanes, TailStrategy::GuardWithIf)
        .split(y, yo, yi, lanes, TailStrategy::GuardWithIf)
        .reorder(yi, xi, yo, xo, tile)
        .vectorize(yi)
        .unroll(xi);
    // An exact boundary's margins: a copy of a folded column, down the strip's rows.
    for (int n = 0; n < f.margin_updates; n++)
        f.rows.update(n).reorder(y, f.margin.x).vectorize(y, lanes, TailStrategy::GuardWithIf);
    Var group("group"), vector("vector");
    for (size_t n = 0; n < f.row_scans.size(); n++)
        f.rows.update(f.margin_updates + int(n))
            .split(y, group, yi, kRowVectors * lanes, TailStrategy::GuardWithIf)
            .split(yi, vector, yi, lanes, TailStrategy::GuardWithIf)
            .reorder(yi, vector, f.row_scans[n].x, group)
            .vectorize(yi)
            .unroll(vector);
}

}  // namespace

// Per strip (the parallel loop): per tile of columns, the column passes vectorised across them;
// their result restaged rows-innermost, so that the row passes run down 8-row vectors (the
// strip's vectors unrolled: independent recurrences in flight); and transposed back into the
// output. Halide 14 builds each restaged vector from 8 lane inserts, also through an 8 × 8 block
// staged in registers (`Func::in`): 12.0 ms at 4096² on 2 cores, order 1 (with that block: 12.8).
void schedule_strips_cpu(IirStripsFuncs &f, int lanes, Func consumer) {
    Func last = consumer.defined() ? consumer : f.output;
    const std::vector<Var> a = last.args();  // x, y[, c]
    const Var x = a[0], y = a[1];
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yii("yii"), tile("tile"), strip("strip");
    last.split(y, yo, yi, f.strip, TailStrategy::GuardWithIf)
        .split(x, xo, xi, lanes, TailStrategy::GuardWithIf)
        .split(yi, yi, yii, lanes, TailStrategy::GuardWithIf)
        .vectorize(xi)
        .unroll(yii);
    // Strips (fused with the channels) the parallel loop; the columns alone also loop over tiles
    // of columns inside a strip: per tile, the window's passes, then the strip's rows of it.
    std::vector<VarOrRVar> order = {xi, yii, xo, yi};
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
    if (f.rows.defined()) schedule_rows(f, last, strip, lanes);

    // The folds and the level are a few values an image, read once a row, column or channel.
    for (Func fold : {f.row_fold, f.column_fold, f.level})
        if (fold.defined()) fold.compute_root();

    const Var cx = f.columns.args()[0];
    f.columns.compute_at(f.rows.defined() ? f.rows : last, tile)
        .vectorize(cx, lanes, TailStrategy::GuardWithIf);
    for (size_t n = 0; n < f.column_scans.size(); n++)
        f.columns.update(int(n))
            .reorder(cx, f.column_scans[n].x)
            .vectorize(cx, lanes, TailStrategy::GuardWithIf);
}

}  // namespace cascade
