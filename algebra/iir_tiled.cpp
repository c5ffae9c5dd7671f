#include "iir_tiled.h"

#include <functional>
#include <stdexcept>

#include "algebra/boundary.h"
#include "algebra/samples.h"

namespace cascade {

using namespace Halide;

namespace {

// One dimension's completed carries as the tiles read them: with exact boundaries, the
// zero-boundary completions plus what the edges' feedbacks add (iir_tiled.h, TiledEdges).
struct Carries {
    // The state entering tile t from before (t = 0: the causal feedbacks) and from after (the
    // last tile: the anticausal feedbacks, entering at the image's end).
    std::function<Expr(Expr i, Expr s, Expr t, Expr c)> before, after;
    // What they read: the completed carries, or with exact boundaries the stored sums.
    std::vector<Halide::Func> read;
};

// `completed` (i, s, t, c): P, then E from s = K on (tile_scans.h, completed_carries). Read through a
// Func each, so that a reader staging them stages each side's K states of the one tile it reads.
Carries zero_boundary_carries(Func completed, int K) {
    Var i("i"), s("s"), t("t"), c("c");
    Func before(completed.name() + "_before"), after(completed.name() + "_after");
    before(i, s, t, c) = select(t > 0, completed(i, s, max(t - 1, 0), c), 0);
    after(i, s, t, c) = completed(i, K + s, t, c);
    return {[=](Expr i, Expr s, Expr t, Expr c) { return before(i, s, t, c); },
            [=](Expr i, Expr s, Expr t, Expr c) { return after(i, s, t, c); },
            {before, after}};
}

// How the exact feedbacks read a dimension's completed carries: P(i, k, t, c) and E(i, k, t, c).
struct CarryReads {
    std::function<Expr(Expr, int, Expr, Expr)> prologue, epilogue;
};

// What the exact feedbacks read of a dimension's completed carries, P(T − 2) and E(0): `completed`,
// or in the rescan form P(T − 2) through a reread of its own (tile_scans.h, `rereads`), so that the
// kernel that completes the carries can compute the feedbacks, a thread per line, before it stores
// them. E(0) is the state leaving the backward scan's chunk 0, one of the chunk states, read as it
// is (rescanning the first chunk's P and then its E for it: van Vliet clamp 0.148 ms against 0.144
// at 4096² on an H200).
CarryReads feedback_reads(const std::string &name, const CarryScan &P, const CarryScan &E,
                          const TiledLayout &L, Func completed, std::vector<CarryScan> &rereads) {
    const int K = L.K;
    if (P.form != CarryForm::rescan)
        return {[=](Expr i, int k, Expr t, Expr c) { return completed(i, k, t, c); },
                [=](Expr i, int k, Expr t, Expr c) { return completed(i, K + k, t, c); }};
    const CarryScan last = reread(name + "_p_last", P);
    rereads = {last};
    const Func p = last.func, e = E.chunk_state;
    return {[=](Expr i, int k, Expr t, Expr c) { return p(i, k, t, c); },
            [=](Expr i, int k, Expr, Expr c) { return e(i, k, c); }};
}

// feedbacks(s, i, c), s ∈ [0, 2K): the exact feedbacks of line i from its observables (e°, p1°,
// x_0, x_{n−1}): e° = Mf_last·P(T − 2) + the last tile's captured prologue, p1° = the first tile's
// captured epilogue + Mr·E(0); `first`, `last` give the line's edge samples.
Func exact_feedbacks(const std::string &name, const CarryReads &carries, Func p_incomplete, Func e_incomplete,
                     Func table, const TiledLayout &L, Expr tiles, Func matrix,
                     std::function<Expr(Expr, Expr)> first, std::function<Expr(Expr, Expr)> last) {
    Var s("s"), i("i"), c("c");
    const int K = L.K;
    std::vector<Expr> observed;
    for (int j = 0; j < K; j++) {
        Expr carried;
        for (int k = 0; k < K; k++)
            carried = plus(carried,
                           entry(table, k, L.mf_last() + j) * carries.prologue(i, k, max(tiles - 2, 0), c));
        observed.push_back(select(tiles >= 2, carried, 0) + p_incomplete(i, j, tiles - 1, c));
    }
    // E(0) enters tile 0 from tile 1; with one tile there is none.
    for (int j = 0; j < K; j++) {
        Expr after;
        for (int k = 0; k < K; k++)
            after = plus(after, entry(table, k, L.mr() + j) * carries.epilogue(i, k, 0, c));
        observed.push_back(e_incomplete(i, j, 0, c) + select(tiles >= 2, after, 0));
    }
    observed.push_back(first(i, c));
    observed.push_back(last(i, c));
    Expr sum;
    for (size_t j = 0; j < observed.size(); j++) sum = plus(sum, matrix(int(j), s) * observed[j]);
    Func feedbacks(name);
    feedbacks(s, i, c) = sum;
    return feedbacks;
}

// The carries with the feedbacks' effect added, stored once per dimension in `corrected`
// (i, s, t, c), s ∈ [0, 2K): P(t) + Φ(t)·p, E(t) + Ψ_P(t)·p + Ψ_E(t)·e, and the feedbacks
// themselves in the two slots no tile reads otherwise: p in P(T − 1), e in E(T − 1). Every seed
// is then one stored value, read as without exact boundaries, and the kernel that completes the
// carries adds the corrections as it stores them (schedules/tiled_schedule.cpp), with no kernels
// of their own. Φ and Ψ_P vanish past the first `start_tiles` tiles and Ψ_E before the last
// `end_tiles`, so only those tiles' corrections are formed, in `correction` (i, s, k, c): tile k
// (k < Ts) or T − 2 − (k − Ts), which a GPU block computes once for its lines.
Carries exact_carries(Func completed, Func feedbacks, const TiledEdges &edges, int K, Expr tiles,
                      Func &corrected, Func &correction) {
    Func start = edges.start, end = edges.end;
    const Expr start_tiles = edges.start_tiles, end_tiles = edges.end_tiles;
    auto from_start = [=](Expr i, Expr s, Expr t, Expr c, int column) {
        Expr sum;
        Expr row = clamp(t, 0, start_tiles - 1) * K + s;
        for (int k = 0; k < K; k++) sum = plus(sum, start(column + k, row) * feedbacks(k, i, c));
        return select(t < start_tiles, sum, 0);
    };
    auto from_end = [=](Expr i, Expr s, Expr t, Expr c) {
        Expr u = tiles - 2 - t, sum;
        Expr row = clamp(u, 0, end_tiles - 1) * K + s;
        for (int k = 0; k < K; k++) sum = plus(sum, end(k, row) * feedbacks(K + k, i, c));
        return select(u < end_tiles, sum, 0);
    };
    Var i("i"), s("s"), k("k"), c("c"), t("t");
    {
        const Expr tile = max(select(k < start_tiles, k, tiles - 2 - (k - start_tiles)), 0);
        const Expr epilogue_s = clamp(s - K, 0, K - 1);
        correction = Func(completed.name() + "_correction");
        correction(i, s, k, c) =
            select(s < K, from_start(i, min(s, K - 1), tile, c, 0),
                   from_start(i, epilogue_s, tile, c, K) + from_end(i, epilogue_s, tile, c));
    }
    const Expr u = tiles - 2 - t;
    const Expr at = clamp(select(t < start_tiles, t, start_tiles + u), 0, start_tiles + end_tiles - 1);
    const Expr corrected_here =
        select(t < start_tiles || (u >= 0 && u < end_tiles), correction(i, s, at, c), 0);
    corrected = Func(completed.name() + "_corrected");
    corrected(i, s, t, c) = select(t == tiles - 1, feedbacks(clamp(s, 0, 2 * K - 1), i, c),
                                   completed(i, s, t, c) + corrected_here);
    // Tile 0's prologue is p, in the last tile's slot: an index, not a select, so that one value is
    // loaded and a reader's bounds stay [0, T − 1].
    Func before(completed.name() + "_before"), after(completed.name() + "_after");
    before(i, s, t, c) = corrected(i, s, (t + tiles - 1) % tiles, c);
    after(i, s, t, c) = corrected(i, K + s, t, c);
    return {[=](Expr i, Expr s, Expr t, Expr c) { return before(i, s, t, c); },
            [=](Expr i, Expr s, Expr t, Expr c) { return after(i, s, t, c); },
            {before, after}};
}

}  // namespace

IirTiledFuncs define_iir_tiled(Func input, Expr width, Expr height, Func output,
                               const SectionCascade &vertical, const SectionCascade &horizontal,
                               Func vertical_table, Func horizontal_table, int b, int algorithm,
                               const ExactEdges *exact_edges, Type output_type, bool rows_in_registers,
                               CarryForm carry_form) {
    if (algorithm != 4 && algorithm != 5 && algorithm != 6)
        throw std::invalid_argument("the tiled IIR algorithms are 4, 5 and 6");
    if (vertical.order() > b || horizontal.order() > b)
        throw std::invalid_argument("the tile must be at least as long as a section's order");
    const bool exact = exact_edges != nullptr;
    IirTiledFuncs f;
    f.b = b;
    f.algorithm = algorithm;
    f.output = output;
    f.horizontal_table = horizontal_table;
    Var x = f.x = Var("x"), y = f.y = Var("y"), c = f.c = Var("c"), i = f.i = Var("i"), s = f.s = Var("s"),
        u = f.u = Var("u"), v = f.v = Var("v"), tx = f.tx = Var("tx"), ty = f.ty = Var("ty"),
        xi = f.xi = Var("xi"), yi = f.yi = Var("yi");
    const TiledLayout LV{b, vertical.state()}, LH{b, horizontal.state()};
    const int KV = LV.K, KH = LH.K;
    f.column_states = 2 * KV;
    f.row_states = 2 * KH;
    const Expr nx = (width + b - 1) / b, ny = (height + b - 1) / b;
    // Where the tiles cover the image exactly, a sample needs no test (only the clamps, for the
    // rows and columns past the last tiles), and every tile is whole: the schedules specialize the
    // tile passes on `full`.
    if (!(exact && exact_edges->margin)) f.full = width % b == 0 && height % b == 0;
    auto valid = [&](Expr extent, Expr t) {
        return f.full.defined() ? select(f.full, b, extent - t * b) : extent - t * b;
    };
    const Expr valid_x = valid(width, tx), valid_y = valid(height, ty);
    // Boundary none: the tiles scan with unit gains (each recursion step one FMA on its running
    // value), the samples scaled by the gains instead; the tables are the unit-gain filter's
    // (runtime/iir.cpp). Not with exact boundaries: the unit-gain filter's boundary tables hold
    // entries up to its DC gain, and van Vliet's Gaussian at σ = 200 under clamp (600×5, CPU) loses
    // 0.83 of its relative L2 accuracy against 0.05 with the gains in the scans.
    SectionCascade down = vertical, along = horizontal;
    Expr gains = 1.0f;
    if (TiledLayout::unit_gain_scans(exact)) {
        down.gain = along.gain = 1.0f;
        gains = vertical.gain * vertical.gain * horizontal.gain * horizontal.gain;
    }
    // With exact boundaries, each tile's rows also keep its first and last valid column as the
    // column passes leave them (columns b + 2K_H, b + 2K_H + 1): the rows' edge samples.
    const int edge_columns = exact ? 2 : 0;
    const Expr last_column = min(valid_x, b) - 1;

    // With a level (exact boundaries, poles near 1) the tiles filter the image about it
    // (algebra/boundary.h), and the output adds its response back. The level's kernel also stores
    // the terms the passes add (level_terms), so that on whole tiles a pass scales a sample and
    // subtracts the level in one FMA with a loaded term: van Vliet clamp at 8192² on an H200, first
    // pass 125.9 µs, output pass 177–182 (subtracting the level, then scaling: 128.7–129.3 and
    // 186.2–186.6).
    Func working("working");
    working(x, y, c) = to_working(input(x, y, c));
    const Expr gv = vertical.gain, gh = horizontal.gain;
    const bool about_level = exact && exact_edges->level_gain.defined();
    Expr restored = 0.0f;
    if (about_level) {
        f.level = image_level(working, width, height);
        f.level_terms = Func("level_terms");
        Var k("k");
        const Expr minus_one = Internal::make_const(gv.type(), -1);
        f.level_terms(k, c) =
            f.level(c) * select(k == 0, minus_one, k == 1, -(gv * gh), exact_edges->level_gain);
        restored = f.level_terms(2, c);
    }
    auto level_term = [&](int k) { return about_level ? f.level_terms(k, c) : Expr(); };
    Expr inside = x < width && y < height, at_x = min(x, width - 1), at_y = min(y, height - 1);
    if (exact && exact_edges->margin) {
        // One window test and the input's own clamps: 0.53 ms at 8192² on an H100, algorithm 6,
        // order 1 (the margin's extension as a select of its own inside this one: 0.75).
        inside = exact_edges->margin->inside(x, y);
        at_x = x;
        at_y = y;
    }
    // The input times `scale` plus `term` (a level's, or nothing), zero outside the image.
    auto scaled_samples = [&](const std::string &name, Expr scale, Expr term) {
        Expr value = scale * working(at_x, at_y, c);
        if (term.defined()) value += term;
        Expr sample = select(inside, value, 0);
        if (f.full.defined()) sample = select(f.full, value, sample);
        Func samples(name);
        samples(x, y, c) = sample;
        return samples;
    };
    f.samples = scaled_samples("samples", gains, level_term(0));
    // Exact boundaries: where a pass runs unit-gain scans, its samples carry g_V·g_H (and, about a
    // level, its term). The output pass does on every tile but the rescanned last ones; the first
    // pass on whole tiles, its captures scaled back to the filter's own (edges1, below). Elsewhere
    // the first pass keeps the gains in its scans: its captures rescaled carry a rounding of ~1e−7
    // common to each kind of carry, which the feedbacks, a sum of carries and edge samples, amplify
    // on tiny images (van Vliet σ 4, mirror, 3×5: 1.8e−5 relative L2 against the direct form's
    // bound of 1e−5).
    const Func output_samples = exact ? scaled_samples("output_samples", gv * gh, level_term(1)) : Func();
    const Expr whole_tiles = exact ? f.full : Expr();
    Func first_samples = f.samples;
    if (whole_tiles.defined()) {
        first_samples = Func("first_samples");
        first_samples(x, y, c) = select(whole_tiles, output_samples(x, y, c), f.samples(x, y, c));
    }

    // A tile from its samples, filtered down the columns, then (with `rows`) along the rows.
    // Past b it holds carries, each written before it is read: its pure definition there is zero,
    // which the GPU's staging (schedules/tile_staging.h) folds, so that nothing past the tile is
    // loaded: 113.2 GiP/s at 8192² on an H100, 6-order3 (loading the next tiles' samples there,
    // two more batches of loads for the columns past b: 109.5).
    auto tile_samples = [&](const TileScans &t) {
        Expr sample = t.samples(tx * b + xi, ty * b + yi, c);
        if (t.columns > b) sample = select(xi < b, sample, 0);
        if (t.rows > b) sample = select(yi < b, sample, 0);
        return sample;
    };
    // The L of tiles the image's end passes through, k < nx + ny − 1: tile k of the last tile row
    // (k < nx), then of the last tile column above it. The clamps change no tile; they bound what
    // bounds inference sees.
    auto last_tile_x = [=](Expr k) { return min(k, nx - 1); };
    auto last_tile_y = [=](Expr k) { return select(k < nx, ny - 1, clamp(k - nx, 0, max(ny - 2, 0))); };

    // `exact_scans`: the scans handle the image's end as exact boundaries need (add_scans). With
    // `rows_apart` the row scans and their captures run in `rows_out` instead, a row per scan.
    auto edge_tile = [&](const std::string &name, const Seeds &column_seeds, bool column_capture, bool rows,
                         bool exact_scans, bool rows_apart = false, TileScans *rows_out = nullptr) {
        TileScans t = new_tile(name, rows ? b + 2 * KH + edge_columns : b, column_capture ? b + 2 * KV : b);
        // The first tiles (no seeds) run unit-gain scans on whole tiles.
        const bool unit = whole_tiles.defined() && !column_seeds.prologue;
        t.samples = unit ? first_samples : f.samples;
        if (unit) t.gain_in_samples = whole_tiles;
        t.func(xi, yi, tx, ty, c) = tile_samples(t);
        Seeds seeds = column_seeds;
        if (column_seeds.prologue) seeds = stage_seeds(t, column_seeds, KV, Seeds{}, KH).column;
        add_scans(t, Dim::y, down, b, valid_y, seeds, column_capture, true, exact_scans);
        if (rows && exact) {
            RDom e(0, 2, 0, b, name + "_edge_columns");
            t.updates.push_back({t.func.num_update_definitions(), false, e.x, e.y});
            t.func(b + 2 * KH + e.x, e.y, tx, ty, c) =
                t.func(clamp(select(e.x == 0, 0, last_column), 0, b - 1), e.y, tx, ty, c);
        }
        if (rows && rows_apart) {
            *rows_out = new_tile(name + "_rows", t.columns, 1);
            rows_out->in_registers = true;
            rows_out->gain_in_samples = t.gain_in_samples;
            rows_out->func(xi, yi, tx, ty, c) = t.func(xi, yi, tx, ty, c);
            add_scans(*rows_out, Dim::x, along, b, valid_x, Seeds{}, true, false, exact_scans);
        } else if (rows) {
            add_scans(t, Dim::x, along, b, valid_x, Seeds{}, true, true, exact_scans);
        }
        return t;
    };

    // 1. Per tile, zero carries: the column carries and (5, 6) the row carries.
    // The pass walks the tiles backwards (block (tx, ty) is tile (nx − 1 − tx, ny − 1 − ty)), so
    // that the tiles it reads last are those the last pass reads first, while they are in L2;
    // `edges` reads it by tile.
    Func edges1("tile_edges");
    const Expr back_x = nx - 1 - tx, back_y = ny - 1 - ty;
    auto edges = [&](Expr i, Expr s, Expr tile_x, Expr tile_y, Expr c) {
        return edges1(i, s, nx - 1 - tile_x, ny - 1 - tile_y, c);
    };
    TileScans rows1;
    TileScans tile1 = edge_tile("edge_tile", Seeds{}, true, algorithm != 4, exact,
                                rows_in_registers && algorithm != 4, &rows1);
    // On whole tiles the unit-gain scans leave each kind of capture scaled by what the samples'
    // g_V·g_H and the gains left out of the scans make of it: the column P by g_H, the column E
    // and the rows' edge samples by g_H / g_V, the row P by 1 / g_V, the row E by 1 / (g_V·g_H).
    auto filter_scale = [&](Expr s) {
        const Expr one = Internal::make_one(gv.type());
        const Expr r = s - 2 * KV;
        Expr scale = select(s < KV, one / gh, s < 2 * KV || r >= 2 * KH, gv / gh, r < KH, gv, gv * gh);
        return select(whole_tiles, scale, one);
    };
    auto captured = [&](Expr value, Expr s) {
        return whole_tiles.defined() ? value * filter_scale(s) : value;
    };
    if (algorithm == 4) {
        edges1(i, s, tx, ty, c) = captured(tile1.func(i, b + s, back_x, back_y, c), s);
        edges1.bound(s, 0, 2 * KV);
    } else {
        const int row_entries = 2 * KH + edge_columns;
        const Func row_source = rows1.func.defined() ? rows1.func : tile1.func;
        edges1(i, s, tx, ty, c) =
            captured(select(s < 2 * KV, tile1.func(i, b + min(s, 2 * KV - 1), back_x, back_y, c),
                            row_source(b + clamp(s - 2 * KV, 0, row_entries - 1), i, back_x, back_y, c)),
                     s);
        edges1.bound(s, 0, 2 * KV + row_entries);
    }
    edges1.bound(i, 0, b);
    f.edge_passes.push_back({edges1, tile1});
    f.edge_passes.back().rows = rows1;

    // 2. The column carries, completed down each column.
    Func column_p("column_p_incomplete"), column_e("column_e_incomplete");
    column_p(x, s, ty, c) = edges(x % b, s, x / b, ty, c);
    column_e(x, s, ty, c) = edges(x % b, KV + s, x / b, ty, c);
    f.column_prologue = complete_prologues("column_prologue", column_p, vertical_table, LV, ny, carry_form);
    f.column_epilogue = complete_epilogues("column_epilogue", column_e, &f.column_prologue, vertical_table,
                                           LV, ny, carry_form);
    f.completed_columns = completed_carries("completed_columns", f.column_prologue, f.column_epilogue);
    Carries columns = zero_boundary_carries(f.completed_columns, KV);
    if (exact) {
        const CarryReads read = feedback_reads("column_feedback_reads", f.column_prologue, f.column_epilogue,
                                               LV, f.completed_columns, f.column_feedback_reads);
        f.correction_counts_before_launch =
            exact_edges->vertical.counts_before_launch && exact_edges->horizontal.counts_before_launch;
        f.column_feedbacks = exact_feedbacks(
            "column_feedbacks", read, column_p, column_e, vertical_table, LV, ny,
            exact_edges->vertical.matrix, [&](Expr i, Expr c) { return f.samples(i, 0, c); },
            [&](Expr i, Expr c) { return f.samples(i, height - 1, c); });
        columns = exact_carries(f.completed_columns, f.column_feedbacks, exact_edges->vertical, KV, ny,
                                f.corrected_columns, f.column_correction);
    }
    f.column_carries_read = columns.read;
    Seeds column_seeds{
        [&, columns](Expr across, Expr st) { return columns.before(tx * b + across, st, ty, c); },
        [&, columns](Expr across, Expr st) { return columns.after(tx * b + across, st, ty, c); }};

    // 3. The row carries, before completion, and (exact) the rows' edge samples.
    Func row_p("row_p_incomplete"), row_e("row_e_incomplete");
    std::function<Expr(Expr, Expr, int)> edge_sample;  // (y, c, side)
    if (algorithm == 4) {
        // Re-read each tile, filter its columns exactly, and take the row carries of that.
        // With exact boundaries, as for the output (below): every tile scanned as an inner one,
        // then the last tile row and column again, exactly, written over (every tile scanned
        // exactly: 1.03 ms at 8192² on an H100, clamp, order 3, against 0.90 for boundary none).
        TileScans tile3 = edge_tile("seeded_edge_tile", column_seeds, false, true, false);
        Func edges3("seeded_tile_edges");
        edges3(i, s, tx, ty, c) = tile3.func(b + s, i, tx, ty, c);
        const int row_entries = 2 * KH + edge_columns;
        edges3.bound(i, 0, b).bound(s, 0, row_entries);
        EdgePass pass{edges3, tile3};
        if (exact) {
            pass.last_tile = edge_tile("last_edge_tile", column_seeds, false, true, true);
            RDom r(0, b, 0, row_entries, 0, nx + ny - 1, "last_edges");
            pass.last_strip = r;
            edges3(r.x, r.y, last_tile_x(r.z), last_tile_y(r.z), c) =
                pass.last_tile.func(b + r.y, r.x, last_tile_x(r.z), last_tile_y(r.z), c);
        }
        f.edge_passes.push_back(pass);
        row_p(y, s, tx, c) = edges3(y % b, s, tx, y / b, c);
        row_e(y, s, tx, c) = edges3(y % b, KH + s, tx, y / b, c);
        edge_sample = [=](Expr y, Expr c, int side) {
            return edges3(y % b, 2 * KH + side, side == 0 ? Expr(0) : nx - 1, y / b, c);
        };
    } else {
        // By linearity the exact columns are the zero-carry ones plus UP·P + UE·E per column, so
        // the row carries gain Σ_u U(yi, u)·Σ_xi state_u(xi)·G(·, xi): per tile, (2K_V)×(2K_H) dot
        // products of the column carries with the rows of Gf and Gr.
        RDom r(0, b, "effect_sum");
        f.effect_sum = r;
        Expr column = tx * b + r.x;
        Expr state = select(u < KV, columns.before(column, min(u, KV - 1), ty, c),
                            columns.after(column, clamp(u - KV, 0, KV - 1), ty, c));
        // (exact) The last tile's prologue is its state after its last valid sample.
        Expr gf = exact ? select(tx == nx - 1, LH.gf_last(), LH.gf()) : Expr(LH.gf());
        Expr g_row = select(v < KH, gf + min(v, KH - 1),
                            select(tx == nx - 1, LH.gr(1), LH.gr(0)) + clamp(v - KH, 0, KH - 1));
        f.column_effect = Func("column_effect");
        f.column_effect(u, v, tx, ty, c) = Internal::make_zero(state.type());
        f.column_effect(u, v, tx, ty, c) += state * entry(horizontal_table, r.x, g_row);
        // What the column carries add to row yi of tile row ty: U(yi, ·) = UP, UE (their `last`
        // copies in the last tile row, where only exact boundaries make E nonzero).
        auto carried = [&](Expr yin, Expr tile_y, std::function<Expr(int)> term) {
            Expr up_row = select(tile_y == ny - 1, LV.up(1), LV.up(0));
            Expr ue_row = exact ? select(tile_y == ny - 1, LV.ue_last(), LV.ue()) : Expr(LV.ue());
            Expr acc;
            for (int k = 0; k < KV; k++) {
                acc = plus(acc, entry(vertical_table, yin, up_row + k) * term(k));
                acc = plus(acc, entry(vertical_table, yin, ue_row + k) * term(KV + k));
            }
            return acc;
        };
        Expr yin = y % b, tile_y = y / b;
        f.row_carries = Func("row_carries");
        f.row_carries(y, s, tx, c) = edges(yin, 2 * KV + s, tx, tile_y, c) + carried(yin, tile_y, [&](int k) {
                                         return f.column_effect(k, s, tx, tile_y, c);
                                     });
        row_p(y, s, tx, c) = f.row_carries(y, s, tx, c);
        row_e(y, s, tx, c) = f.row_carries(y, KH + s, tx, c);
        edge_sample = [=](Expr y, Expr c, int side) {
            Expr tile_x = side == 0 ? Expr(0) : nx - 1, x_at = side == 0 ? Expr(0) : width - 1;
            Expr yin = y % b, tile_y = y / b;
            return edges(yin, 2 * KV + 2 * KH + side, tile_x, tile_y, c) + carried(yin, tile_y, [&](int k) {
                       return k < KV ? columns.before(x_at, k, tile_y, c)
                                     : columns.after(x_at, k - KV, tile_y, c);
                   });
        };
    }

    // 4. The row carries, completed along each row.
    f.row_prologue = complete_prologues("row_prologue", row_p, horizontal_table, LH, nx, carry_form);
    f.row_epilogue =
        complete_epilogues("row_epilogue", row_e, &f.row_prologue, horizontal_table, LH, nx, carry_form);
    f.completed_rows = completed_carries("completed_rows", f.row_prologue, f.row_epilogue);
    Carries rows = zero_boundary_carries(f.completed_rows, KH);
    if (exact) {
        const CarryReads read = feedback_reads("row_feedback_reads", f.row_prologue, f.row_epilogue, LH,
                                               f.completed_rows, f.row_feedback_reads);
        f.row_feedbacks = exact_feedbacks(
            "row_feedbacks", read, row_p, row_e, horizontal_table, LH, nx, exact_edges->horizontal.matrix,
            [=](Expr y, Expr c) { return edge_sample(y, c, 0); },
            [=](Expr y, Expr c) { return edge_sample(y, c, 1); });
        rows = exact_carries(f.completed_rows, f.row_feedbacks, exact_edges->horizontal, KH, nx,
                             f.corrected_rows, f.row_correction);
    }
    Seeds row_seeds{[&, rows](Expr across, Expr st) { return rows.before(ty * b + across, st, tx, c); },
                    [&, rows](Expr across, Expr st) { return rows.after(ty * b + across, st, tx, c); }};

    // 5. Per tile: re-read, seeded scans down the columns and along the rows, write.
    // Exact boundaries: the full tiles only consume completed carries, so they scan the unit-gain
    // filter all the same (`rescaled`): the samples scaled by g_V·g_H, each seed by what turns the
    // filter's state into the unit-gain one's (`unit_scale`: g_H, g_H / g_V, 1 / g_V, 1 / (g_V·g_H)
    // for the column P and E and the row P and E), and the result scaled back by g_V·g_H. By
    // linearity the same values, without a multiply per step in each of the four scans; the scales
    // meet halfway, within float's range at any gain: this pass 219–227 µs at 8192² on an H100,
    // 6-order3-clamp, tiles of 128 (gains in the scans: 233–235). The first pass keeps its gains:
    // its captures rescaled the same way carry a rounding of ~1e−7 common to each kind of carry,
    // which the feedbacks, a sum of carries and edge samples, amplify on tiny images (mirror, 3×5:
    // 1.8e−5 relative L2 against the direct form's bound of 1e−5).
    const bool rescaled = !TiledLayout::unit_gain_scans(exact);
    SectionCascade unit_down = down, unit_along = along;
    unit_down.gain = unit_along.gain = 1.0f;
    auto unit_scale = [=](bool vertical_pass, bool anticausal) {
        return vertical_pass ? (anticausal ? gh / gv : gh) : (anticausal ? 1.0f / (gv * gh) : 1.0f / gv);
    };
    auto scaled = [](const Seeds &seeds, Expr prologue, Expr epilogue) {
        return Seeds{[=](Expr across, Expr st) { return prologue * seeds.prologue(across, st); },
                     [=](Expr across, Expr st) { return epilogue * seeds.epilogue(across, st); }};
    };
    auto final_tile = [&](const std::string &name, bool last) {
        TileScans t = new_tile(name, b, b);
        const bool unit = rescaled && !last;
        t.samples = unit ? output_samples : f.samples;
        t.func(xi, yi, tx, ty, c) = tile_samples(t);
        const StagedSeeds staged =
            unit ? stage_seeds(t, scaled(column_seeds, unit_scale(true, false), unit_scale(true, true)), KV,
                               scaled(row_seeds, unit_scale(false, false), unit_scale(false, true)), KH)
                 : stage_seeds(t, column_seeds, KV, row_seeds, KH);
        add_scans(t, Dim::y, unit ? unit_down : down, b, valid_y, staged.column, false, true, last);
        add_scans(t, Dim::x, unit ? unit_along : along, b, valid_x, staged.row, false, true, last);
        return t;
    };
    f.final_tile = final_tile("final_tile", false);
    Expr filtered = f.final_tile.func(x % b, y % b, x / b, y / b, c);
    if (rescaled) filtered = filtered * (gv * gh);
    output(x, y, c) = from_working(filtered + restored, output_type);
    if (exact) {
        // The exact boundaries' feedbacks enter the last tile row and column where the image ends,
        // which takes a select per scan step (with a seed load): 409 µs for the whole output pass
        // against 329 (H100, order 3, 8192²). So every tile is scanned as a full one, and the last
        // tile row and column, wrong that way, are scanned again and written over, in one update
        // (as two, a strip each, 22 µs each: one tile per block in both, latency-bound).
        f.last_tile = final_tile("last_tile", true);
        RDom r(0, b, 0, b, 0, nx + ny - 1, "last_strip");
        const Expr tile_x = last_tile_x(r.z), tile_y = last_tile_y(r.z);
        const Expr at_x = tile_x * b + r.x, at_y = tile_y * b + r.y;
        // On whole tiles the image ends where the tiles do, and the full scans are already exact:
        // no L to rescan. The schedules specialize on `full`, where this predicate folds to false
        // and the update's kernel goes.
        r.where(f.full.defined() ? at_x < width && at_y < height && !f.full : at_x < width && at_y < height);
        f.last_strip = r;
        output(min(at_x, width - 1), min(at_y, height - 1), c) =
            from_working(f.last_tile.func(r.x, r.y, tile_x, tile_y, c) + restored, output_type);
    }
    return f;
}

}  // namespace cascade
