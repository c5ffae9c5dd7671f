#include "twoway.h"

namespace cascade {

using namespace Halide;

namespace {

// `f` at position `position` of line `o` along `dim`.
Expr sample(Func f, Dim dim, Expr position, Expr o, Expr c) {
    return dim == Dim::y ? f(o, position, c) : f(position, o, c);
}

}  // namespace

TwoWayStep two_way_step(Func out, Func in, Dim dim, Expr extent, const std::vector<TwoWaySection> &sections,
                        Func kernel, Expr radius) {
    const std::string name = out.name();
    TwoWayStep step;
    step.dim = dim;
    Var j("j"), s("s"), o("o"), c("c"), x("x"), y("y");
    Expr m = extent / 2;
    // The longer half (the left one when L is even) has m samples; both scans run j over [1, m].
    Expr half = m;
    Expr length = select(s == 0, m, extent - 1 - m);  // samples in half s
    Expr position = select(s == 0, m - j, m + j);

    // Centre point: the direct Gaussian of the whole line, zero outside it.
    RDom k(0, 2 * radius + 1, name + "_k");
    step.centre_taps = k;
    Expr at = m + k - radius;
    step.centre = Func(name + "_centre");
    step.centre(o, c) = 0.0f;
    step.centre(o, c) +=
        kernel(k) * select(at >= 0 && at < extent, sample(in, dim, clamp(at, 0, extent - 1), o, c), 0.0f);

    // The half lines as seen from the centre; zero past the line's end (boundary none).
    Func line(name + "_line");
    line(j, s, o, c) = select(j <= length, sample(in, dim, clamp(position, 0, extent - 1), o, c), 0.0f);

    // First pass, each half from its far end inward (j falling): the left half's causal pass, the
    // right half's anticausal pass, both starting from zero.
    step.inward_scan = RDom(0, half, name + "_in");
    Expr jin = half - step.inward_scan.x;
    Func previous = line;
    for (size_t n = 0; n < sections.size(); n++) {
        const TwoWaySection &q = sections[n];
        Func f(name + "_inward_" + std::to_string(n));
        f(j, s, o, c) = undef<float>();
        Expr y1 = select(jin + 1 <= half, f(min(jin + 1, half), s, o, c), 0.0f);
        Expr y2 = select(jin + 2 <= half, f(min(jin + 2, half), s, o, c), 0.0f);
        f(jin, s, o, c) = q.gain * previous(jin, s, o, c) - q.a1 * y1 - q.a2 * y2;
        step.inward.push_back(f);
        previous = f;
    }

    // Second pass, each half from the centre outward (j rising), every section's state at j ≤ 0
    // seeded with the centre point's value.
    step.outward_scan = RDom(1, half, name + "_out");
    Expr jout = step.outward_scan.x;
    Expr seed = step.centre(o, c);
    for (size_t n = 0; n < sections.size(); n++) {
        const TwoWaySection &q = sections[n];
        Func f(name + "_outward_" + std::to_string(n));
        f(j, s, o, c) = undef<float>();
        Expr y1 = select(jout - 1 >= 1, f(max(jout - 1, 1), s, o, c), seed);
        Expr y2 = select(jout - 2 >= 1, f(max(jout - 2, 1), s, o, c), seed);
        f(jout, s, o, c) = q.gain * previous(jout, s, o, c) - q.a1 * y1 - q.a2 * y2;
        step.outward.push_back(f);
        previous = f;
    }

    // Reassembled: left half, centre point, right half. The clamps keep the reads of the unused
    // branches inside what the scans computed.
    Expr p = dim == Dim::y ? Expr(y) : Expr(x), line_index = dim == Dim::y ? Expr(x) : Expr(y);
    Expr jj = clamp(select(p < m, m - p, p - m), 1, max(half, 1));
    Expr side = select(p < m, 0, 1);
    out(x, y, c) = select(p == m, step.centre(line_index, c), previous(jj, side, line_index, c));
    step.out = out;
    return step;
}

}  // namespace cascade
