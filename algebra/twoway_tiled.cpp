#include "twoway_tiled.h"

#include <functional>

#include "algebra/earlier_output.h"
#include "algebra/feedback_term.h"

namespace cascade {

using namespace Halide;

namespace {

// Section σ's coefficient `part` (0 gain, 1 a1, 2 a2), σ a run-time index into the cascade.
Expr coefficient(const std::vector<TwoWaySection> &q, Expr sigma, int part) {
    std::vector<Expr> values;
    for (const TwoWaySection &p : q) values.push_back(part == 0 ? p.gain : part == 1 ? p.a1 : p.a2);
    return values.size() == 1 ? values[0] : mux(sigma, values);
}

// Where each section's states sit among the K carried: two for a second-order section, one for
// a first-order one (its a2 the constant zero), its outputs 1 and 2 samples back in that order.
struct States {
    std::vector<int> first, order;
    int K = 0;
    explicit States(const std::vector<TwoWaySection> &q) {
        for (const TwoWaySection &p : q) {
            first.push_back(K);
            order.push_back(is_const_zero(p.a2) ? 1 : 2);
            K += order.back();
        }
    }
    // The state of section σ (a run-time index) d + 1 samples back: `index` its place, `exists`
    // whether a section of that order keeps it.
    Expr index(Expr sigma, Expr d) const { return clamp(pick(first, sigma) + d, 0, K - 1); }
    Expr exists(Expr sigma, Expr d) const { return d < pick(order, sigma); }
    // State k's section and lag.
    Expr sigma_of(Expr k) const {
        return pick_state(k, [&](int s, int) { return s; });
    }
    Expr lag_of(Expr k) const {
        return pick_state(k, [&](int, int d) { return d; });
    }

private:
    static Expr pick(const std::vector<int> &v, Expr i) {
        std::vector<Expr> e(v.begin(), v.end());
        return e.size() == 1 ? e[0] : mux(i, e);
    }
    Expr pick_state(Expr k, const std::function<int(int, int)> &f) const {
        std::vector<Expr> e;
        for (size_t s = 0; s < first.size(); s++)
            for (int d = 0; d < order[s]; d++) e.push_back(f(int(s), d));
        return e.size() == 1 ? e[0] : mux(k, e);
    }
};

// Every section of `q` in cascade over a block, sample by sample (the section innermost), as the
// update of `f` (i, σ, rest...): inward from i = b − 1 down to 0, outward from 0 up. `input(i)`
// feeds section 0; `seed(σ, d)` is section σ's output d + 1 samples before the scan's first, zero
// where it is empty.
using Samples = std::function<Expr(Expr)>;
using Seed = std::function<Expr(Expr, Expr)>;
// Where every section's output is set rather than scanned: (whether, the value) at a position.
using Pin = std::function<std::pair<Expr, Expr>(Expr)>;
RDom section_scans(Func f, const std::vector<Var> &rest, const std::vector<TwoWaySection> &q, int b,
                   bool inward, const Samples &input, const Seed &seed, const Pin &pin = nullptr) {
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
    Expr scanned = coefficient(q, sigma, 0) * in + feedback_term(coefficient(q, sigma, 2), earlier(1)) +
                   feedback_term(coefficient(q, sigma, 1), earlier(0));
    if (pin) {
        auto [pinned, value] = pin(position);
        scanned = select(pinned, value, scanned);
    }
    f(lhs) = scanned;
    return r;
}

}  // namespace

int TwoWayBlockMatrices::first_right() const { return TiledLayout{b, K}.rows(); }
int TwoWayBlockMatrices::rows() const { return first_right() + 2 * K; }

TwoWayBlockMatrices two_way_block_matrices(const std::string &name,
                                           const std::vector<TwoWaySection> &sections, int b) {
    const States states(sections);
    const int S = int(sections.size()), K = states.K, Q = TiledLayout::kChunk;
    TwoWayBlockMatrices m;
    m.b = b;
    m.K = K;
    Var k("k"), column("column"), row("row"), v("v");
    m.unit_in = Func(name + "_unit_in");
    m.unit_in_scan = section_scans(
        m.unit_in, {k}, sections, b, true, [](Expr) { return Expr(0.0f); },
        [&](Expr sigma, Expr d) {
            return select(states.exists(sigma, d) && states.index(sigma, d) == k, 1.0f, 0.0f);
        });
    m.unit_out = Func(name + "_unit_out");
    m.unit_out_scan = section_scans(
        m.unit_out, {k}, sections, b, false, [&](Expr i) { return m.unit_in(i, S - 1, k); }, nullptr);
    // The same past the block's first sample, whose outputs the right half's first block sets.
    m.unit_out_tail = Func(name + "_unit_out_tail");
    m.unit_out_tail_scan = section_scans(
        m.unit_out_tail, {k}, sections, b, false,
        [&](Expr i) { return select(i > 0, m.unit_in(i, S - 1, k), 0.0f); }, nullptr);
    // Leaving states (state r of section σ, d samples back): inward at i = d, outward at b − 1 − d.
    auto M = [&](Expr r, Expr k) { return m.unit_in(states.lag_of(r), states.sigma_of(r), k); };
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
    Expr rr = row % K, block_row = row / K;
    Expr power = clamp(block_row - L.mf_power(0) / K, 0, 2 * Q - 1) % Q;
    Expr is_power = block_row >= L.mf_power(0) / K && block_row < L.rows() / K;
    m.table = Func(name + "_block_matrices");
    Expr lag = states.lag_of(rr), sigma = states.sigma_of(rr);
    m.table(column, row) =
        select(block_row <= 1 || is_power, m.powers(rr, column, select(is_power, power, 0)),
               block_row == L.mc(0) / K, m.unit_out(b - 1 - lag, sigma, column),
               row >= m.first_right() && row < m.first_right() + K, m.unit_in(1 + lag, sigma, column),
               row >= m.first_right() + K, m.unit_out_tail(b - 1 - lag, sigma, column), 0.0f);
    return m;
}

TwoWayTiledStep two_way_tiled_step(Func out, Func in, Dim dim, Expr extent, Expr lines,
                                   const std::vector<TwoWaySection> &q, Func kernel, Expr radius,
                                   const TwoWayBlockMatrices &matrices, int b, bool scatter) {
    const std::string name = out.name();
    const States states(q);
    const int S = int(q.size()), K = states.K;
    TwoWayTiledStep step;
    step.dim = dim;
    step.b = b;
    step.K = K;
    Var i("i"), t("t"), s("s"), o("o"), c("c"), k("k"), x("x"), y("y");
    const std::vector<Var> rest{t, s, o, c};
    Expr m = extent / 2;
    // A half's samples: the left's before the centre, the right's from it on.
    auto length = [&](Expr side) { return select(side == 0, m, extent - m); };
    // Sample `index` of a half, counted from the centre.
    auto position = [&](Expr side, Expr index) { return select(side == 0, m - 1 - index, m + index); };
    Expr T = max((extent - m + b - 1) / b, 1);

    step.centre = two_way_centre(name, in, dim, extent, kernel, radius, nullptr, step.centre_taps);

    // Sample i of block t of half s, zero past the half's end.
    {
        Expr index = t * b + i;
        step.samples = Func(name + "_samples");
        step.samples(i, t, s, o, c) = select(
            index < length(s), line_sample(in, dim, clamp(position(s, index), 0, extent - 1), o, c), 0.0f);
    }
    // The right half's first sample is the centre: its outward outputs are set to the seed.
    auto centre_pin = [&](Expr value) {
        return [&, value](Expr position) {
            return std::pair<Expr, Expr>(t == 0 && s == 1 && position == 0, value);
        };
    };
    auto samples = [&](Expr position) { return step.samples(position, t, s, o, c); };

    // 1. Each block from zero states: the inward scan, the outward scan of it; their leaving states.
    step.edge_in = Func(name + "_edge_in");
    step.edge_in_scan = section_scans(step.edge_in, rest, q, b, true, samples, nullptr);
    step.edge_out = Func(name + "_edge_out");
    step.edge_out_scan = section_scans(
        step.edge_out, rest, q, b, false,
        [&](Expr position) { return step.edge_in(position, S - 1, t, s, o, c); }, nullptr, centre_pin(0.0f));
    Expr sigma = states.sigma_of(k % K), d = states.lag_of(k % K);
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
    // P(t) = B(t + 1): B̄(t) + Mc·A(t), and from the seed M·B(0) entering the first. The right
    // half's first block scans from its second sample, the seed set at its first: its matrices
    // are those of b − 1 steps (TwoWayBlockMatrices::first_right).
    Func outward_edges(name + "_outward_edges");
    Expr seed = step.centre(o_read, c_read), first_right = block == 0 && s_read == 1;
    Expr mc_row = select(first_right, matrices.first_right() + K, L.mc(0));
    Expr m_row = select(first_right, matrices.first_right(), L.mf());
    outward_edges(line, state, block, sc) =
        step.edges(K + state, block, s_read, o_read, c_read) +
        times_state(matrices.table, mc_row + state, K,
                    [&](int k2) { return step.inward.func(line, k2, block, sc); }) +
        select(block == 0, times_state(matrices.table, m_row + state, K, [&](int) { return seed; }), 0.0f);
    step.outward =
        complete_prologues(name + "_outward", outward_edges, matrices.table, L, T, CarryForm::powers);
    step.carries = completed_carries(name + "_carries", step.inward, step.outward);

    // 3. Each block seeded with its carries.
    step.final_in = Func(name + "_final_in");
    step.final_in_scan = section_scans(step.final_in, rest, q, b, true, samples, [&](Expr sigma, Expr d) {
        return earlier_output(states.exists(sigma, d), step.carries(o, states.index(sigma, d), t, s + 2 * c));
    });
    step.final_out = Func(name + "_final_out");
    step.final_out_scan = section_scans(
        step.final_out, rest, q, b, false,
        [&](Expr position) { return step.final_in(position, S - 1, t, s, o, c); },
        [&](Expr sigma, Expr d) {
            Expr carried = step.carries(o, K + states.index(sigma, d), max(t - 1, 0), s + 2 * c);
            return earlier_output(t > 0, earlier_output(states.exists(sigma, d), carried), step.centre(o, c));
        },
        centre_pin(step.centre(o, c)));
    step.folded = Func(name + "_folded");
    step.folded(i, t, s, o, c) = step.final_out(i, S - 1, t, s, o, c);

    Expr p = dim == Dim::y ? Expr(y) : Expr(x), line_index = dim == Dim::y ? Expr(x) : Expr(y);
    auto at = [&](Expr along, Expr across) {  // out's arguments
        return dim == Dim::y ? std::vector<Expr>{across, along, c} : std::vector<Expr>{along, across, c};
    };
    if (!scatter) {
        // Reassembled where read: the left half, then the right from the centre on.
        Expr side = select(p < m, 0, 1), index = clamp(select(p < m, m - 1 - p, p - m), 0, T * b - 1);
        out(x, y, c) = step.folded(index % b, index / b, side, line_index, c);
    } else {
        // Written block by block (every sample by the update, none by the pure definition).
        Var line_var = dim == Dim::y ? x : y;
        out(x, y, c) = undef<float>();
        step.written = RDom(0, b, 0, T, 0, 2, name + "_written");
        Expr wi = step.written.x, wt = step.written.y, ws = step.written.z, index = wt * b + wi;
        step.written.where(index < length(ws));
        // (The clamp bounds the writes for bounds inference, which does not read the predicate.)
        out(at(clamp(position(ws, index), 0, extent - 1), line_var)) = step.folded(wi, wt, ws, line_var, c);
    }
    step.out = out;
    return step;
}

}  // namespace cascade
