#pragma once
// Block-parallel causal–anticausal 2D recursive filters (Nehab et al. 2011, algorithms 4 and 5;
// Nehab & Maximo 2016, algorithm 6) as Halide Funcs, for a cascade of S sections of order q per
// dimension with run-time coefficients. The image is cut into b×b tiles; every tile is scanned
// with zero carries, the carries are completed across tiles from the tiles' edges alone with the
// matrices of contract/tiled_layout.h (run-time inputs), and a last pass re-reads each tile
// and scans it seeded with its complete carries.
//
//   algorithm 5: 1. per tile: column scans, then row scans of that result; store the column
//                   carries and the row carries (zero column carries assumed);
//                2. complete the column carries down the tile columns;
//                3. complete the row carries along the tile rows, adding per tile what the
//                   column carries change in them (dot products with the column carries, per
//                   row, inside the sequential step);
//                4. per tile: re-read, seeded scans, write.
//   algorithm 6: as 5, with step 3's dot products done for all tiles at once in their own
//                parallel step before the sequential completion (Nehab & Maximo's split of 5.3).
//   algorithm 4: 1. per tile: column scans, store column carries; 2. complete them;
//                3. per tile: re-read, seeded column scans, row scans, store row carries;
//                4. complete the row carries; 5. per tile: re-read, seeded scans, write.
#include <Halide.h>

#include <optional>
#include <string>
#include <vector>

#include "algebra/boundary.h"
#include "algebra/tile_scans.h"

namespace cascade {

// A pass over every tile that stores only the carries at its edges.
struct EdgePass {
    Halide::Func edges;  // (i, s, tx, ty, c): carry s of row or column i of the tile
    TileScans tile;
    TileScans rows;  // where defined, the tile's rows scanned one per thread (rows in registers)
    // Exact boundaries, algorithm 4's second pass: the last tile row and column scanned again as
    // the image's end requires, by the update of `edges` over `last_strip` (i, s, k), k as below.
    TileScans last_tile;
    Halide::RDom last_strip;
};

// Exact boundaries (runtime/design/boundary_tables.h) of one dimension, its run-time tables: `matrix`
// (2K + 2, 2K) maps the observables to the feedbacks (p, e), as for RT; `start` (2K, Ts·K): row
// t·K + s holds row s of [Φ(t) Ψ_P(t)], what p adds to the completed prologue P(t) and epilogue
// E(t), for the first Ts tiles (past them it is negligible); `end` (K, Te·K): row u·K + s holds
// row s of Ψ_E(T − 2 − u), what e adds to E(T − 2 − u), for the last Te tiles.
struct TiledEdges {
    Halide::Func matrix, start, end;
    Halide::Expr start_tiles, end_tiles;
    // Whether those counts are known before a kernel runs (tables' extents, not values read from
    // a table), so that a GPU block can size its shared memory by them.
    bool counts_before_launch = false;
};
struct ExactEdges {
    TiledEdges vertical, horizontal;
    // Where defined, the image is filtered about its level (algebra/boundary.h).
    Halide::Expr level_gain;
    // Where set, the input is readable everywhere (the margin's `repeated`) and the image's samples
    // lie in the margin's window, zero elsewhere (algebra/boundary.h).
    std::optional<WithMargin> margin;
};

// What the passes add about a level m (iir_tiled.cpp): −m, −g_V·g_H·m and m·G.
constexpr int kLevelTerms = 3;

struct IirTiledFuncs {
    int b = 0, algorithm = 0;
    Halide::Func samples;      // the input, zero outside the image
    Halide::Expr full;         // where defined: whether the tiles cover the image exactly (specialized on)
    Halide::Expr output_full;  // where defined: `full`, and the output is whole tiles too
    Halide::Func level;        // exact boundaries: the level filtered about (c)
    Halide::Func level_terms;  // with a level: (k, c), k < kLevelTerms, what the passes add
    std::vector<EdgePass> edge_passes;           // algorithms 5, 6: one; algorithm 4: two
    CarryScan column_prologue, column_epilogue;  // P, E of the columns: (x, s, ty, c)
    CarryScan row_prologue, row_epilogue;        // P, E of the rows: (y, s, tx, c)
    // Each dimension's P and E in one Func, (i, s, t, c), s ∈ [0, 2K): what the tiles read
    // (tile_scans.h, completed_carries).
    Halide::Func completed_columns, completed_rows;
    Halide::Func horizontal_table;  // the rows' matrices (tiled_layout.h), read by column_effect
    Halide::Func column_effect;     // algorithms 5, 6: (u, v, tx, ty, c) the column carries' dot products
    Halide::RDom effect_sum;        // its sum over the tile's columns
    int column_states = 0, row_states = 0;  // extents of u and v: 2K of each dimension
    // Algorithms 5, 6: (y, s, tx, c) the rows' carries before completion, P then E (s ∈ [0, 2K)),
    // with what the completed column carries add to them.
    Halide::Func row_carries;
    Halide::Func column_feedbacks, row_feedbacks;  // exact boundaries: (s, i, c), s ∈ [0, 2K)
    // Exact boundaries, the rescan form: the carries each dimension's feedbacks read, rescanned
    // apart (iir_tiled.cpp, feedback_reads): P's for P(T − 2).
    std::vector<CarryScan> column_feedback_reads, row_feedback_reads;
    // Exact boundaries: each dimension's completed carries with what the feedbacks add to the
    // first and last tiles', and the feedbacks in the slots P(T − 1) and E(T − 1) (iir_tiled.cpp,
    // exact_carries): (i, s, t, c), s ∈ [0, 2K), what the tiles read.
    Halide::Func corrected_columns, corrected_rows;
    // What they add to the first and last tiles' carries, (i, s, k, c) (iir_tiled.cpp), and
    // whether their counts are known before a kernel runs (TiledEdges::counts_before_launch).
    Halide::Func column_correction, row_correction;
    bool correction_counts_before_launch = false;
    // The column carries the dot products read: the completed ones, or with exact boundaries
    // the corrected ones, by the tile before and the tile itself.
    std::vector<Halide::Func> column_carries_read;
    TileScans final_tile;
    // Exact boundaries: the last tile row and column scanned again as the image's end requires,
    // and the output's update that writes them: `last_strip` (xi, yi, k) over tile k of the last
    // tile row (k < nx), then of the last tile column above it.
    TileScans last_tile;
    Halide::RDom last_strip;
    Halide::Func output;
    Halide::Var x, y, c, i, s, u, v, tx, ty, xi, yi;
};

// Defines `output` (x, y, c) as the 2D filter of `input` with `vertical` down the columns and
// `horizontal` along the rows: boundary `none`, or with `exact` the exact boundary its tables
// describe. `algorithm` is 4, 5 or 6; the tables follow tiled_layout.h. With `rows_in_registers`
// (5, 6) the first pass scans each tile row apart from the tile (EdgePass::rows), so that a GPU
// thread keeps its row in registers and stores only its carries. Integer input samples are
// read as [0, 1] and the output is stored as `output_type` (algebra/samples.h). `carry_form`:
// how the completed carries are formed from their chunks (tile_scans.h).
IirTiledFuncs define_iir_tiled(Halide::Func input, Halide::Expr width, Halide::Expr height,
                               Halide::Func output, const SectionCascade &vertical,
                               const SectionCascade &horizontal, Halide::Func vertical_table,
                               Halide::Func horizontal_table, int b, int algorithm,
                               const ExactEdges *exact = nullptr,
                               Halide::Type output_type = Halide::Float(32), bool rows_in_registers = false,
                               CarryForm carry_form = CarryForm::powers);

}  // namespace cascade
