#include "iir_strips.h"

#include <functional>

#include "earlier_output.h"

namespace cascade {

using namespace Halide;

namespace {

// value = gain · in − Σ a_k · out(step back k), read only where the earlier output exists.
Expr recursion(const Coefficients &k, Expr in, const std::function<Expr(int)> &earlier,
               const std::function<Expr(int)> &exists) {
    Expr value = k.b0 * in;
    for (int j = 1; j <= k.order(); j++) value -= k.a[j - 1] * earlier_output(exists(j), earlier(j));
    return value;
}

}  // namespace

IirStripsFuncs iir_strips(Func input, Func output, Expr width, Expr height, const std::vector<Coefficients> &vertical,
                          const std::vector<Coefficients> &horizontal, Expr overlap, int strip) {
    IirStripsFuncs f;
    f.strip = strip;
    Var x("x"), y("y"), j("j"), s("s"), c("c");
    const Expr window = strip + 2 * overlap;
    // The window's row j of strip s is the image's row s·strip − overlap + j.
    auto image_row = [&](Expr row, Expr index) { return index * strip - overlap + row; };

    Func zero_padded("zero_padded");
    zero_padded(x, y, c) = select(y >= 0 && y < height, input(x, clamp(y, 0, height - 1), c), 0.0f);

    Func previous;
    for (size_t n = 0; n < vertical.size(); n++) {
        Func down("strip_down_" + std::to_string(n));
        down(x, j, s, c) = undef<float>();
        RDom r(0, window, down.name() + "_j");
        Expr in = n == 0 ? zero_padded(x, image_row(r.x, s), c) : previous(x, r.x, s, c);
        down(x, r.x, s, c) = recursion(
            vertical[n], in, [&](int k) { return down(x, max(r.x - k, 0), s, c); },
            [&](int k) { return r.x >= k; });
        f.columns.push_back({down, r});
        previous = down;
    }
    for (size_t n = 0; n < vertical.size(); n++) {
        Func up("strip_up_" + std::to_string(n));
        up(x, j, s, c) = undef<float>();
        // From the window's last row back to its first output row: rows above only warm up the
        // causal passes.
        RDom r(0, window - overlap, up.name() + "_j");
        Expr row = window - 1 - r.x;
        Expr in = previous(x, row, s, c);
        // Past the image's last row the causal result is cut, as the anticausal pass of boundary
        // none starts from zero at the image's end.
        if (n == 0) in = select(image_row(row, s) < height, in, 0.0f);
        const Coefficients &k = vertical[n];
        up(x, row, s, c) = recursion(
            k, in, [&](int d) { return up(x, min(row + d, window - 1), s, c); },
            [&](int d) { return row + d < window; });
        f.columns.push_back({up, r});
        previous = up;
    }
    f.columns_done = Func("columns_done");
    f.columns_done(x, y, c) = previous(x, y % strip + overlap, y / strip, c);
    f.rows_in = Func("rows_in");
    f.rows_in(x, y, c) = f.columns_done(x, y, c);

    previous = f.rows_in;
    for (size_t n = 0; n < 2 * horizontal.size(); n++) {
        const bool causal = n < horizontal.size();
        Func pass((causal ? "strip_right_" : "strip_left_") + std::to_string(n));
        const Coefficients &k = horizontal[n % horizontal.size()];
        pass(x, y, c) = undef<float>();
        RDom r(0, width, pass.name() + "_i");
        Expr column = causal ? Expr(r.x) : width - 1 - r.x;
        pass(column, y, c) = recursion(
            k, previous(column, y, c),
            [&](int d) { return pass(causal ? max(column - d, 0) : min(column + d, width - 1), y, c); },
            [&](int d) { return causal ? column - d >= 0 : column + d < width; });
        f.rows.push_back({pass, r});
        previous = pass;
    }
    output(x, y, c) = previous(x, y, c);
    f.output = output;
    return f;
}

}  // namespace cascade
