#pragma once
// Row strips with overlapped column windows, a CPU realisation of the separable causal–anticausal
// filter (boundary none) that reads the image once and writes it once.
//
// The image is cut into strips of `strip` rows, each filtered on its own: the column passes run
// over the strip's window [y0 − overlap, y0 + strip + overlap) from a zero state, so that each
// pass's state has forgotten the window's cut-off ends (to within the response's tail past
// `overlap` samples, which runtime/strips.h bounds below float rounding); then the row passes run
// along the strip's complete rows. Rows outside the image are zero, and the causal columns' result
// past the last row is cut before the anticausal passes read it, as boundary none defines.
// Strips share nothing, so they run in parallel with no carries between them; the cost is the
// windows' overlap, (strip + 2·overlap) / strip causal and (strip + overlap) / strip anticausal
// column steps per output row.
#include <Halide.h>

#include <vector>

#include "algebra/recursive_filter.h"

namespace cascade {

struct IirStripsFuncs {
    // (x, y, s, c): strip s's window at the image's rows y, its input, then the column passes in
    // place, one update each (causal sections, then anticausal ones) over `column_scans`.
    Halide::Func columns;
    std::vector<Halide::RDom> column_scans;
    // (x, y, c): the strip's rows of `columns`, then the row passes in place (causal, then
    // anticausal) over `row_scans`.
    Halide::Func rows;
    std::vector<Halide::RDom> row_scans;
    Halide::Func output;  // (x, y, c): `rows` in the image's layout
    Halide::Expr strip;   // rows per strip, a power of two
};

// Defines `output` (x, y, c) as the filter of `input` with `vertical` down the columns and
// `horizontal` along the rows, each a cascade of causal then anticausal passes of the given
// coefficients (each direction's first section applies the gain, as in recursive_filter.h).
IirStripsFuncs iir_strips(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                          const std::vector<Coefficients> &vertical,
                          const std::vector<Coefficients> &horizontal, Halide::Expr overlap,
                          Halide::Expr strip);

}  // namespace cascade
