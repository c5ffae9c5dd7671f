#include "fir2d.h"

#include "algebra/boundary.h"

namespace cascade {

using namespace Halide;

Fir2d define_fir2d(Func input, Type type, Expr width, Expr height, Func output, Func taps_y, Func taps_x,
                   int radius, Expr boundary) {
    Fir2d f;
    f.radius = radius;
    f.x = Var("x");
    f.y = Var("y");
    f.c = Var("c");
    f.p = Var("p");
    const Var &x = f.x, &y = f.y, &c = f.c, &p = f.p;
    const Expr zero = Internal::make_zero(type);

    const auto source = [&](const char *name, Expr n) {
        Func s(name);
        s(p) = extension_source(boundary, p, n);
        return s;
    };
    f.source_x = source("source_x", width);
    f.source_y = source("source_y", height);

    // Inside the image a position reads itself: `likely` lets Halide split the CPU's loops that
    // copy the extension into the inside, which loads densely, and the ends, which go through the
    // sources. One load either way: the select is on the index, not on two loaded values. The
    // clamps change nothing (a source is −1 or in the line) but bound the load for Halide, which
    // cannot see into the stored sources.
    const Expr sx = select(likely(x >= 0 && x < width), x, f.source_x(x));
    const Expr sy = select(likely(y >= 0 && y < height), y, f.source_y(y));
    f.extended = Func("extended");
    f.extended(x, y, c) =
        select(sx >= 0 && sy >= 0, input(clamp(sx, 0, width - 1), clamp(sy, 0, height - 1), c), zero);

    // The sums run in tap order, one multiply-add a tap: the same rounding on every device.
    Expr down = taps_y(0) * f.extended(x, y - radius, c);
    for (int k = 1; k <= 2 * radius; k++) down = down + taps_y(k) * f.extended(x, y + k - radius, c);
    f.columns = Func("columns");
    f.columns(x, y, c) = down;

    Expr along = taps_x(0) * f.columns(x - radius, y, c);
    for (int k = 1; k <= 2 * radius; k++) along = along + taps_x(k) * f.columns(x + k - radius, y, c);
    f.rows = Func("rows");
    f.rows(x, y, c) = along;

    f.output = output;
    f.output(x, y, c) = f.rows(x, y, c);
    return f;
}

}  // namespace cascade
