#pragma once
// Row strips with overlapped column windows, a CPU realisation of the separable causal–anticausal
// filter that reads the image once and writes it once: boundary none, or an exact boundary.
//
// The image is cut into strips of `strip` rows, each filtered on its own: the column passes run
// over the strip's window [y0 − overlap, y0 + strip + overlap) from a zero state, so that each
// pass's state has forgotten the window's cut-off ends (to within the response's tail past
// `overlap` samples, which runtime/strips.h bounds below float rounding); then the row passes run
// along the strip's complete rows. Strips share nothing, so they run in parallel with no carries
// between them; the cost is the windows' overlap, (strip + 2·overlap) / strip causal and
// (strip + overlap) / strip anticausal column steps per output row.
//
// Boundary none: rows outside the image are zero, and the causal columns' result past the last
// row is cut before the anticausal passes read it, as boundary none defines.
//
// An exact boundary is the filter of the image's extension (docs/boundaries.md), and the windows
// read it: rows outside the image are the extension's (the folded row), and the causal result past
// the last row is kept, the extension's, so that the first and last strips warm up over it as the
// others do over their neighbours. Along the rows the same: the row passes run over
// [−row_overlap, width + row_overlap) (by blocks, widened to whole blocks), the margins read at
// folded columns of the strip's column result (the columns of the extension are the extension of
// the columns, the passes being the same down every column). So the result is the exact filter to
// within the same tail bound, with no boundary tables and one variant for every extension.
#include <Halide.h>

#include <optional>
#include <vector>

#include "algebra/recursive_filter.h"

namespace cascade {

// An exact boundary's run-time inputs.
struct StripsExtension {
    Halide::Expr extension;    // algebra/boundary.h's numbering: zero, clamp, periodic, reflect, mirror
    Halide::Expr row_overlap;  // columns the row passes reach past each end of a row
    // Defined: the image is filtered about its level (algebra/boundary.h's image_level) and G, what
    // the filter makes of a constant 1, times the level added back.
    Halide::Expr level_gain;
};

struct IirStripsFuncs {
    // (x, y, s, c): strip s's window at the image's rows y, its input, then the column passes in
    // place, one update each (causal sections, then anticausal ones) over `column_scans`.
    Halide::Func columns;
    std::vector<Halide::RDom> column_scans;
    // (x, y, c): the strip's rows of `columns` (by blocks: undefined, then an update over `copy`
    // copies them), then an update over each of `margins` that fills columns before and after the
    // row (an exact boundary's margins; zeros for none's blocks), then the row passes in place
    // (causal, then anticausal), the updates after those, over `row_scans`.
    Halide::Func rows;
    Halide::RDom copy;
    std::vector<Halide::RDom> margins;
    std::vector<Halide::RDom> row_scans;
    // Samples a step of the row passes: 1, or a block (algebra/block_step.h) whose scans are
    // over (lane, block).
    int row_block = 1;
    Halide::Func output;  // (x, y, c): `rows` in the image's layout
    Halide::Expr strip;   // rows per strip, a power of two
    // Where the feedbacks are run-time inputs: true where each dimension's last section is of the
    // first order (its second feedback zero), a lone real pole (to_sections puts those last: the
    // B-splines of degree 2 and 3, van Vliet's real pole).
    Halide::Expr first_order_ends;
    // Exact boundaries: the image's row (column) that each row (column) of the extension holds,
    // and the image's level (with a level gain); undefined otherwise.
    Halide::Func row_fold, column_fold, level;
};

// Defines `output` (x, y, c) as the filter of `input` with `vertical` down the columns and
// `horizontal` along the rows, each a cascade of causal then anticausal passes of the given
// coefficients (each direction's first section applies the gain, as in recursive_filter.h).
// Without `exact`, boundary none. With no `horizontal` sections, the columns alone (no `rows`):
// an axis of a volume that is not its last, whose lines are the columns of a wide image.
// `row_block` > 1: the row passes step by blocks of that many samples (block_step.h).
IirStripsFuncs iir_strips(Halide::Func input, Halide::Func output, Halide::Expr width, Halide::Expr height,
                          const std::vector<Coefficients> &vertical,
                          const std::vector<Coefficients> &horizontal, Halide::Expr overlap,
                          Halide::Expr strip, const std::optional<StripsExtension> &exact = std::nullopt,
                          int row_block = 1);

}  // namespace cascade
