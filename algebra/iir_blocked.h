#pragma once
// Nehab et al. 2011's algorithm 2 as Halide Funcs: the 2D causal–anticausal filter blocked and
// fused but not overlapped, kept as the comparison point for the overlapped algorithms 4, 5, 6
// (iir_tiled.h). Each of the four 1D filters (down: causal, anticausal; across: causal,
// anticausal) runs as algorithm 1 over b×b tiles, and each pass over the image fuses the seeded
// scan of one with the zero-carry scan of the next:
//   1. per tile: causal scan down from zero; store its prologues P̄;      complete P (Mf)
//   2. per tile: causal down seeded with P → Y, stored; anticausal down of Y from zero: Ē;
//                                                                        complete E (Mr)
//   3. per tile: read Y, anticausal down seeded → Z, stored; causal across from zero: P̄ᵀ;
//                                                                        complete Pᵀ
//   4. per tile: read Z, causal across seeded → U, stored; anticausal across from zero: Ēᵀ;
//                                                                        complete Eᵀ
//   5. per tile: read U, anticausal across seeded, write.
// Nine image-sized transfers (two reads of the input, three images written and read, the
// output) against algorithm 4's four: what overlapping saves.
#include <Halide.h>

#include <vector>

#include "algebra/iir_tiled.h"  // EdgePass
#include "algebra/tile_scans.h"

namespace cascade {

// Steps 2–4: a pass that stores its tiles' seeded result and, in a band of rows b + s below each
// tile (s ∈ [0, K)), the next filter's incomplete carries, row or column i of the tile at
// column i. `scratch` is a copy of the seeded tile, scanned from zero for those carries.
struct BlockedPass {
    TileScans seeded, scratch;
    Halide::Func stored;  // (xi, yi, tx, ty, c), yi ∈ [0, b + K)
    int rows = 0;         // b + K
};

struct IirBlockedFuncs {
    int b = 0;
    Halide::Func samples;             // the input, zero outside the image
    EdgePass first;                   // step 1: the column prologues
    std::vector<BlockedPass> passes;  // steps 2, 3, 4: Y, Z, U
    std::vector<CarryScan> carries;   // P, E down the columns; Pᵀ, Eᵀ along the rows
    TileScans final_tile;             // step 5
    Halide::Func output;
    Halide::Var x, y, c, i, s, tx, ty, xi, yi;
};

// Defines `output` (x, y, c) as the 2D filter of `input` with `vertical` down the columns and
// `horizontal` along the rows, boundary none; tables as for define_iir_tiled.
IirBlockedFuncs define_iir_blocked(Halide::Func input, Halide::Expr width, Halide::Expr height,
                                   Halide::Func output, const SectionCascade &vertical,
                                   const SectionCascade &horizontal, Halide::Func vertical_table,
                                   Halide::Func horizontal_table, int b,
                                   Halide::Type output_type = Halide::Float(32));

}  // namespace cascade
