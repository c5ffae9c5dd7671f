#include "sat_strips.h"

namespace cascade {

using namespace Halide;

SatStripsFuncs define_sat_strips(Func input, Expr width, Expr height, Func output, Type accumulator,
                                 Expr strip) {
    SatStripsFuncs f;
    f.strip = strip;
    Var x("x"), y("y"), s("s"), c("c");
    f.x = x, f.y = y, f.s = s, f.c = c;
    const Expr zero = cast(accumulator, 0);
    const Expr strip_count = (height + strip - 1) / strip;
    // Rows past the last are zero: the last strip may be partial.
    Func samples("samples");
    samples(x, y, c) = select(y < height, cast(accumulator, input(x, min(y, height - 1), c)), zero);

    f.strip_rows = RDom(0, strip, "strip_row");
    f.totals = Func("strip_totals");
    f.totals(x, s, c) = zero;
    f.totals(x, s, c) += samples(x, s * strip + f.strip_rows, c);

    f.strips = RDom(1, strip_count - 1, "strip");
    f.above = Func("strips_above");
    f.above(x, s, c) = zero;
    f.above(x, f.strips, c) = f.above(x, f.strips - 1, c) + f.totals(x, f.strips - 1, c);

    // Held at the image's rows: the table's rows read them at the rows themselves.
    f.columns = Func("strip_columns");
    f.columns(x, y, s, c) = undef(accumulator);
    f.columns(x, s * strip, s, c) = f.above(x, s, c) + samples(x, s * strip, c);
    f.later_rows = RDom(1, strip - 1, "later_row");
    const Expr y_row = s * strip + f.later_rows;
    f.columns(x, y_row, s, c) = f.columns(x, y_row - 1, s, c) + samples(x, y_row, c);
    auto column_sum = [&](Expr column) { return f.columns(column, y, y / strip, c); };

    const int n = SatStripsFuncs::kChunk;
    f.output = output;
    output(x, y, c) = undef(accumulator);
    // Whole chunks, the last shifted inwards: its lanes left of the previous chunk's end are
    // written again, with the same sums.
    f.chunks = RDom(0, n, 0, select(width >= n, (width + n - 1) / n, 0), "chunk");
    const Expr first = min(f.chunks.y * n, width - n);
    // Columns the chunks reach: [0, width) when they run at all (bounds inference would
    // otherwise size them for a narrow image, whose chunks never run, from the formula).
    auto column = [&](Expr x) { return unsafe_promise_clamped(x, 0, width - 1); };
    Expr chunk_prefix = column_sum(column(first + f.chunks.x));
    for (int k = 1; k < n; k++)
        chunk_prefix += select(f.chunks.x >= k, column_sum(column(max(first + f.chunks.x - k, 0))), zero);
    output(column(first + f.chunks.x), y, c) =
        chunk_prefix + select(first > 0, output(column(first - 1), y, c), zero);

    f.narrow = RDom(0, select(width < n, width, 0), 0, height, "narrow");
    const RVar nx = f.narrow.x, ny = f.narrow.y;
    auto earlier = [&](Expr exists, Expr column, Expr row) {
        return select(exists, output(max(column, 0), max(row, 0), c), zero);
    };
    output(nx, ny, c) = cast(accumulator, input(nx, ny, c)) + earlier(nx > 0, nx - 1, ny) +
                        earlier(ny > 0, nx, ny - 1) - earlier(nx > 0 && ny > 0, nx - 1, ny - 1);
    return f;
}

}  // namespace cascade
