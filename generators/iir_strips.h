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

#include "generators/recursive_filter.h"

namespace cascade {

// One pass of the strip: its Func and the reduction it scans.
struct StripPass {
    Halide::Func func;
    Halide::RDom scan;
};

struct IirStripsFuncs {
    // Column passes on (x, j, strip, c), j the row within the window: causal sections, then
    // anticausal ones.
    std::vector<StripPass> columns;
    Halide::Func columns_done;  // (x, y, c): the column passes' result on the image's rows
    Halide::Func rows_in;       // (x, y, c): what the row passes read (columns_done, restaged)
    std::vector<StripPass> rows;  // row passes on (x, y, c): causal, then anticausal
    Halide::Func output;          // (x, y, c): the last row pass, restaged in the image's layout
    int strip = 0;
};

// Defines `output` (x, y, c) as the filter of `input` with `vertical` down the columns and
// `horizontal` along the rows, each a cascade of causal then anticausal passes of the given
// coefficients (each direction's first section applies the gain, as in recursive_filter.h).
IirStripsFuncs iir_strips(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                          const std::vector<Coefficients> &vertical, const std::vector<Coefficients> &horizontal,
                          Halide::Expr overlap, int strip);

}  // namespace cascade
