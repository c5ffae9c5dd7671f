#include "iir_blocked.h"

#include <stdexcept>

#include "algebra/samples.h"

namespace cascade {

using namespace Halide;

IirBlockedFuncs define_iir_blocked(Func input, Expr width, Expr height, Func output,
                                   const SectionCascade &vertical, const SectionCascade &horizontal,
                                   Func vertical_table, Func horizontal_table, int b, Type output_type) {
    if (vertical.order() > b || horizontal.order() > b)
        throw std::invalid_argument("the tile must be at least as long as a section's order");
    IirBlockedFuncs f;
    f.b = b;
    f.output = output;
    Var x = f.x = Var("x"), y = f.y = Var("y"), c = f.c = Var("c"), i = f.i = Var("i"), s = f.s = Var("s"),
        tx = f.tx = Var("tx"), ty = f.ty = Var("ty"), xi = f.xi = Var("xi"), yi = f.yi = Var("yi");
    const TiledLayout LV{b, vertical.state()}, LH{b, horizontal.state()};
    const int KV = LV.K;
    const Expr nx = (width + b - 1) / b, ny = (height + b - 1) / b;
    const Expr valid_x = width - tx * b, valid_y = height - ty * b;

    Func working("working");
    working(x, y, c) = to_working(input(x, y, c));
    f.samples = Func("samples");
    f.samples(x, y, c) =
        select(x < width && y < height, working(min(x, width - 1), min(y, height - 1), c), 0.0f);
    auto from_samples = [&](TileScans &t) {
        t.func(xi, yi, tx, ty, c) = f.samples(tx * b + xi, ty * b + yi, c);
    };

    // 1. The column prologues from zero.
    TileScans first = new_tile("first_tile", b, b + KV);
    from_samples(first);
    TileScanner(first, Dim::y, b, vertical.order(), true).causal(vertical, valid_y, {}, true, false);
    Func edges("first_edges");
    edges(i, s, tx, ty, c) = first.func(i, b + s, tx, ty, c);
    edges.bound(i, 0, b).bound(s, 0, KV);
    f.first = {edges, first};
    Func column_p("column_p_incomplete");
    column_p(x, s, ty, c) = edges(x % b, s, x / b, ty, c);
    f.carries.push_back(complete_prologues("column_prologue", column_p, vertical_table, LV, ny));

    // The seeds of tile (tx, ty): the completed carry entering it from before or after.
    auto before = [&](const CarryScan &p, bool column) -> Seed {
        Func carry = p.func;
        return [=](Expr across, Expr st) {
            Expr t = column ? ty : tx;
            Expr line = column ? tx * b + across : ty * b + across;
            return select(t > 0, carry(line, st, max(t - 1, 0), c), 0.0f);
        };
    };
    auto after = [&](const CarryScan &e, bool column) -> Seed {
        Func carry = e.func;
        return [=](Expr across, Expr st) {
            return column ? carry(tx * b + across, st, ty, c) : carry(ty * b + across, st, tx, c);
        };
    };

    // 2–4. `source` filtered by the seeded half, stored with the next half's incomplete carries.
    auto blocked_pass = [&](const std::string &name, std::function<void(TileScans &)> source, Dim seeded_dim,
                            bool seeded_causal, const Seed &seed, Dim capture_dim, bool capture_causal) {
        BlockedPass p;
        const bool seeded_down = seeded_dim == Dim::y, capture_down = capture_dim == Dim::y;
        const SectionCascade &fs = seeded_down ? vertical : horizontal,
                             &fc = capture_down ? vertical : horizontal;
        const int K = fc.state();
        p.seeded = new_tile(name + "_tile", b, b);
        source(p.seeded);
        TileScanner scan(p.seeded, seeded_dim, b, fs.order(), true);
        if (seeded_causal) {
            scan.causal(fs, seeded_down ? valid_y : valid_x, seed, false, false);
        } else {
            scan.anticausal(fs, seeded_down ? valid_y : valid_x, seed, false, false);
        }
        p.scratch = new_tile(name + "_scratch", capture_down ? b : b + 2 * K, capture_down ? b + 2 * K : b);
        p.scratch.func(xi, yi, tx, ty, c) = p.seeded.func(min(xi, b - 1), min(yi, b - 1), tx, ty, c);
        TileScanner capture(p.scratch, capture_dim, b, fc.order(), true);
        if (capture_causal) {
            capture.causal(fc, capture_down ? valid_y : valid_x, {}, true, false);
        } else {
            capture.anticausal(fc, capture_down ? valid_y : valid_x, {}, true, false);
        }
        // The band: the causal carries were captured at b + s, the anticausal ones at b + K + s.
        const Expr band = b + (capture_causal ? 0 : K) + clamp(yi - b, 0, K - 1);
        const Expr captured =
            capture_down ? p.scratch.func(xi, band, tx, ty, c) : p.scratch.func(band, xi, tx, ty, c);
        p.stored = Func(name);
        p.stored(xi, yi, tx, ty, c) = select(yi < b, p.seeded.func(xi, min(yi, b - 1), tx, ty, c), captured);
        p.rows = b + K;
        f.passes.push_back(p);
        return p.stored;
    };
    auto from = [&](Func stored) {
        return [=](TileScans &t) { t.func(xi, yi, tx, ty, c) = stored(xi, yi, tx, ty, c); };
    };

    Func Y =
        blocked_pass("causal_down", from_samples, Dim::y, true, before(f.carries[0], true), Dim::y, false);
    Func column_e("column_e_incomplete");
    column_e(x, s, ty, c) = Y(x % b, b + s, x / b, ty, c);
    f.carries.push_back(complete_epilogues("column_epilogue", column_e, nullptr, vertical_table, LV, ny));

    Func Z = blocked_pass("anticausal_down", from(Y), Dim::y, false, after(f.carries[1], true), Dim::x, true);
    Func row_p("row_p_incomplete");
    row_p(y, s, tx, c) = Z(y % b, b + s, tx, y / b, c);
    f.carries.push_back(complete_prologues("row_prologue", row_p, horizontal_table, LH, nx));

    Func U = blocked_pass("causal_across", from(Z), Dim::x, true, before(f.carries[2], false), Dim::x, false);
    Func row_e("row_e_incomplete");
    row_e(y, s, tx, c) = U(y % b, b + s, tx, y / b, c);
    f.carries.push_back(complete_epilogues("row_epilogue", row_e, nullptr, horizontal_table, LH, nx));

    // 5. The last filter, seeded, written.
    f.final_tile = new_tile("final_tile", b, b);
    from(U)(f.final_tile);
    TileScanner(f.final_tile, Dim::x, b, horizontal.order(), true)
        .anticausal(horizontal, valid_x, after(f.carries[3], false), false, false);
    output(x, y, c) = from_working(f.final_tile.func(x % b, y % b, x / b, y / b, c), output_type);
    return f;
}

}  // namespace cascade
