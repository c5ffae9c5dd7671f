#pragma once
// One long signal filtered by overlapped segments: the causal (and, for passes = 3, then the
// anticausal) cascade of each channel of x(n, c), boundary none, reading the signal once and
// writing it once.
//
// The signal is cut into segments of S samples. Segment g runs the causal cascade from a zero
// state over [g·S − W, g·S + S), W the overlap, and keeps its last S results; for passes = 3 it
// then runs the anticausal cascade from a zero state back over the causal results of
// [g·S, g·S + S + A), A = W, the later segments' included, and keeps its first S. Each pass's
// state has forgotten the cut-off end by the time it reaches the segment, to within the
// response's tail past W samples (runtime/strips.h bounds it below float32's rounding, as for the
// CPU's 2D strips). Segments share nothing but the causal results: no carries, no second read;
// the cost is (W + S) causal and (S + A) anticausal steps per S outputs. The sections of a cascade
// run in one scan, each step of one section feeding the next's, so that a scan holds only its
// states, not each section's whole window.
#include <Halide.h>

#include <vector>

#include "algebra/recursive_filter.h"

namespace cascade {

struct LineStripsFuncs {
    Halide::Func signal;  // (n, c): the input, zero outside [0, length)
    Halide::Func rows;    // (i, g, c): the signal as rows of a segment each, sample g·S + i
    // (i, g, c): segment g's causal window, window sample i at the signal's g·S − W + i, one tuple
    // element per section, scanned in place over `forward_scan`.
    Halide::Func forward;
    Halide::RDom forward_scan;
    // passes = 3: (i, g, c) segment g's causal results (zero past the signal's end), then its
    // anticausal window over `causal` from segment g on, scanned back over `backward_scan`.
    Halide::Func causal, backward;
    Halide::RDom backward_scan;
    Halide::Func segments;  // (i, g, c): segment g's filtered samples
    Halide::Func output;
    // With an extension: whether the signal is at least a window long, so that each sample a
    // window reads folds once (undefined under boundary none).
    Halide::Expr folds_once;
    Halide::Expr extension;  // the run-time extension, or undefined
    Halide::Var n, c, i, g;
    int segment = 0, overlap = 0, after = 0;  // S, W, A
};

// Defines `output` (n, c) over n ∈ [0, length). `sections`: the causal cascade (the first applies
// the gain); passes 1 runs it alone, passes 3 runs it, then the same cascade anticausally. The
// overlap is a whole number of segments, so that a window is whole rows of `rows`. `extension`
// undefined: boundary none (zero feedbacks; the causal result is cut at the signal's end). Else
// the run-time extension of an exact boundary, numbered as include/cascade/boundary.h's Boundary
// (zero, clamp, periodic, reflect, mirror): the windows read the extended signal past both ends,
// so that the segments near them filter it as if it went on, to within the same tail.
LineStripsFuncs define_line_strips(Halide::Func input, Halide::Expr length, Halide::Func output,
                                   const std::vector<Coefficients> &sections, int passes, int segment,
                                   int overlap, Halide::Expr extension = Halide::Expr());

}  // namespace cascade
