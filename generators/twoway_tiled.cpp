#include "twoway_tiled.h"

#include <functional>

#include "generators/earlier_output.h"
#include "generators/feedback_term.h"

namespace cascade {

using namespace Halide;

namespace {

// Section σ's coefficient `part` (0 gain, 1 a1, 2 a2), σ a run-time index into the cascade.
Expr coefficient(const std::vector<TwoWaySection> &q, Expr sigma, int part) {
    std::vector<Expr> values;
    for (const TwoWaySection &p : q) values.push_back(part == 0 ? p.gain : part == 1 ? p.a1 : p.a2);
    return values.size() == 1 ? values[0] : mux(sigma, values);
}

// Every section of `q` in cascade over a block, sample by sample (the section innermost), as the
// update of `f` (i, σ, rest...): inward from i = b − 1 down to 0, outward from 0 up. `input(i)`
// feeds section 0; `seed(σ, d)` is section σ's output d + 1 samples before the scan's first, zero
// where it is empty.
using Samples = std::function<Expr(Expr)>;
using Seed = std::function<Expr(Expr, Expr)>;
RDom section_scans(Func f, const std::vector<Var> &rest, const std::vector<TwoWaySection> &q, int b,
                   bool inward, const Samples &input, const Seed &seed) {
    Var i("i"), sigma_var("sigma");
    auto at = [&](Expr position, Expr sigma) {
        std::vector<Expr> args{position, sigma};
        args.insert(args.end(), rest.begin(), rest.end());
        return f(args);
    };
    std::vector<Var> pure{i, sigma_var};
    pure.insert(pure.end(), rest.begin(), rest.end());
    f(pure) = undef<float>();

    RDom r(0, int(q.size()), 0, b, f.name() + "_scan");
    Expr sigma = r.x, position = inward ? b - 1 - r.y : Expr(r.y);
    const int towards_first = inward ? 1 : -1;  // where the earlier samples lie
    Expr in = earlier_output(sigma > 0, at(position, max(sigma - 1, 0)), input(position));
    auto earlier = [&](int d) {  // the output d + 1 samples back
        Expr back = position + (d + 1) * towards_first;
        Expr inside = inward ? back < b : back >= 0;
        Expr seed_index = clamp(inward ? back - b : -1 - back, 0, 1);
        Expr outside = seed ? seed(sigma, seed_index) : Expr(0.0f);
        return earlier_output(inside, at(clamp(back, 0, b - 1), sigma), outside);
    };
    std::vector<Expr> lhs{position, sigma};
    lhs.insert(lhs.end(), rest.begin(), rest.end());
    f(lhs) = coefficient(q, sigma, 0) * in + feedback_term(coefficient(q, sigma, 2), earlier(1)) +
             feedback_term(coefficient(q, sigma, 1), earlier(0));
    return r;
}

}  // namespace

int TwoWayBlockMatrices::rows() const { return TiledLayout{b, K}.rows(); }

TwoWayBlockMatrices two_way_block_matrices(const std::string &name,
                                           const std::vector<TwoWaySection> &sections, int b) {
    const int S = int(sections.size()), K = 2 * S, Q = TiledLayout::kChunk;
    TwoWayBlockMatrices m;
    m.b = b;
    m.K = K;
    Var k("k"), column("column"), row("row"), v("v");
    m.unit_in = Func(name + "_unit_in");
    m.unit_in_scan = section_scans(
        m.unit_in, {k}, sections, b, true, [](Expr) { return Expr(0.0f); },
        [&](Expr sigma, Expr d) { return select(2 * sigma + d == k, 1.0f, 0.0f); });
    m.unit_out = Func(name + "_unit_out");
    m.unit_out_scan = section_scans(
        m.unit_out, {k}, sections, b, false, [&](Expr i) { return m.unit_in(i, S - 1, k); }, nullptr);
    // Leaving states (r = 2σ + d): inward at i = d, outward at i = b − 1 − d.
    auto M = [&](Expr r, Expr k) { return m.unit_in(r % 2, r / 2, k); };
    // M^(v+1) = M·M^v.
    Var r("r");
    m.powers = Func(name + "_powers");
    m.powers(r, k, v) = M(r, k);
    m.power_steps = RDom(0, K, 1, Q - 1, name + "_power_steps");
    Expr pr = m.power_steps.x, pv = m.power_steps.y;
    Expr product = 0.0f;
    for (int k2 = 0; k2 < K; k2++) product += M(pr, k2) * m.powers(k2, k, pv - 1);
    m.powers(pr, k, pv) = product;

    const TiledLayout L{b, K};
    Expr rr = row % K, block_row = row / K, d = rr % 2;
    Expr power = clamp(block_row - L.mf_power(0) / K, 0, 2 * Q - 1) % Q;
    Expr is_power = block_row >= L.mf_power(0) / K && block_row < L.rows() / K;
    m.table = Func(name + "_block_matrices");
    m.table(column, row) =
        select(block_row <= 1 || is_power, m.powers(rr, column, select(is_power, power, 0)),
               block_row == L.mc(0) / K, m.unit_out(b - 1 - d, rr / 2, column), 0.0f);
    return m;
}

TwoWayTiledStep two_way_tiled_step(Func out, Func in, Dim dim, Expr extent, Expr lines,
                                   const std::vector<TwoWaySection> &q, Func kernel, Expr radius,
                                   const TwoWayBlockMatrices &matrices, int b, bool scatter) {
    const std::string name = out.name();
    const int S = int(q.size()), K = 2 * S;
    TwoWayTiledStep step;
    step.dim = dim;
    step.b = b;
    step.K = K;
    Var i("i"), t("t"), s("s"), o("o"), c("c"), k("k"), x("x"), y("y");
    const std::vector<Var> rest{t, s, o, c};
    Expr m = extent / 2, half = m;
    auto length = [&](Expr side) { return select(side == 0, m, extent - 1 - m); };  // samples in a half
    auto position = [&](Expr side, Expr j) { return select(side == 0, m - j, m + j); };
    // At least one block, so that a line of one sample (no halves) has carries to read.
    Expr T = max((half + b - 1) / b, 1);

    step.centre = two_way_centre(name, in, dim, extent, kernel, radius, nullptr, step.centre_taps);

    // Sample i of block t of half s, zero past the half's end.
    {
        Expr j = t * b + i + 1;
        step.samples = Func(name + "_samples");
        step.samples(i, t, s, o, c) =
            select(j <= length(s), line_sample(in, dim, clamp(position(s, j), 0, extent - 1), o, c), 0.0f);
    }
    auto samples = [&](Expr position) { return step.samples(position, t, s, o, c); };

    // 1. Each block from zero states: the inward scan, the outward scan of it; their leaving states.
    step.edge_in = Func(name + "_edge_in");
    step.edge_in_scan = section_scans(step.edge_in, rest, q, b, true, samples, nullptr);
    step.edge_out = Func(name + "_edge_out");
    step.edge_out_scan = section_scans(
        step.edge_out, rest, q, b, false,
        [&](Expr position) { return step.edge_in(position, S - 1, t, s, o, c); }, nullptr);
    Expr sigma = (k % K) / 2, d = k % 2;
    step.edges = Func(name + "_edges");
    step.edges(k, t, s, o, c) =
        select(k < K, step.edge_in(d, sigma, t, s, o, c), step.edge_out(b - 1 - d, sigma, t, s, o, c));

    // 2. The carries, completed by tile_scans.h over the lines (o, clamped: its kernels take whole
    // groups of lines) and channels s + 2c.
    const TiledLayout L{b, K};
    Var line("line"), state("state"), block("block"), sc("sc");
    Expr o_read = min(line, lines - 1), s_read = sc % 2, c_read = sc / 2;
    Func inward_edges(name + "_inward_edges");
    inward_edges(line, state, block, sc) = step.edges(state, block, s_read, o_read, c_read);
    step.inward =
        complete_epilogues(name + "_inward", inward_edges, nullptr, matrices.table, L, T, CarryForm::powers);
    // P(t) = B(t + 1): B̄(t) + Mc·A(t), and from the seed M·B(0) entering the first.
    Func outward_edges(name + "_outward_edges");
    Expr seed = step.centre(o_read, c_read);
    outward_edges(line, state, block, sc) =
        step.edges(K + state, block, s_read, o_read, c_read) +
        times_state(matrices.table, L.mc(0) + state, K,
                    [&](int k2) { return step.inward.func(line, k2, block, sc); }) +
        select(block == 0, times_state(matrices.table, L.mf() + state, K, [&](int) { return seed; }), 0.0f);
    step.outward =
        complete_prologues(name + "_outward", outward_edges, matrices.table, L, T, CarryForm::powers);
    step.carries = completed_carries(name + "_carries", step.inward, step.outward);

    // 3. Each block seeded with its carries.
    step.final_in = Func(name + "_final_in");
    step.final_in_scan = section_scans(step.final_in, rest, q, b, true, samples, [&](Expr sigma, Expr d) {
        return step.carries(o, 2 * sigma + d, t, s + 2 * c);
    });
    step.final_out = Func(name + "_final_out");
    step.final_out_scan = section_scans(
        step.final_out, rest, q, b, false,
        [&](Expr position) { return step.final_in(position, S - 1, t, s, o, c); },
        [&](Expr sigma, Expr d) {
            return earlier_output(t > 0, step.carries(o, K + 2 * sigma + d, max(t - 1, 0), s + 2 * c),
                                  step.centre(o, c));
        });
    step.folded = Func(name + "_folded");
    step.folded(i, t, s, o, c) = step.final_out(i, S - 1, t, s, o, c);

    Expr p = dim == Dim::y ? Expr(y) : Expr(x), line_index = dim == Dim::y ? Expr(x) : Expr(y);
    auto at = [&](Expr along, Expr across) {  // out's arguments
        return dim == Dim::y ? std::vector<Expr>{across, along, c} : std::vector<Expr>{along, across, c};
    };
    if (!scatter) {
        // Reassembled where read: left half, centre point, right half (one load: the next step's
        // threads each read one line, on one side of the branch).
        Expr j = max(select(p < m, m - p, p - m), 1) - 1;
        out(x, y, c) =
            earlier_output(p != m, step.folded(j % b, min(j / b, T - 1), select(p < m, 0, 1), line_index, c),
                           step.centre(line_index, c));
    } else {
        // Written block by block (every sample by one of the updates, none by the pure definition).
        Var line_var = dim == Dim::y ? x : y;
        out(x, y, c) = undef<float>();
        step.written = RDom(0, b, 0, T, 0, 2, name + "_written");
        Expr wi = step.written.x, wt = step.written.y, ws = step.written.z, j = wt * b + wi + 1;
        step.written.where(j <= length(ws));
        // (The clamp bounds the writes for bounds inference, which does not read the predicate.)
        out(at(clamp(position(ws, j), 0, extent - 1), line_var)) = step.folded(wi, wt, ws, line_var, c);
        out(at(m, line_var)) = step.centre(line_var, c);
    }
    step.out = out;
    return step;
}

}  // namespace cascade
