#include "correlate.h"

#include "algebra/boundary.h"

namespace cascade {

using namespace Halide;

Correlation define_correlation(Func input, Type type, Expr width, Expr height, Func output, Func taps,
                               Expr tap_count, Expr center, Expr boundary, Dim axis) {
    Correlation f;
    f.axis = axis;
    f.x = Var("x");
    f.y = Var("y");
    f.c = Var("c");
    f.p = Var("p");
    const Var &x = f.x, &y = f.y, &c = f.c, &p = f.p;
    const Expr n = axis == Dim::x ? width : height;
    const Expr zero = Internal::make_zero(type);

    f.source = Func("source");
    f.source(p) = extension_source(boundary, p, n);

    // Inside the line a position reads itself: `likely` lets Halide split the loops that read the
    // extension into the inside, which loads directly, and the ends, which go through `source`.
    // The clamps change nothing (a source is −1 or in the line) but bound the loads for Halide,
    // which cannot see into the stored source.
    f.extended = Func("extended");
    const Expr i = axis == Dim::x ? x : y, s = f.source(i);
    const auto at = [&](Expr position) {
        return axis == Dim::x ? input(clamp(position, 0, n - 1), y, c)
                              : input(x, clamp(position, 0, n - 1), c);
    };
    f.extended(x, y, c) = select(likely(i >= 0 && i < n), at(i), s >= 0, at(s), zero);

    f.taps = RDom(0, tap_count, "tap");
    const Expr shift = f.taps.x - center;
    f.sum = Func("sum");
    f.sum(x, y, c) = zero;
    f.sum(x, y, c) +=
        taps(f.taps.x) * (axis == Dim::x ? f.extended(x + shift, y, c) : f.extended(x, y + shift, c));
    f.output = output;
    f.output(x, y, c) = f.sum(x, y, c);
    return f;
}

}  // namespace cascade
