#pragma once
// A separable 2D FIR of compile-time reach and run-time taps and extension: down the columns, then
// along the rows of every channel of an (x, y, c) image,
//
//     columns(x, y) = Σ_{k ≤ 2R} taps_y[k]·ext(x, y + k − R),
//     output(x, y)  = Σ_{k ≤ 2R} taps_x[k]·columns(x + k − R, y),
//
// ext the image extended as include/cascade/boundary.h says, folded as often as it takes where a
// line is shorter than the filter (scipy.ndimage's). R, the radius, is a build parameter: a filter
// that reaches less far runs with its taps zero-padded to 2R + 1 (runtime/fir2d.cpp places a
// filter's centre at tap R), so every loop over the taps has a constant trip count and every tile
// the schedules stage has a constant size.
#include <Halide.h>

namespace cascade {

struct Fir2d {
    int radius = 0;
    // source_x(p), source_y(p): the sample that position p of a row (column) extended reads, −1
    // where the extension is zero; Funcs of their own so that the folds' divisions run once per
    // position, not once per sample read.
    Halide::Func source_x, source_y;
    // (x, y, c): the image extended, any position of it; read 2R + 1 times a sample by `columns`.
    Halide::Func extended;
    Halide::Func columns;  // (x, y, c): the column pass
    Halide::Func rows;     // (x, y, c): the row pass over `columns`
    Halide::Func output;   // (x, y, c): `rows`
    Halide::Var x, y, c, p;
};

// Defines `output` over the width × height × channels of `input`, samples of `type` (float32 or
// float64; the sums in that type). `taps_y` and `taps_x` (k) are read over [0, 2·radius];
// `boundary` is one of algebra/boundary.h's extensions, a constant or a run-time value.
Fir2d define_fir2d(Halide::Func input, Halide::Type type, Halide::Expr width, Halide::Expr height,
                   Halide::Func output, Halide::Func taps_y, Halide::Func taps_x, int radius,
                   Halide::Expr boundary);

}  // namespace cascade
