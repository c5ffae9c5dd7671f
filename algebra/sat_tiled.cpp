#include "sat_tiled.h"

#include <stdexcept>

namespace cascade {

using namespace Halide;

namespace {

// No serial scan through global memory (one takes ~114 µs at 8192²): each
// thread scans one chunk of tiles in registers. f must be zero for t ≥ the number of tiles.
TilePrefix exclusive_prefix(Func f, Expr tiles, const std::string &name) {
    constexpr int q = TilePrefix::kChunk;
    TilePrefix p;
    Var j = p.j = Var("j"), t = p.t = Var("t"), u = p.u = Var("u"), v = p.v = Var("v"), c = p.c = Var("c");
    const Expr zero = cast(f.output_types()[0], 0);
    const Expr chunks = (tiles + q - 1) / q;
    RDom in_chunk(0, q, name + "_in_chunk"), earlier(0, chunks, name + "_earlier");
    p.chunk_sums = Func(name + "_chunk_sums");
    p.chunk_sums(j, u, c) = sum(f(j, u * q + in_chunk, c));
    // With a single chunk no chunk total is ever added; bounds inference would then size
    // chunk_sums to nothing, and a GPU launch of zero blocks fails (CUDA_ERROR_INVALID_VALUE).
    p.chunk_sums.bound(u, 0, chunks);
    p.chunk_prefix = Func(name + "_chunk_prefix");
    p.chunk_prefix(j, u, c) = sum(select(earlier < u, p.chunk_sums(j, earlier, c), zero));
    p.steps = RDom(1, q - 1, name + "_steps");
    p.within = Func(name + "_within");
    p.within(j, u, v, c) = select(v == 0, zero, f(j, u * q + v - 1, c));
    p.within(j, u, p.steps, c) += p.within(j, u, p.steps - 1, c);
    p.result = Func(name);
    p.result(j, t, c) = p.chunk_prefix(j, t / q, c) + p.within(j, t / q, t % q, c);
    // Whole chunks from 0: each thread's t / q is then a single chunk and `within` a constant
    // q values, which stay in registers; otherwise Halide moves them to a global scratch buffer.
    p.result.bound(t, 0, chunks * q);
    return p;
}

}  // namespace

SatTiledFuncs define_sat_tiled(Func input, Expr width, Expr height, Func output, Type acc, int b,
                               const std::string &algorithm, const SatBoundary *boundary) {
    const bool overlapped = algorithm == "overlapped";
    if (boundary && overlapped) throw std::invalid_argument("a boundary needs the 2r1w algorithm");
    SatTiledFuncs s;
    s.tile = b;
    s.output = output;
    Var x = s.x = Var("x"), y = s.y = Var("y"), c = s.c = Var("c"), i = s.i = Var("i"), k = s.k = Var("k"),
        j = s.j = Var("j"), t = s.t = Var("t"), tx = s.tx = Var("tx"), ty = s.ty = Var("ty"),
        xi = s.xi = Var("xi"), yi = s.yi = Var("yi");
    const Expr zero = cast(acc, 0);
    const Expr nx = (width + b - 1) / b, ny = (height + b - 1) / b;
    const Expr columns = nx * b, rows = ny * b;  // the image padded to whole tiles

    // Zero outside the image, so ragged tiles need no special case.
    s.samples = Func("samples");
    s.samples(x, y, c) =
        select(x < width && y < height, cast(acc, input(min(x, width - 1), min(y, height - 1), c)), zero);
    // Stage 1 walks the tiles backwards (block_sums' tile (tx, ty) is the image's tile
    // (nx−1−tx, ny−1−ty)), so the tiles it reads last are those stage 3 reads first, while they
    // are still in L2.
    s.tile_in = Func("tile_in");
    s.tile_in(xi, yi, tx, ty, c) = s.samples((nx - 1 - tx) * b + xi, (ny - 1 - ty) * b + yi, c);
    auto sums_of = [&](Expr i, Expr k, Expr tile_x, Expr tile_y) {
        return s.block_sums(i, k, nx - 1 - tile_x, ny - 1 - tile_y, c);
    };

    // 1. Per tile: column sums P(Ȳ) and row sums (Kasagi) or their running sum P^T(V̄) (Nehab).
    RDom r = s.across = RDom(0, b, "r");
    s.column_sums = Func("column_sums");
    s.column_sums(i, tx, ty, c) = zero;
    s.column_sums(i, tx, ty, c) += s.tile_in(i, r, tx, ty, c);
    s.row_sums = Func("row_sums");
    s.row_sums(i, tx, ty, c) = zero;
    s.row_sums(i, tx, ty, c) += s.tile_in(r, i, tx, ty, c);
    Func row_result = s.row_sums;
    if (overlapped) {
        s.row_prefix = Func("row_prefix");
        s.row_prefix(i, tx, ty, c) = zero;
        s.row_prefix(i, tx, ty, c) += select(r <= i, s.row_sums(r, tx, ty, c), zero);
        row_result = s.row_prefix;
    }
    s.block_sums = Func("block_sums");
    if (overlapped) {
        s.block_sums(i, k, tx, ty, c) = select(k == 0, s.column_sums(i, tx, ty, c), row_result(i, tx, ty, c));
    } else {
        // k = 2: the tile's total, summed from the column sums in shared memory while the tile is
        // at hand (its own kernel costs 7-8 µs at 4096²-8192² on an H100, mostly launch and latency).
        RDom all(0, b, "all");
        s.block_sums(i, k, tx, ty, c) = select(k == 0, s.column_sums(i, tx, ty, c), k == 1,
                                               row_result(i, tx, ty, c), sum(s.column_sums(all, tx, ty, c)));
    }

    // 2. Carries. Row j of carry_source lists, over tiles t, what one carry sums:
    //    j < columns:                 column j's sums in tile row t (→ the column carry of tile row t)
    //    columns ≤ j < columns + rows: row j's sums in tile column t (2R1W: the row carry)
    //    columns + rows ≤ j:           tile column j's totals in tile row t (2R1W: for the corner)
    Expr col_tile = clamp(j / b, 0, nx - 1), t_row = clamp(t, 0, ny - 1), t_col = clamp(t, 0, nx - 1);
    Expr jr = j - columns, jt = clamp(j - columns - rows, 0, nx - 1);
    RDom whole_tile = s.whole_tile = RDom(0, b, "whole_tile");
    Expr column_part = select(t < ny, sums_of(j % b, 0, col_tile, t_row), zero);
    Expr row_part = select(t < nx, sums_of(jr % b, 1, t_col, clamp(jr / b, 0, ny - 1)), zero);
    Expr total_part = select(t < ny, sums_of(0, 2, jt, t_row), zero);
    s.carry_source = Func("carry_source");
    if (overlapped) {
        s.carry_source(j, t, c) = column_part;
    } else {
        s.carry_source(j, t, c) = select(j < columns, column_part, j < columns + rows, row_part, total_part);
    }
    s.column_prefix = exclusive_prefix(s.carry_source, max(nx, ny), "carries");
    s.carries = s.column_prefix.result;

    // Outside a bounded rectangle, the table's row above it and its column left of it.
    auto top = [&](Expr x) { return boundary->top(clamp(x, -1, width - 1), c); };
    auto side = [&](Expr y) { return boundary->left(clamp(y, -1, height - 1), c); };
    Expr left;  // what seeds the tile's first column
    if (overlapped) {
        // Eq. 45: P^T_{m,n}(V) = P^T_{m,n−1}(V) + s(P_{m−1,n}(Y)) + P^T_{m,n}(V̄), as a prefix over n.
        s.strip_totals = Func("strip_totals");
        s.strip_totals(tx, ty, c) = sum(s.carries(tx * b + whole_tile, ty, c));
        Func source("row_carry_source");
        source(j, t, c) = select(t < nx,
                                 sums_of(j % b, 1, t_col, clamp(j / b, 0, ny - 1)) +
                                     s.strip_totals(t_col, clamp(j / b, 0, ny - 1), c),
                                 zero);
        s.row_prefix_scan = exclusive_prefix(source, nx, "row_carries");
        s.row_carries = s.row_prefix_scan.result;
        left = s.row_carries(ty * b + yi, tx, c);
    } else {
        // The corner, the sum of every tile above and left, is the prefix over earlier tile columns of
        // their totals' carries; around a bounded rectangle it gains what lies above and left of
        // the rectangle (inclusion–exclusion on its two edges).
        RDom earlier = s.earlier = RDom(0, nx, "earlier");
        s.corner = Func("corner");
        s.corner(tx, ty, c) = boundary ? top(tx * b - 1) + side(ty * b - 1) - top(-1) : zero;
        s.corner(tx, ty, c) += select(earlier < tx, s.carries(columns + rows + earlier, ty, c), zero);
        left = s.carries(columns + ty * b + yi, tx, c);
    }

    // 3. Per tile: re-read, seed the edges with the carries (updates touching one row or column,
    // not a select on every sample), scan down the columns, then along the rows.
    s.scan = RDom(1, b - 1, "scan");
    s.local = Func("local");
    s.local(xi, yi, tx, ty, c) = s.samples(tx * b + xi, ty * b + yi, c);
    Expr top_seed = s.carries(tx * b + xi, ty, c);
    if (boundary) {
        // Outside the rectangle: the column sums above it are differences along the table's row
        // above, the row sums left of it differences down the column left.
        Expr x = tx * b + xi, y = ty * b + yi;
        top_seed += top(x) - top(x - 1);
        left += side(y) - side(y - 1);
    }
    s.local(xi, 0, tx, ty, c) += top_seed;
    if (!overlapped) {
        // Kasagi: the row sums to the left enter the first column before the scans spread them.
        // The corner, which Kasagi add to the first sample, is added to each output instead: the
        // large value then skips the scans' roundings (relative L2 at 8192²: 1.5e-7; as Kasagi, 2.5e-7).
        s.local(0, yi, tx, ty, c) += left;
    }
    s.column_scan = s.local.num_update_definitions();
    s.local(xi, s.scan, tx, ty, c) += s.local(xi, s.scan - 1, tx, ty, c);
    if (overlapped) {
        // Nehab: the completed row carry is the table's value left of the tile: the row scan's
        // prologue, added once the column scan is done.
        s.local(0, yi, tx, ty, c) += left;
    }
    s.row_scan = s.local.num_update_definitions();
    s.local(s.scan, yi, tx, ty, c) += s.local(s.scan - 1, yi, tx, ty, c);
    Expr tile_table = s.local(x % b, y % b, x / b, y / b, c);
    output(x, y, c) = overlapped ? tile_table : tile_table + s.corner(x / b, y / b, c);
    return s;
}

}  // namespace cascade
