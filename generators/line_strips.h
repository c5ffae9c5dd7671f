#pragma once
// One long signal filtered by overlapped segments: the causal (and, for passes = 3, then the
// anticausal) cascade of each channel of x(n, c), boundary none, reading the signal once and
// writing it once.
//
// The signal is cut into segments of S samples; segment g runs its own scans over a window of the
// signal from a zero state: the causal passes over [g·S − W, g·S + S + A), the anticausal ones
// back from the window's end to g·S, where W is the overlap and A the anticausal one (W for
// passes = 3, else 0). Each pass's state has forgotten the window's cut-off end by the time it
// reaches the segment, to within the response's tail past W samples (runtime/strips.h bounds it
// below float32's rounding, as for the CPU's 2D strips). Segments share nothing: no carries, no
// second read; the cost is (W + S + A) causal and (S + A) anticausal steps per S outputs.
#include <Halide.h>

#include <vector>

#include "generators/recursive_filter.h"

namespace cascade {

struct LineStripsFuncs {
    Halide::Func signal;  // (n, c): the input, zero outside [0, length)
    Halide::Func rows;    // (i, g, c): the signal as rows of a segment each, sample g·S + i
    // (i, g, c): segment g's window, window sample i at the signal's g·S − W + i; the scans run in
    // place, one update each (causal sections, then anticausal ones) over `scans`.
    Halide::Func window;
    std::vector<Halide::RDom> scans;
    Halide::Func segments;  // (i, g, c): segment g's filtered samples, its window's from W on
    Halide::Func output;
    Halide::Var n, c, i, g;
    int segment = 0, overlap = 0, after = 0;  // S, W, A
};

// Defines `output` (n, c) over n ∈ [0, length). `sections`: the causal cascade (the first applies
// the gain); passes 1 runs it alone, passes 3 runs it, then the same cascade anticausally. The
// overlap is a whole number of segments, so that a window is whole rows of `rows`.
LineStripsFuncs define_line_strips(Halide::Func input, Halide::Expr length, Halide::Func output,
                                   const std::vector<Coefficients> &sections, int passes, int segment,
                                   int overlap);

}  // namespace cascade
