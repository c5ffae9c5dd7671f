#include "tile_scans.h"

#include "algebra/samples.h"
#include "earlier_output.h"
#include "feedback_term.h"

namespace cascade {

using namespace Halide;

TileScans new_tile(const std::string &name, int columns, int rows) {
    TileScans t;
    t.func = Func(name);
    t.columns = columns;
    t.rows = rows;
    return t;
}

namespace {

// Zero as an int constant: the select it meets casts it to the samples' type.
Expr seed_or_zero(const Seed &seed, Expr across, Expr s) { return seed ? seed(across, s) : Expr(0); }

// Section j's state index s = j·q + offset, offset ∈ [0, q).
Expr state_index(int j, int q, Expr offset) { return clamp(j * q + offset, j * q, j * q + q - 1); }

}  // namespace

TileScanner::TileScanner(TileScans &t, Dim dim, int b, int q, bool bounded)
    : t_(t), dim_(dim), b_(b), q_(q), along_(dim == Dim::y ? 1 : 0), bounded_(bounded), args_(t.func.args()) {
    const std::string name = t.func.name() + (dim == Dim::y ? "_down" : "_across");
    r_ = bounded ? RDom(0, b, 0, b, name) : RDom(0, b, name);
    rc_ = bounded ? RDom(0, q, 0, b, name + "_capture") : RDom(0, q, name + "_capture");
}

std::vector<Expr> TileScanner::at(Expr p, const RDom &d) const {
    std::vector<Expr> a(args_.begin(), args_.end());
    a[along_] = p;
    if (bounded_) a[1 - along_] = d.y;
    return a;
}

Expr TileScanner::across() const { return bounded_ ? Expr(r_.y) : Expr(args_[1 - along_]); }

void TileScanner::record(const RDom &d) {
    const VarOrRVar across = bounded_ ? VarOrRVar(d.y) : VarOrRVar(args_[1 - along_]);
    t_.updates.push_back({t_.func.num_update_definitions(), dim_ == Dim::y, d.x, across});
}

Expr TileScanner::scan_gain(const SectionCascade &f) const {
    if (!t_.gain_in_samples.defined()) return f.gain;
    return select(t_.gain_in_samples, Internal::make_one(f.gain.type()), f.gain);
}

void TileScanner::causal(const SectionCascade &f, Expr valid, const Seed &prologue, bool capture,
                         bool exact) {
    const int q = q_, b = b_;
    const RDom &r = r_, &rc = rc_;
    // Where the anticausal sections enter: the tile's end, or with `exact` the image's end.
    const Expr end = exact ? min(valid, b) : Expr(b);
    const Expr gain = scan_gain(f);
    for (int j = 0; j < f.sections(); j++) {
        Expr p = r.x;
        Expr value = (j == 0 ? gain : Expr(1.0f)) * t_.func(at(p, r));
        // The nearest output last: one FMA from it to the next.
        for (int k = q; k >= 1; k--) {
            // Before the tile: the prologue, y_j[p − k] with p − k ∈ [−q, −1].
            Expr seed = seed_or_zero(prologue, across(), state_index(j, q, q + p - k));
            value += feedback_term(f.feedback[j][k - 1],
                                   select(likely(p >= k), t_.func(at(max(p - k, 0), r)), seed));
        }
        record(r);
        t_.func(at(p, r)) = value;
        if (capture) {
            record(rc);
            Expr row = end - q + rc.x;  // before the tile: the zero prologue
            Expr captured = t_.func(at(b - q + rc.x, rc));
            if (exact && t_.in_registers) {
                // The image's last sample may fall anywhere in the tile: a select over every
                // position, which folds to one term where the tile is whole (the `full`
                // specialization). The rows stay in registers: 40.1 GiP/s at 5000×3001 on an H100,
                // 6-order3-clamp (a run-time index sends them to local memory: 34.1).
                captured = Internal::make_zero(captured.type());
                for (int at_p = 0; at_p < b; at_p++)
                    captured = select(row == at_p, t_.func(at(at_p, rc)), captured);
            } else if (exact) {
                captured = select(row >= 0, t_.func(at(clamp(row, 0, b - 1), rc)), 0);
            }
            t_.func(at(b + j * q + rc.x, rc)) = captured;
        }
    }
}

void TileScanner::anticausal(const SectionCascade &f, Expr valid, const Seed &epilogue, bool capture,
                             bool exact) {
    const int q = q_, b = b_, K = f.state();
    const RDom &r = r_, &rc = rc_;
    const Expr end = exact ? min(valid, b) : Expr(b);
    for (int j = 0; j < f.sections(); j++) {
        Expr p = b - 1 - r.x;
        Expr in = t_.func(at(p, r));
        if (j == 0) in = select(p < valid, in, 0);
        Expr value = (j == 0 ? scan_gain(f) : Expr(1.0f)) * in;
        for (int k = q; k >= 1; k--) {
            // Past the tile (image): the epilogue, z_j[p + k] with p + k ∈ [end, end + q).
            Expr seed = seed_or_zero(epilogue, across(), state_index(j, q, p + k - end));
            Expr inside = exact ? p + k < end : likely(p + k < b);
            value +=
                feedback_term(f.feedback[j][k - 1], select(inside, t_.func(at(min(p + k, b - 1), r)), seed));
        }
        record(r);
        t_.func(at(p, r)) = value;
        if (capture) {
            record(rc);
            // Past the image: the zero epilogue.
            t_.func(at(b + K + j * q + rc.x, rc)) =
                exact ? select(rc.x < end, t_.func(at(rc.x, rc)), 0) : t_.func(at(rc.x, rc));
        }
    }
}

void add_scans(TileScans &t, Dim dim, const SectionCascade &f, int b, Expr valid, const Seeds &seeds,
               bool capture, bool bounded, bool exact) {
    TileScanner scan(t, dim, b, f.order(), bounded);
    scan.causal(f, valid, seeds.prologue, capture, exact);
    scan.anticausal(f, valid, seeds.epilogue, capture, exact);
}

StagedSeeds stage_seeds(TileScans &t, const Seeds &column, int KV, const Seeds &row, int KH) {
    const std::vector<Var> a = t.func.args();  // xi, yi, tx, ty, c
    Var i("i"), s("s");
    const int KC = column.prologue ? KV : 0, KR = row.prologue ? KH : 0;
    t.seeds = Func(t.func.name() + "_seeds");
    t.seed_count = 2 * (KC + KR);
    // One seed of dimension `seeds` at offset k ∈ [0, 2K).
    auto one = [&](const Seeds &seeds, int K, Expr k) {
        return select(k < K, seeds.prologue(i, clamp(k, 0, K - 1)),
                      seeds.epilogue(i, clamp(k - K, 0, K - 1)));
    };
    Expr value;
    if (KC && KR) {
        value = select(s < 2 * KC, one(column, KC, s), one(row, KR, s - 2 * KC));
    } else {
        value = KC ? one(column, KC, s) : one(row, KR, s);
    }
    t.seeds(i, s, a[2], a[3], a[4]) = value;
    Func staged = t.seeds;
    auto reader = [=](int first) {
        return [=](Expr across, Expr st) { return staged(across, first + st, a[2], a[3], a[4]); };
    };
    StagedSeeds out;
    if (KC) out.column = Seeds{reader(0), reader(KC)};
    if (KR) out.row = Seeds{reader(2 * KC), reader(2 * KC + KR)};
    return out;
}

Expr entry(Func table, Expr column, Expr row) { return table(column, row); }

Expr times_state(Func table, Expr row, int K, std::function<Expr(int)> state) {
    Expr acc;
    for (int s2 = 0; s2 < K; s2++) acc = plus(acc, entry(table, s2, row) * state(s2));
    return acc;
}

namespace {

// Halide's recursive references must keep the pure variables in place, so a state vector cannot
// be a pure dimension: the scans run over (s, step) flattened to step·K + s.
Var i("i"), n("n"), j("j"), c("c"), s("s"), t("t");

// Step v of chunk `chunk`: its tile, and u's value there, zero past the last tile. The epilogues'
// input is defined past it (complete_epilogues): read there unclamped and masked by a product, not
// a select (which bounds inference would use to trim the reads), a chunk of epilogues reads
// exactly one chunk of prologues, which a GPU thread then keeps in registers (CarryForm::rescan).
Expr tile_at(const CarryScan &p, Expr chunk, Expr v) {
    constexpr int Q = TiledLayout::kChunk;
    return p.reverse ? chunk * Q + (Q - 1 - v) : chunk * Q + v;
}
Expr input_at(const CarryScan &p, Func u, Expr chunk, Expr v, Expr st) {
    Expr tile = tile_at(p, chunk, v);
    if (p.reverse) return u(i, st, tile, c) * select(tile < p.tiles, 1.0f, 0);
    return select(tile < p.tiles, u(i, st, min(tile, p.tiles - 1), c), 0);
}

// The chunk that precedes `chunk` in the scan's order.
Expr chunk_before(const CarryScan &p, Expr chunk) { return p.reverse ? chunk + 1 : chunk - 1; }

// A chunk's scan of `u`: `f` (i, v·K + s, chunk, c) over `steps`, from `entering`(s2) at its start.
void chunk_scan(const CarryScan &p, Func u, Func f, RDom steps, std::function<Expr(int)> entering) {
    f(i, n, j, c) = undef(u.output_types()[0]);
    Expr ws = steps.x, v = steps.y;
    Expr previous = times_state(p.table, p.m_row + ws, p.K, [&](int s2) {
        return earlier_output(v > 0, f(i, max(v - 1, 0) * p.K + s2, j, c), entering(s2));
    });
    f(i, v * p.K + ws, j, c) = input_at(p, u, j, v, ws) + previous;
}

// The state entering chunk `chunk`, component s2.
Expr entering(const CarryScan &p, Expr chunk, int s2) {
    const Expr has_before = p.reverse ? chunk + 1 < p.chunks : chunk > 0;
    return select(has_before, p.chunk_state(i, clamp(chunk_before(p, chunk), 0, p.chunks - 1) * p.K + s2, c),
                  0);
}

// p.rescan and p.func (the rescan form) from p.chunk_state, rescanning p.input.
void define_rescan(CarryScan &p, const std::string &name) {
    const Func u = p.input;
    constexpr int Q = TiledLayout::kChunk;
    p.rescan = Func(name + "_rescan");
    p.rescan_steps = RDom(0, p.K, 0, Q, name + "_rescan_steps");
    chunk_scan(p, u, p.rescan, p.rescan_steps, [&](int s2) { return entering(p, j, s2); });
    Expr v = p.reverse ? Q - 1 - t % Q : t % Q;
    p.func = Func(name);
    p.func(i, s, t, c) = p.rescan(i, v * p.K + s, t / Q, c);
}

// S(t) = M·S(t − 1) + u(t) over `tiles` tiles (from the last when `reverse`); M is the table's
// rows `m_row`…, its powers M^(v+1) the rows `power_row` + v·K.
CarryScan linear_scan(const std::string &name, Func u, Func table, int m_row, int power_row, int K,
                      Expr tiles, bool reverse, CarryForm form) {
    constexpr int Q = TiledLayout::kChunk;
    CarryScan p;
    p.K = K;
    p.form = form;
    p.chunks = (tiles + Q - 1) / Q;
    p.tiles = tiles;
    p.input = u;
    p.table = table;
    p.m_row = m_row;
    p.power_row = power_row;
    p.reverse = reverse;

    p.within = Func(name + "_within");
    p.within_steps = RDom(0, K, 0, Q, name + "_within_steps");
    chunk_scan(p, u, p.within, p.within_steps, [](int) { return Expr(0.0f); });
    // What leaves a chunk's zero-state scan.
    std::function<Expr(Expr, Expr)> end;
    if (form == CarryForm::powers) {
        p.local = Func(name + "_local");
        p.local(i, n, j, c) = p.within(i, n, j, c);
        p.local.bound(n, 0, Q * K);
        end = [=](Expr st, Expr chunk) { return p.local(i, (Q - 1) * K + st, chunk, c); };
    } else {
        p.chunk_end = Func(name + "_chunk_end");
        p.chunk_end(i, s, j, c) = p.within(i, (Q - 1) * K + s, j, c);
        end = [=](Expr st, Expr chunk) { return p.chunk_end(i, st, chunk, c); };
    }

    p.chunk_state = Func(name + "_chunks");
    p.chunk_state(i, n, c) = undef(u.output_types()[0]);
    p.chunk_steps = RDom(0, K, 0, p.chunks, name + "_chunk_steps");
    Expr cs = p.chunk_steps.x, step = p.chunk_steps.y;
    Expr chunk = reverse ? p.chunks - 1 - step : step;
    Expr carried = times_state(table, power_row + (Q - 1) * K + cs, K, [&](int s2) {
        return earlier_output(step > 0,
                              p.chunk_state(i, clamp(chunk_before(p, chunk), 0, p.chunks - 1) * K + s2, c));
    });
    p.chunk_state(i, chunk * K + cs, c) = end(cs, chunk) + carried;

    if (form == CarryForm::powers) {
        Expr tile_chunk = t / Q, v = reverse ? Q - 1 - t % Q : t % Q;
        Expr entered =
            times_state(table, power_row + v * K + s, K, [&](int s2) { return entering(p, tile_chunk, s2); });
        p.func = Func(name);
        p.func(i, s, t, c) = p.local(i, v * K + s, tile_chunk, c) + entered;
    } else {
        define_rescan(p, name);
    }
    return p;
}

// The input of an epilogue completion (complete_epilogues).
Func epilogue_input(const std::string &name, Func incomplete, const CarryScan *prologue, Func table,
                    const TiledLayout &L, Expr tiles) {
    Expr next = min(t + 1, tiles - 1);
    Expr carried = incomplete(i, s, next, c);
    if (prologue) {
        Expr mc_row = select(next == tiles - 1, L.mc(1), L.mc(0)) + s;
        const Func p = prologue->func;
        carried += times_state(table, mc_row, L.K, [&](int s2) { return p(i, s2, t, c); });
    }
    // Zero at the last tile and past it (input_at says why a product).
    Func input(name + "_input");
    input(i, s, t, c) = carried * select(t < tiles - 1, 1.0f, 0);
    return input;
}

}  // namespace

CarryScan complete_prologues(const std::string &name, Func incomplete, Func table, const TiledLayout &L,
                             Expr tiles, CarryForm form) {
    return linear_scan(name, incomplete, table, L.mf(), L.mf_power(0), L.K, tiles, false, form);
}

CarryScan complete_epilogues(const std::string &name, Func incomplete, const CarryScan *prologue, Func table,
                             const TiledLayout &L, Expr tiles, CarryForm form) {
    return linear_scan(name, epilogue_input(name, incomplete, prologue, table, L, tiles), table, L.mr(),
                       L.mr_power(0), L.K, tiles, true, form);
}

CarryScan reread(const std::string &name, const CarryScan &p) {
    CarryScan again = p;
    define_rescan(again, name);
    return again;
}

Func completed_carries(const std::string &name, const CarryScan &prologue, const CarryScan &epilogue) {
    Var i("i"), s("s"), t("t"), c("c");
    const int K = prologue.K;
    Func completed(name);
    completed(i, s, t, c) =
        select(s < K, prologue.func(i, min(s, K - 1), t, c), epilogue.func(i, clamp(s - K, 0, K - 1), t, c));
    return completed;
}

}  // namespace cascade
