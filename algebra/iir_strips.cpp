#include "iir_strips.h"

#include <functional>

#include "algebra/recursion_step.h"

namespace cascade {

using namespace Halide;

IirStripsFuncs iir_strips(Func input, Func output, Expr width, Expr height,
                          const std::vector<Coefficients> &vertical,
                          const std::vector<Coefficients> &horizontal, Expr overlap, Expr strip) {
    IirStripsFuncs f;
    f.strip = strip;
    Var x("x"), y("y"), s("s"), c("c");
    const Expr window = strip + 2 * overlap;
    // The window of strip s starts at the image's row s·strip − overlap; `columns` holds it at the
    // image's row numbers, so that every stage reads the next at affine indices.
    const Expr first_row = s * strip - overlap;

    // Every pass of a dimension runs in place on one buffer: each reads its input at a sample
    // before writing its output there.
    f.columns = Func("strip_columns");
    f.columns(x, y, s, c) = select(y >= 0 && y < height, input(x, clamp(y, 0, height - 1), c), 0.0f);
    for (const Coefficients &k : vertical) {
        RDom r(0, window, "down_" + std::to_string(f.column_scans.size()));
        Expr row = first_row + r.x;
        f.columns(x, row, s, c) = recursion_step(
            k, f.columns(x, row, s, c), [&](int d) { return f.columns(x, max(row - d, first_row), s, c); },
            [&](int d) { return r.x >= d; });
        f.column_scans.push_back(r);
    }
    for (size_t n = 0; n < vertical.size(); n++) {
        // From the window's last row back to the strip's first: rows above only warm up the
        // causal passes.
        RDom r(0, window - overlap, "up_" + std::to_string(f.column_scans.size()));
        Expr last_row = first_row + window - 1;
        Expr row = last_row - r.x;
        Expr in = f.columns(x, row, s, c);
        // Past the image's last row the causal result is cut, as the anticausal pass of boundary
        // none starts from zero at the image's end.
        if (n == 0) in = select(row < height, in, 0.0f);
        f.columns(x, row, s, c) = recursion_step(
            vertical[n], in, [&](int d) { return f.columns(x, min(row + d, last_row), s, c); },
            [&](int d) { return r.x >= d; });
        f.column_scans.push_back(r);
    }
    f.rows = Func("strip_rows");
    // strip is a power of two: the row's strip is a shift of the row, y / strip to bounds
    // inference, which cannot bound a shift by a variable.
    const Expr row_strip =
        unsafe_promise_clamped(y >> (31 - count_leading_zeros(strip)), y / strip, y / strip);
    f.rows(x, y, c) = f.columns(x, y, row_strip, c);
    for (size_t n = 0; n < 2 * horizontal.size(); n++) {
        const bool causal = n < horizontal.size();
        RDom r(0, width, (causal ? "right_" : "left_") + std::to_string(n));
        Expr column = causal ? Expr(r.x) : width - 1 - r.x;
        f.rows(column, y, c) = recursion_step(
            horizontal[n % horizontal.size()], f.rows(column, y, c),
            [&](int d) { return f.rows(causal ? max(column - d, 0) : min(column + d, width - 1), y, c); },
            [&](int d) { return causal ? column - d >= 0 : column + d < width; });
        f.row_scans.push_back(r);
    }
    output(x, y, c) = f.rows(x, y, c);
    f.output = output;
    return f;
}

}  // namespace cascade
