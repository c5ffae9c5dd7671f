#include "twoway.h"

#include "algebra/boundary.h"
#include "algebra/earlier_output.h"
#include "algebra/feedback_term.h"

namespace cascade {

using namespace Halide;

Expr line_sample(Func f, Dim dim, Expr position, Expr o, Expr c) {
    return dim == Dim::y ? f(o, position, c) : f(position, o, c);
}

Func two_way_centre(const std::string &name, Func in, Dim dim, Expr extent, Func kernel, Expr radius,
                    const TwoWayEdges *edges, RDom &taps) {
    Var o("o"), c("c");
    taps = RDom(0, 2 * radius + 1, name + "_k");
    Expr at = extent / 2 + taps - radius;
    Func centre(name + "_centre");
    centre(o, c) = 0.0f;
    if (edges)
        centre(o, c) +=
            kernel(taps) * line_sample(in, dim, extended_index(edges->boundary, at, extent), o, c);
    else
        centre(o, c) += kernel(taps) * select(at >= 0 && at < extent,
                                              line_sample(in, dim, clamp(at, 0, extent - 1), o, c), 0.0f);
    return centre;
}

TwoWayStep two_way_step(Func out, Func in, Dim dim, Expr extent, const std::vector<TwoWaySection> &sections,
                        Func kernel, Expr radius, const TwoWayEdges *edges) {
    const std::string name = out.name();
    TwoWayStep step;
    step.dim = dim;
    Var j("j"), s("s"), o("o"), c("c"), x("x"), y("y");
    Expr m = extent / 2;
    // The longer half (the left one when L is even) has m samples; both scans run j over [1, m].
    Expr half = m;
    Expr length = select(s == 0, m, extent - 1 - m);  // samples in half s
    Expr position = select(s == 0, m - j, m + j);

    step.centre = two_way_centre(name, in, dim, extent, kernel, radius, edges, step.centre_taps);

    // (exact) Every section's outputs just past each half's far end: sample q of the weighted
    // ones is sample q of the line from its start, past `near` one of its last count − near.
    if (edges) {
        RDom q(0, edges->count, name + "_edge_q");
        step.edge_samples = q;
        Expr position = clamp(select(q < edges->near, q, extent - edges->count + q), 0, extent - 1);
        Var st("k");
        step.edge_states = Func(name + "_edge_states");
        step.edge_states(st, s, o, c) = 0.0f;
        step.edge_states(st, s, o, c) += edges->weights(q, st, s) * line_sample(in, dim, position, o, c);
    }

    // The half lines as seen from the centre; zero past the line's end (boundary none).
    Func line(name + "_line");
    line(j, s, o, c) = select(j <= length, line_sample(in, dim, clamp(position, 0, extent - 1), o, c), 0.0f);

    // First pass, each half from its far end inward (j falling): the left half's causal pass, the
    // right half's anticausal pass, both starting from zero or (exact) from the extension's
    // outputs past the end; a right half one shorter than the left starts one step past it.
    step.inward_scan = RDom(0, half, name + "_in");
    Expr jin = half - step.inward_scan.x;
    Func previous = line;
    for (size_t n = 0; n < sections.size(); n++) {
        const TwoWaySection &q = sections[n];
        Func f(name + "_inward_" + std::to_string(n));
        f(j, s, o, c) = undef<float>();
        // Section n's output d samples before j (d = 1, 2).
        auto before = [&](int d) {
            Expr past = edges ? step.edge_states(2 * int(n) + clamp(jin + d - length - 1, 0, 1), s, o, c)
                              : Expr(0.0f);
            return earlier_output(jin + d <= (edges ? length : half), f(min(jin + d, half), s, o, c), past);
        };
        Expr value =
            q.gain * previous(jin, s, o, c) + feedback_term(q.a2, before(2)) + feedback_term(q.a1, before(1));
        if (edges) value = select(jin > length, step.edge_states(2 * int(n), s, o, c), value);
        f(jin, s, o, c) = value;
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
        Expr y1 = earlier_output(jout - 1 >= 1, f(max(jout - 1, 1), s, o, c), seed);
        Expr y2 = earlier_output(jout - 2 >= 1, f(max(jout - 2, 1), s, o, c), seed);
        f(jout, s, o, c) =
            q.gain * previous(jout, s, o, c) + feedback_term(q.a2, y2) + feedback_term(q.a1, y1);
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
