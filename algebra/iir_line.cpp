#include "iir_line.h"

#include <functional>
#include <stdexcept>
#include <string>

#include "algebra/earlier_output.h"
#include "algebra/feedback_term.h"

namespace cascade {

using namespace Halide;

namespace {

// The state entering a block (state index → value), read from its seed rows; none: zero.
struct LineSeeds {
    std::function<Expr(Expr)> prologue, epilogue;
};

// Adds to `x` the in-place scans of every block: the causal sections, then with `anticausal` the
// anticausal ones, the first of which sees zeros from sample `valid` of the block on (past the
// signal's end). Section j's state is the K = S·q state's entries [j·q, j·q + q): the last q
// causal outputs y_j[b − q …] (prologue), or the first q anticausal outputs z_j[0 …] (epilogue,
// after the prologue's K entries). With `capture`, each section's state is copied right after its
// scan to rows b + s of the block, where the edge pass reads it.
void add_scans(LineBlocks &x, const SectionCascade &f, int b, Expr valid, bool anticausal,
               const LineSeeds &seeds, bool capture) {
    Func func = x.func;
    const std::vector<Var> a = func.args();  // i, t, c
    const Var t = a[1], c = a[2];
    const int q = f.order(), K = f.state();
    RDom r(0, b, func.name() + "_scan");
    RDom rc(0, q, func.name() + "_capture");
    auto seed = [&](const std::function<Expr(Expr)> &from, int j, Expr offset) {
        return from ? from(clamp(j * q + offset, j * q, j * q + q - 1)) : Expr(0.0f);
    };
    auto gain = [&](int j) { return j == 0 ? f.gain : Expr(1.0f); };
    auto update = [&](const RDom &d) { x.updates.push_back({func.num_update_definitions(), d.x}); };

    for (int j = 0; j < f.sections(); j++) {
        Expr p = r.x;
        Expr value = gain(j) * func(p, t, c);
        // Before the block: y_j[p − k], p − k ∈ [−q, −1], from the prologue.
        for (int k = q; k >= 1; k--)
            value +=
                feedback_term(f.feedback[j][k - 1], earlier_output(likely(p >= k), func(max(p - k, 0), t, c),
                                                                   seed(seeds.prologue, j, q + p - k)));
        update(r);
        func(p, t, c) = value;
        if (capture) {
            update(rc);
            func(b + j * q + rc.x, t, c) = func(b - q + rc.x, t, c);
        }
    }
    if (!anticausal) return;
    for (int j = 0; j < f.sections(); j++) {
        Expr p = b - 1 - r.x;
        Expr in = func(p, t, c);
        if (j == 0) in = select(p < valid, in, 0.0f);
        Expr value = gain(j) * in;
        // Past the block: z_j[p + k], p + k ∈ [b, b + q), from the epilogue.
        for (int k = q; k >= 1; k--)
            value += feedback_term(f.feedback[j][k - 1],
                                   earlier_output(likely(p + k < b), func(min(p + k, b - 1), t, c),
                                                  seed(seeds.epilogue, j, p + k - b)));
        update(r);
        func(p, t, c) = value;
        if (capture) {
            update(rc);
            func(b + K + j * q + rc.x, t, c) = func(rc.x, t, c);
        }
    }
}

// The completion of S(k) = M·S(k − 1) + u(k) over `items` items (LineCompletion). The step
// matrix of level l is the table's rows `power_row(l)`…, its powers M^(C^l·(v+1)) the rows
// power_row(l) + v·K….
LineCompletion complete_carries(const std::string &name, Func u, Expr items, Func table,
                                const std::function<int(int)> &power_row, int K, int C, int levels) {
    Var s("s"), k("k"), j("j"), n("n"), c("c");
    LineCompletion p;
    p.K = K;
    p.C = C;
    std::vector<Func> inputs{u};
    std::vector<Expr> counts{items};
    for (int l = 0; l < levels; l++) {
        const std::string level = name + "_" + std::to_string(l);
        ChunkLevel lv;
        lv.within = Func(level + "_within");
        lv.within(n, j, c) = undef<float>();
        lv.steps = RDom(0, K, 0, C, level + "_steps");
        Expr ws = lv.steps.x, v = lv.steps.y, item = j * C + v, count = counts.back();
        Expr input = select(item < count, inputs.back()(ws, clamp(item, 0, count - 1), c), 0.0f);
        Expr previous = times_state(table, power_row(l) + ws, K, [&](int s2) {
            return earlier_output(v > 0, lv.within(max(v - 1, 0) * K + s2, j, c));
        });
        lv.within(v * K + ws, j, c) = input + previous;
        lv.local = Func(level + "_local");
        lv.local(n, j, c) = lv.within(n, j, c);
        lv.local.bound(n, 0, C * K);
        // The chunks' end states, from zero: the next level's items (past the last item, the
        // scan went on over zero inputs; only chunks after it, which do not exist, read that).
        Func ends(level + "_ends");
        ends(s, j, c) = lv.local((C - 1) * K + s, j, c);
        inputs.push_back(ends);
        counts.push_back((count + C - 1) / C);
        p.levels.push_back(lv);
    }

    // The top: a serial scan over what is left.
    p.top = Func(name + "_top");
    p.top(n, c) = undef<float>();
    p.top_steps = RDom(0, K, 0, counts.back(), name + "_top_steps");
    Expr ts = p.top_steps.x, tk = p.top_steps.y;
    p.top(tk * K + ts, c) =
        inputs.back()(ts, tk, c) + times_state(table, power_row(levels) + ts, K, [&](int s2) {
            return earlier_output(tk > 0, p.top(max(tk - 1, 0) * K + s2, c));
        });
    p.complete.resize(levels + 1);
    p.complete[levels] = Func(name + "_complete_" + std::to_string(levels));
    p.complete[levels](s, k, c) = p.top(k * K + s, c);

    // Back down: an item's state is its chunk's scan plus the power of M that carries the state
    // entering its chunk to it.
    for (int l = levels - 1; l >= 0; l--) {
        Expr v = k % C, chunk = k / C;
        Expr entering = times_state(table, power_row(l) + v * K + s, K, [&](int s2) {
            return select(chunk > 0, p.complete[l + 1](s2, max(chunk - 1, 0), c), 0.0f);
        });
        p.complete[l] = Func(name + "_complete_" + std::to_string(l));
        p.complete[l](s, k, c) = p.levels[l].local(v * K + s, chunk, c) + entering;
    }
    return p;
}

LineBlocks new_blocks(const std::string &name, int rows) {
    LineBlocks x;
    x.func = Func(name);
    x.rows = rows;
    return x;
}

}  // namespace

IirLineFuncs define_iir_line(Func input, Expr length, Func output, const SectionCascade &filter, Func table,
                             int b, int algorithm, int chunk, int levels) {
    if (algorithm != 1 && algorithm != 3) throw std::invalid_argument("the 1D block algorithms are 1 and 3");
    if (filter.order() > b)
        throw std::invalid_argument("the block must be at least as long as a section's order");
    if (chunk < 2 || levels < 0) throw std::invalid_argument("the completion needs chunks of 2 or more");
    IirLineFuncs f;
    f.b = b;
    f.algorithm = algorithm;
    const int K = f.K = filter.state();
    const bool anticausal = algorithm == 3;
    const int carries = anticausal ? 2 * K : K;
    const LineLayout L{K, chunk, levels};
    Var n = f.n = Var("n"), c = f.c = Var("c"), i = f.i = Var("i"), t = f.t = Var("t"), s = f.s = Var("s");
    Var k("k");
    const Expr T = (length + b - 1) / b;  // blocks
    const Expr valid = length - t * b;    // samples of block t in the signal

    // X(i, t) = x[t·b + i]: a function of the block and the sample in it, so that a GPU thread's
    // loads of one sample of consecutive blocks are bounded by a small box.
    f.blocks = Func("blocks");
    Expr at = t * b + i;
    f.blocks(i, t, c) = select(at < length, input(clamp(at, 0, length - 1), c), 0.0f);

    // 1. Per block, from zero state: scan, capture the carries.
    f.edge_blocks = new_blocks("edge_blocks", b + carries);
    f.edge_blocks.func(i, t, c) = f.blocks(i, t, c);
    add_scans(f.edge_blocks, filter, b, valid, anticausal, LineSeeds{}, true);
    f.edges = Func("edges");
    f.edges(s, t, c) = f.edge_blocks.func(b + s, t, c);
    f.edges.bound(s, 0, carries);

    // 2. The carries, completed across blocks. P(t) leaves block t; E(t) enters block t from
    // after it: E(t) = Ē(t + 1) + Mc·P(t) + Mr·E(t + 1) (the last block's Mc for t + 1 = T − 1,
    // the block that ends the signal), E(T − 1) = 0: a recurrence over k = T − 1 − t.
    Func prologue_input("prologue_input");
    prologue_input(s, k, c) = f.edges(s, k, c);
    f.prologue = complete_carries(
        "prologue", prologue_input, T, table, [&](int l) { return L.f_power(l); }, K, chunk, levels);
    f.prologue.carries = f.prologue.complete[0];
    if (anticausal) {
        Expr before = T - 1 - k;  // the block E enters from after
        Expr next = min(before + 1, T - 1);
        // Both products, so that the table's loads do not depend on the block (and are hoisted).
        auto from = [&](int row) {
            return times_state(table, row + s, K, [&](int s2) { return f.prologue.carries(s2, before, c); });
        };
        Expr from_prologue = select(next == T - 1, from(L.mc(1)), from(L.mc(0)));
        f.epilogue_input = Func("epilogue_input");
        f.epilogue_input(s, k, c) = select(before < T - 1, f.edges(K + s, next, c) + from_prologue, 0.0f);
        f.epilogue = complete_carries(
            "epilogue", f.epilogue_input, T, table, [&](int l) { return L.r_power(l); }, K, chunk, levels);
        f.epilogue.carries = Func("epilogue_carries");
        f.epilogue.carries(s, t, c) = f.epilogue.complete[0](s, clamp(T - 1 - t, 0, T - 1), c);
    }

    // 3. Per block: copy the complete carries entering it to rows b + s (so that their loads
    // overlap instead of each stalling a scan's first step), scan seeded with them, write.
    f.final_blocks = new_blocks("final_blocks", b + carries);
    LineBlocks &x = f.final_blocks;
    x.func(i, t, c) = f.blocks(i, t, c);
    RDom rs(0, carries, "final_blocks_seeds");
    // The GPU pass covers whole groups of blocks, past the signal's last block T − 1: those blocks'
    // (unused) seeds are not read at all, as Halide computes the carries only as far as the blocks
    // that write outputs need them (initcheck found the slot past them read).
    Expr prologue_seed =
        earlier_output(t > 0 && t < T, f.prologue.carries(min(rs.x, K - 1), clamp(t - 1, 0, T - 1), c));
    Expr seed = prologue_seed;
    if (anticausal)
        seed = select(rs.x < K, prologue_seed, f.epilogue.carries(clamp(rs.x - K, 0, K - 1), t, c));
    x.updates.push_back({x.func.num_update_definitions(), rs.x});
    x.func(b + rs.x, t, c) = seed;
    Func staged = x.func;
    LineSeeds seeds{[=](Expr st) { return staged(b + st, t, c); },
                    [=](Expr st) { return staged(b + K + st, t, c); }};
    add_scans(x, filter, b, valid, anticausal, seeds, false);
    f.output = output;
    output(n, c) = x.func(n % b, n / b, c);
    return f;
}

}  // namespace cascade
