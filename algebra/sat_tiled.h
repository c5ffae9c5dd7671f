#pragma once
// The tiled summed-area tables of Nehab et al. 2011 (algorithm SAT, "overlapped") and Kasagi et
// al. 2014 (2R1W) as Halide Funcs. Both read the image twice and write it once:
//   1. per b×b tile, sums of its columns and rows (the only full read of the first pass);
//   2. carries across tiles from those sums alone;
//   3. per tile, re-read, seed the first row and column with the carries, scan, write.
// They differ in the carries: Nehab completes the column carries, then the row carries with the
// column carries folded in (eqs. 44-45: two dependent scans); Kasagi computes column, row and
// corner carries independently, so one pass over the sums serves them all.
#include <Halide.h>

#include <string>

namespace cascade {

// An exclusive prefix over tiles, result(j, t, c) = Σ_{t' < t} f(j, t', c), by chunks of
// kChunk tiles: a running sum inside each chunk (`within`, kept in registers) plus the totals of
// the chunks before (`chunk_prefix`, from `chunk_sums`).
struct TilePrefix {
    static constexpr int kChunk = 16;
    Halide::Func chunk_sums, chunk_prefix, within, result;
    Halide::RDom steps;  // over [1, kChunk): the running sum
    Halide::Var j, t, u, v, c;
};

struct SatTiledFuncs {
    int tile;                 // b
    Halide::Func samples;     // the input in the accumulation type, zero outside the image
    Halide::Func block_sums;  // (i, k, tx, ty, c): k = 0 column sums, k = 1 row sums, k = 2 total
    Halide::Func column_sums, row_sums, row_prefix, tile_in;  // stage-1 helpers, per tile
    TilePrefix column_prefix, row_prefix_scan;                // the carries, and overlapped's row carries
    Halide::Func carry_source;                                // what the carries sum, one row j per carry
    Halide::Func corner;                // (tx, ty, c): 2R1W's sum of all tiles above-left
    Halide::Func carries;               // (j, t, c): exclusive prefix over tiles of the sums (see .cpp)
    Halide::Func row_carries;           // overlapped: completed row carries, eq. 45
    Halide::Func strip_totals;          // overlapped: s(P_{m−1,n}(Y)), the column carries' sum per tile
    Halide::Func local;                 // (xi, yi, tx, ty, c): the seeded tile, then its two scans
    int column_scan = 0, row_scan = 0;  // their update indices; the others seed edges
    Halide::Func output;
    Halide::RDom scan;        // over [1, b): the in-tile scans
    Halide::RDom across;      // over [0, b): the tile sums
    Halide::RDom whole_tile;  // overlapped: the reduction of strip_totals
    Halide::RDom earlier;     // 2R1W: the corner's sum over the tile columns to the left
    Halide::Var x, y, c, i, k, j, t, tx, ty, xi, yi;
};

// The table around a sub-rectangle computed on its own (the (1+r)R1W split): top(x, c) for
// x ∈ [−1, width) is the table's row just above it, from the column just left of it; left(y, c)
// for y ∈ [−1, height) is the table's column just left of it (top(−1) = left(−1)).
struct SatBoundary {
    Halide::Func top, left;
};

// Defines the tiled table of `input` (x, y, c) into `output` with tile size b; `algorithm` is
// "overlapped" or "2r1w". With a boundary (2r1w only), the table continues one known outside.
SatTiledFuncs define_sat_tiled(Halide::Func input, Halide::Expr width, Halide::Expr height,
                               Halide::Func output, Halide::Type accumulator, int b,
                               const std::string &algorithm, const SatBoundary *boundary = nullptr);

}  // namespace cascade
