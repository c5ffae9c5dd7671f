#include "iir_strips.h"

#include <functional>
#include <string>

#include "algebra/block_step.h"
#include "algebra/boundary.h"
#include "algebra/recursion_step.h"

namespace cascade {

using namespace Halide;

IirStripsFuncs iir_strips(Func input, Func output, Expr width, Expr height,
                          const std::vector<Coefficients> &vertical,
                          const std::vector<Coefficients> &horizontal, Expr overlap, Expr strip,
                          const std::optional<StripsExtension> &exact, int row_block) {
    IirStripsFuncs f;
    f.strip = strip;
    for (const auto *sections : {&vertical, &horizontal})
        if (!sections->empty() && sections->back().order() >= 2) {
            const Expr second = sections->back().a[1];
            const Expr zero_second = second == Internal::make_zero(second.type());
            f.first_order_ends =
                f.first_order_ends.defined() ? f.first_order_ends && zero_second : zero_second;
        }
    if (f.first_order_ends.defined() && Internal::is_const(Internal::simplify(f.first_order_ends)))
        f.first_order_ends = Expr();
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
    f.row_block = row_block;
    const bool blocks = row_block > 1;
    // The passes along the rows: from `start` over `count` samples, forward (causal) or back, one
    // sample a step or by blocks (block_step.h), whose last reaches up to row_block − 1 columns
    // past the range.
    auto row_pass = [&](const Coefficients &k, bool causal, Expr start, Expr count) {
        const std::string name = (causal ? "right_" : "left_") + std::to_string(f.row_scans.size());
        if (!blocks) {
            RDom r(0, count, name);
            Expr column = causal ? start + r.x : start - r.x;
            f.rows(column, y, c) = recursion_step(
                k, f.rows(column, y, c),
                [&](int d) { return f.rows(causal ? max(column - d, start) : min(column + d, start), y, c); },
                [&](int d) { return r.x >= d; });
            f.row_scans.push_back(r);
            return;
        }
        const int lanes = row_block;
        RDom r(0, lanes, 0, (count + lanes - 1) / lanes, name);
        Expr first = causal ? start + lanes * r.y : start - lanes * r.y - (lanes - 1);
        f.rows(first + r.x, y, c) = block_step(
            k, lanes, causal, r.x, [&](int j) { return f.rows(first + j, y, c); },
            [&](int d) {
                return f.rows(causal ? max(first - d, start) : min(first + lanes - 1 + d, start), y, c);
            },
            [&](int d) { return lanes * r.y >= d; });
        f.row_scans.push_back(r);
    };
    // The columns past each end of the row that the passes read: an exact boundary's margins, the
    // reach of none's blocks (as far past the start as past the end); `left` widened to whole blocks and
    // `right` to make the row so, so that every block lies on a block boundary of the row's storage (aligned
    // vectors) and none reaches past the margins.
    Expr left = exact ? exact->row_overlap : Expr(0), right = left;
    if (blocks) {
        left = (left + row_block - 1) / row_block * row_block;
        right = left + (row_block - width % row_block) % row_block;
        if (!exact) left = right;
    }
    // An update of the margin before (after) the row, over none of its columns where `applies`
    // does not hold.
    auto margin = [&](bool before, Expr applies, const std::string &name,
                      const std::function<Expr(Expr)> &value) {
        RDom m(0, select(applies, before ? left : right, 0), (before ? "before_" : "after_") + name);
        Expr column = before ? m.x - left : width + m.x;
        f.rows(column, y, c) = value(column);
        f.margins.push_back(m);
    };
    if (blocks) {
        // The row's columns as they lie, the margins by updates: the copy reads no column outside
        // the strip's (Halide would cut its tiles' loops at a clamp's edge only at the tiles).
        f.rows(x, y, c) = undef(zero.type());
        f.copy = RDom(0, width, "copy");
        f.rows(f.copy.x, y, c) = f.columns(f.copy.x, y, row_strip, c);
    } else {
        // Clamped where an exact boundary's margins are: then clamp's margins as they stay.
        f.rows(x, y, c) = f.columns(exact ? clamp(x, 0, width - 1) : Expr(x), y, row_strip, c);
    }
    if (!exact) {
        // None's blocks read zeros past the row (their results there are never read).
        if (blocks)
            for (bool before : {true, false}) margin(before, true, "zero", [&](Expr) { return zero; });
        for (size_t n = 0; n < 2 * horizontal.size(); n++) {
            const bool causal = n < horizontal.size();
            row_pass(horizontal[n % horizontal.size()], causal, causal ? Expr(0) : width - 1, width);
        }
        output(x, y, c) = f.rows(x, y, c);
        f.output = output;
        return f;
    }

    // An exact boundary's margins hold the strip's column result at the folded columns (the columns
    // of the extension are the extension of the columns), each by the one update its extension
    // needs: zero's zeros; clamp's end column (as they lie); where a single fold covers the margin,
    // the row's own columns at a shift (periodic) or reversed (reflect, mirror), dense vectors;
    // else the folded column of any line.
    const Expr extension = exact->extension;
    f.column_fold = Func("strip_column_fold");
    f.column_fold(x) = extended_index(extension, x, width);
    for (bool before : {true, false}) {
        const Expr once = (before ? left : right) < width;
        margin(before, extension == kZeroExtension, "zero", [&](Expr) { return zero; });
        if (blocks)
            margin(before, extension == kClamp, "clamped",
                   [&](Expr) { return f.rows(before ? 0 : width - 1, y, c); });
        for (int kind : {kPeriodic, kReflect, kMirror})
            margin(before, once && extension == kind, "once_" + std::to_string(kind),
                   [&](Expr i) { return f.rows(folded_once(kind, before, i, width), y, c); });
        margin(before, !once && extension != kClamp && extension != kZeroExtension, "folded",
               [&](Expr i) { return f.rows(clamp(f.column_fold(i), 0, width - 1), y, c); });
    }
    // The causal passes from the left margin's first column, the anticausal ones from the right
    // margin's last back to the row's first.
    for (size_t n = 0; n < 2 * horizontal.size(); n++) {
        const bool causal = n < horizontal.size();
        row_pass(horizontal[n % horizontal.size()], causal, causal ? -left : width + right - 1,
                 causal ? width + left + right : width + right);
    }
    Expr result = f.rows(x, y, c);
    if (f.level.defined()) result += f.level(c) * exact->level_gain;
    output(x, y, c) = result;
    f.output = output;
    return f;
}

}  // namespace cascade
