#include "line_strips.h"

#include <functional>
#include <stdexcept>
#include <string>

#include "generators/recursion_step.h"

namespace cascade {

using namespace Halide;

LineStripsFuncs define_line_strips(Func input, Expr length, Func output,
                                   const std::vector<Coefficients> &sections, int passes, int segment,
                                   int overlap) {
    LineStripsFuncs f;
    f.segment = segment;
    f.overlap = overlap;
    f.after = passes == 3 ? overlap : 0;
    Var &n = f.n, &c = f.c, &i = f.i, &g = f.g;
    const int S = segment, W = overlap, A = f.after, extent = W + S + A;

    f.signal = Func("line_signal");
    f.signal(n, c) = select(n >= 0 && n < length, input(clamp(n, 0, length - 1), c), 0.0f);

    // Rows of one segment each: a window is the rows g − W/S to g + A/S, every sample of it at a
    // constant row offset and column once its scans are unrolled.
    if (W % S != 0) throw std::invalid_argument("the overlap must be a whole number of segments");
    f.rows = Func("line_rows");
    f.rows(i, g, c) = f.signal(g * S + i, c);
    f.window = Func("line_window");
    const Expr first = g * S - W;  // the signal's sample at window sample 0
    f.window(i, g, c) = f.rows(i % S, g - W / S + i / S, c);
    for (const Coefficients &k : sections) {
        RDom r(0, extent, "forward_" + std::to_string(f.scans.size()));
        f.window(r, g, c) = recursion_step(
            k, f.window(r, g, c), [&](int d) { return f.window(max(r - d, 0), g, c); },
            [&](int d) { return r.x >= d; });
        f.scans.push_back(r);
    }
    if (passes == 3) {
        for (size_t s = 0; s < sections.size(); s++) {
            // From the window's end back to the segment's first sample: samples before it only
            // warmed up the causal passes.
            RDom r(0, S + A, "backward_" + std::to_string(f.scans.size()));
            Expr at = extent - 1 - r.x;
            Expr in = f.window(at, g, c);
            // Past the signal's end the causal result is cut: boundary none starts the anticausal
            // pass from zero there.
            if (s == 0) in = select(first + at < length, in, 0.0f);
            f.window(at, g, c) = recursion_step(
                sections[s], in, [&](int d) { return f.window(min(at + d, extent - 1), g, c); },
                [&](int d) { return r.x >= d; });
            f.scans.push_back(r);
        }
    }

    f.segments = Func("line_segments");
    f.segments(i, g, c) = f.window(W + i, g, c);
    output(n, c) = f.segments(n % S, n / S, c);
    f.output = output;
    return f;
}

}  // namespace cascade
