#include "iir_strips.h"

#include <functional>

#include "algebra/boundary.h"
#include "algebra/recursion_step.h"

namespace cascade {

using namespace Halide;

IirStripsFuncs iir_strips(Func input, Func output, Expr width, Expr height,
                          const std::vector<Coefficients> &vertical,
                          const std::vector<Coefficients> &horizontal, Expr overlap, Expr strip,
                          const std::optional<StripsExtension> &exact) {
    IirStripsFuncs f;
    f.strip = strip;
    const Expr zero = Internal::make_zero(input.output_types()[0]);
    Var x("x"), y("y"), s("s"), c("c");
    const Expr window = strip + 2 * overlap;
    // The window of strip s starts at the image's row s·strip − overlap; `columns` holds it at the
    // image's row numbers, so that every stage reads the next at affine indices.
    const Expr first_row = s * strip - overlap;

    // Every pass of a dimension runs in place on one buffer: each reads its input at a sample
    // before writing its output there.
    f.columns = Func("strip_columns");
    if (exact) {
        const Expr extension = exact->extension;
        // A row's fold is a few divisions (a line shorter than the window folds more than once):
        // folded once per row of the image's extension, not per sample.
        f.row_fold = Func("strip_row_fold");
        f.row_fold(y) = extended_index(extension, y, height);
        Expr sample = input(x, clamp(f.row_fold(y), 0, height - 1), c);
        if (exact->level_gain.defined()) {
            f.level = image_level(input, width, height);
            sample -= f.level(c);
        }
        f.columns(x, y, s, c) = select(extension != kZeroExtension || (y >= 0 && y < height), sample, zero);
    } else {
        f.columns(x, y, s, c) = select(y >= 0 && y < height, input(x, clamp(y, 0, height - 1), c), zero);
    }
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
        // Past the image's last row boundary none cuts the causal result, as its anticausal pass
        // starts from zero at the image's end; an extension's causal result goes on.
        if (n == 0 && !exact) in = select(row < height, in, zero);
        f.columns(x, row, s, c) = recursion_step(
            vertical[n], in, [&](int d) { return f.columns(x, min(row + d, last_row), s, c); },
            [&](int d) { return r.x >= d; });
        f.column_scans.push_back(r);
    }
    // strip is a power of two: the row's strip is a shift of the row, y / strip to bounds
    // inference, which cannot bound a shift by a variable.
    const Expr row_strip =
        unsafe_promise_clamped(y >> (31 - count_leading_zeros(strip)), y / strip, y / strip);
    if (horizontal.empty()) {
        // The columns alone: each strip's rows of its window, as they are.
        Expr result = f.columns(x, y, row_strip, c);
        if (f.level.defined()) result += f.level(c) * exact->level_gain;
        output(x, y, c) = result;
        f.output = output;
        return f;
    }
    f.rows = Func("strip_rows");
    if (!exact) {
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

    // The rows reach `margin` columns past both ends. Their margins hold the strip's column result
    // at the folded columns: the clamped column first (clamp's margins as they stay), then, past
    // each end, the fold (periodic, reflect, mirror; zero's margins zero). The folds read columns
    // of the row within [0, width), which the first definition holds whatever the margin's width.
    const Expr extension = exact->extension, margin = exact->row_overlap;
    f.rows(x, y, c) = f.columns(clamp(x, 0, width - 1), y, row_strip, c);
    f.column_fold = Func("strip_column_fold");
    f.column_fold(x) = extended_index(extension, x, width);
    f.margin = RDom(0, margin, "margin");
    for (Expr column : {f.margin.x - margin, width + f.margin.x}) {
        f.rows(column, y, c) = select(extension == kZeroExtension, zero,
                                      f.rows(clamp(f.column_fold(column), 0, width - 1), y, c));
        f.margin_updates++;
    }
    const Expr first_column = -margin, last_column = width + margin - 1;
    for (size_t n = 0; n < 2 * horizontal.size(); n++) {
        const bool causal = n < horizontal.size();
        // The causal passes from the left margin's first column, the anticausal ones from the
        // right margin's last back to the row's first.
        RDom r(0, causal ? width + 2 * margin : width + margin,
               (causal ? "right_" : "left_") + std::to_string(n));
        Expr column = causal ? first_column + r.x : last_column - r.x;
        f.rows(column, y, c) = recursion_step(
            horizontal[n % horizontal.size()], f.rows(column, y, c),
            [&](int d) {
                return f.rows(causal ? max(column - d, first_column) : min(column + d, last_column), y, c);
            },
            [&](int d) { return r.x >= d; });
        f.row_scans.push_back(r);
    }
    Expr result = f.rows(x, y, c);
    if (f.level.defined()) result += f.level(c) * exact->level_gain;
    output(x, y, c) = result;
    f.output = output;
    return f;
}

}  // namespace cascade
