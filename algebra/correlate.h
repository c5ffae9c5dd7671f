#pragma once
// One axis's FIR of any run-time length and extension (scipy.ndimage.correlate1d): along `axis`
// of every line of an (x, y, c) image of n samples a line,
//
//     out[i] = Σ_{j < T} taps[j]·ext[i + j − center],
//
// ext the line extended as include/cascade/boundary.h says. The taps, their count T, the center
// and the extension are run-time values: one pipeline serves every filter of one axis and type.
// A filter longer than the line reads its extension folded as often as it takes (scipy's).
#include <Halide.h>

#include "algebra/recursive_filter.h"

namespace cascade {

struct Correlation {
    // source(p): the sample that position p of the extended line reads, −1 where the extension is
    // zero; a Func of its own so that the fold's divisions run once per position, not per tap.
    Halide::Func source;
    // (x, y, c): the image extended along the axis, any position of it; read T times a sample.
    Halide::Func extended;
    // (x, y, c): the sums, a pure zero then one update over `taps` (the RDom over the taps).
    Halide::Func sum;
    Halide::RDom taps;
    Halide::Func output;  // (x, y, c): `sum`
    Dim axis;
    Halide::Var x, y, c, p;
};

// Defines `output` (x, y, c) over the width × height × channels of `input`, samples of `type`:
// along x (Dim::x, the rows) or y (Dim::y, the columns). `taps` (j) is defined over
// [0, tap_count); `boundary` is one of algebra/boundary.h's extensions (kZeroExtension or a
// FoldedBoundary), a constant or a run-time value; center lies in [0, tap_count).
Correlation define_correlation(Halide::Func input, Halide::Type type, Halide::Expr width, Halide::Expr height,
                               Halide::Func output, Halide::Func taps, Halide::Expr tap_count,
                               Halide::Expr center, Halide::Expr boundary, Dim axis);

}  // namespace cascade
