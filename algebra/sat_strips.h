#pragma once
// The CPU's summed-area table by strips of rows: two reads of the image and one write, every
// stage vectorised, the rows' running sums kept in 8-sample chunks.
//   1. `totals`: each strip's column sums (the first read);
//   2. `above`: the sums of every strip above, per column (an exclusive prefix over strips);
//   3. per strip, `columns`: the running column sums down it from `above` (the second read), and
//      the table's rows along them, a chunk of 8 columns at a time: each chunk's inclusive
//      prefix from 8 shifted loads, plus the table's last entry before the chunk. The chunks run
//      left to right; the last one shifts inwards so that every chunk is whole.
// Images narrower than a chunk take the recurrence V(x, y) = X + V(x−1, y) + V(x, y−1) −
// V(x−1, y−1) sample by sample instead.
#include <Halide.h>

namespace cascade {

struct SatStripsFuncs {
    static constexpr int kChunk = 8;  // columns per chunk: an AVX2 vector of 32-bit sums
    Halide::Func totals;              // (x, s, c)
    Halide::Func above;               // (x, s, c)
    Halide::Func columns;             // (x, y, s, c): strip s's running column sums, at its rows y
    Halide::Func output;
    Halide::RDom strip_rows;  // over a strip's rows: the totals
    Halide::RDom later_rows;  // over a strip's rows after its first: the column sums
    Halide::RDom strips;      // over the strips after the first: `above`
    Halide::RDom chunks;      // (lane, chunk): the table's rows, images at least a chunk wide
    Halide::RDom narrow;      // (x, y): the recurrence, images narrower than a chunk
    Halide::Var x, y, s, c;
    Halide::Expr strip;  // rows per strip (a run-time input)
};

// Defines `output` (x, y, c) as the table of `input`, accumulated in `accumulator`.
SatStripsFuncs define_sat_strips(Halide::Func input, Halide::Expr width, Halide::Expr height,
                                 Halide::Func output, Halide::Type accumulator, Halide::Expr strip);

}  // namespace cascade
