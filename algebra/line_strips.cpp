#include "line_strips.h"

#include <functional>
#include <stdexcept>
#include <string>

#include "algebra/boundary.h"
#include "algebra/recursion_step.h"

namespace cascade {

using namespace Halide;

namespace {

// Element s of a window's value: a Func of one section holds a plain value, of several a tuple.
Expr element(FuncRef ref, size_t s, size_t count) { return count == 1 ? Expr(ref) : Expr(ref[int(s)]); }

// The window (i, g, c) from `in`, then every section's scan in one update over `r`: step `at`
// feeds `in`'s sample through section 0, its result through section 1, and so on; `earlier(d)`
// is the window index d steps back along the scan, read where `r.x >= d`.
void scan_in_place(Func window, Expr in, const std::vector<Coefficients> &sections, RDom r, Expr at,
                   const std::function<Expr(int)> &earlier, Var i, Var g, Var c) {
    const size_t count = sections.size();
    std::vector<Expr> initial(count, 0.0f);
    initial[0] = in;
    if (count == 1) {
        window(i, g, c) = initial[0];
    } else {
        window(i, g, c) = Tuple(initial);
    }
    Expr value = element(window(at, g, c), 0, count);
    std::vector<Expr> steps;
    for (size_t s = 0; s < count; s++) {
        value = recursion_step(
            sections[s], value, [&](int d) { return element(window(earlier(d), g, c), s, count); },
            [&](int d) { return r.x >= d; });
        steps.push_back(value);
    }
    if (count == 1) {
        window(at, g, c) = steps[0];
    } else {
        window(at, g, c) = Tuple(steps);
    }
}

}  // namespace

LineStripsFuncs define_line_strips(Func input, Expr length, Func output,
                                   const std::vector<Coefficients> &sections, int passes, int segment,
                                   int overlap, Expr extension) {
    LineStripsFuncs f;
    f.segment = segment;
    f.overlap = overlap;
    f.after = passes == 3 ? overlap : 0;
    Var &n = f.n, &c = f.c, &i = f.i, &g = f.g;
    const int S = segment, W = overlap, A = f.after;
    const size_t last = sections.size() - 1;

    f.signal = Func("line_signal");
    const Expr inside = n >= 0 && n < length;
    if (extension.defined()) {
        // Where the signal is at least a window long, every sample a window reads lies within one
        // fold of it. Shorter signals fold as often as it takes (algebra/boundary.h). The
        // schedules specialise on which.
        f.folds_once = length >= W + S + A;
        f.extension = extension;
        const Expr index = select(f.folds_once, extended_index_once(extension, n, length),
                                  extended_index(extension, n, length));
        f.signal(n, c) = select(inside || extension != kZeroExtension, input(index, c), 0.0f);
    } else {
        f.signal(n, c) = select(inside, input(clamp(n, 0, length - 1), c), 0.0f);
    }

    // Rows of one segment each: a window is whole rows, every sample of it at a constant row
    // offset and column once its scan is unrolled.
    if (W % S != 0) throw std::invalid_argument("the overlap must be a whole number of segments");
    f.rows = Func("line_rows");
    f.rows(i, g, c) = f.signal(g * S + i, c);

    f.forward = Func("line_forward");
    f.forward_scan = RDom(0, W + S, "forward_steps");
    Expr ahead = f.forward_scan.x;
    scan_in_place(
        f.forward, f.rows(i % S, g - W / S + i / S, c), sections, f.forward_scan, ahead,
        [&](int d) { return max(ahead - d, 0); }, i, g, c);
    Expr causal = element(f.forward(W + i, g, c), last, sections.size());

    f.segments = Func("line_segments");
    if (passes == 3) {
        // Under boundary none the causal result is cut past the signal's end: the anticausal pass
        // starts from zero there. An extension's causal result goes on.
        f.causal = Func("line_causal");
        f.causal(i, g, c) = extension.defined() ? causal : select(g * S + i < length, causal, 0.0f);
        f.backward = Func("line_backward");
        f.backward_scan = RDom(0, S + A, "backward_steps");
        Expr back = S + A - 1 - f.backward_scan.x;
        scan_in_place(
            f.backward, f.causal(i % S, g + i / S, c), sections, f.backward_scan, back,
            [&](int d) { return min(back + d, S + A - 1); }, i, g, c);
        f.segments(i, g, c) = element(f.backward(i, g, c), last, sections.size());
    } else {
        f.segments(i, g, c) = causal;
    }
    output(n, c) = f.segments(n % S, n / S, c);
    f.output = output;
    return f;
}

}  // namespace cascade
