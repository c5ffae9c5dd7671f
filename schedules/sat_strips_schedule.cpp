#include "sat_strips_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// Columns a thread's share of `above` holds: the strips' sums are a small image (a row per strip).
const int kAboveColumns = 512;
// Rows whose chunk chains run interleaved: independent recurrences that hide the chain's latency.
const int kInterleavedRows = 8;

}  // namespace

// The strips are the parallel loop. Each computes its running column sums (a strip of 256 rows
// at 4096 columns is 4 MB, in the last-level cache), then its rows chunk by chunk: each chunk
// of kInterleavedRows rows in turn, one vector a row: 5.9 ms at 4096² on 2 cores (64-row strips: 6.9).
void schedule_sat_strips_cpu(SatStripsFuncs &f) {
    const Var x = f.x, y = f.y, s = f.s, c = f.c;
    const int lanes = SatStripsFuncs::kChunk;
    Var strip("strip"), xo("xo");
    f.totals.compute_root().fuse(s, c, strip).parallel(strip).vectorize(x, lanes, TailStrategy::GuardWithIf);
    f.totals.update()
        .reorder(x, f.strip_rows.x, s, c)
        .fuse(s, c, strip)
        .parallel(strip)
        .vectorize(x, lanes, TailStrategy::GuardWithIf);
    f.above.compute_root().vectorize(x, lanes, TailStrategy::GuardWithIf);
    f.above.update()
        .split(x, xo, x, kAboveColumns, TailStrategy::GuardWithIf)
        .reorder(x, f.strips.x, xo, c)
        .fuse(xo, c, strip)
        .parallel(strip)
        .vectorize(x, lanes, TailStrategy::GuardWithIf);

    Var yo("yo"), yi("yi"), group("group"), row("row");
    f.output.update(0)
        .allow_race_conditions()  // the lanes of a chunk write distinct columns
        .split(y, yo, yi, f.strip, TailStrategy::GuardWithIf)
        .split(yi, group, row, kInterleavedRows, TailStrategy::GuardWithIf)
        .reorder(f.chunks.x, row, f.chunks.y, group, yo, c)
        .fuse(yo, c, strip)
        .parallel(strip)
        .vectorize(f.chunks.x)
        .unroll(row);
    // Images narrower than a chunk: the recurrence sample by sample, serial as defined.
    f.output.update(1).unscheduled();
    f.columns.compute_at(f.output, strip).bound_extent(s, 1);
    f.columns.update(0).vectorize(x, lanes, TailStrategy::GuardWithIf);
    f.columns.update(1).reorder(x, f.later_rows.x).vectorize(x, lanes, TailStrategy::GuardWithIf);
}

}  // namespace cascade
