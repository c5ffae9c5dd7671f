#pragma once
// Block-parallel recursive filtering of one long signal per channel (Nehab et al. 2011,
// algorithm 1: causal; algorithm 3: causal, then anticausal) as Halide Funcs, for a cascade of S
// sections of order q with run-time coefficients. The signal x is viewed as blocks of b samples,
// X(i, t) = x[t·b + i]:
//   1. per block: scan from zero state, store only the block's carries (the state at its edges:
//      prologue P̄(t), and for algorithm 3 epilogue Ē(t), K = S·q values each);
//   2. complete the carries across blocks: P(t) = Mf·P(t − 1) + P̄(t), then
//      E(t − 1) = Ē(t) + Mc·P(t − 1) + Mr·E(t), by a hierarchical chunked scan (LineCompletion);
//   3. per block: re-read, scan seeded with the complete carries, write.
// Two reads and one write of the signal. The matrices are those of runtime/design/tile_matrices.h, in
// the table of contract/line_layout.h (a run-time input).
#include <Halide.h>

#include <vector>

#include "contract/line_layout.h"
#include "algebra/tile_scans.h"  // SectionCascade, times_state

namespace cascade {

// One in-place update of a block Func: a scan, a carry capture or a seed copy, over `along`
// (the samples, or the carries, of a block), parallel across the blocks.
struct LineUpdate {
    int index;
    Halide::RVar along;
};

// Blocks (i, t, c) filtered in place by their updates. Rows b + s past a block's samples hold
// its carries: captured after the scans (stage 1), or the seeds copied in before them (stage 3).
struct LineBlocks {
    Halide::Func func;
    int rows = 0;  // stored extent of i: b + carries
    std::vector<LineUpdate> updates;
};

// One level of the completion: items (s, k, c) cut into chunks of C, each scanned from a zero
// state. Halide's recursive references keep pure variables in place, so the state index is
// flattened with the step: n = v·K + s.
struct ChunkLevel {
    Halide::Func within;  // (n, j, c): the scan of chunk j, in registers (GPU) or a task's buffer
    Halide::Func local;   // the same, stored
    Halide::RDom steps;   // (s, v)
};

// S(k) = M·S(k − 1) + u(k), S(−1) = 0, over the blocks (from the last for an epilogue):
//   level 0 scans chunks of C blocks from zero; the chunks' end states are the items of level 1,
//   whose recurrence has the step M^C; and so on up to `levels`; the top level is a serial scan
//   over what is left (⌈T / C^levels⌉ items). Going back down, an item's state is its chunk's
//   scan plus M^(C^l·(v+1))·(the state entering its chunk), the powers from the table.
struct LineCompletion {
    std::vector<ChunkLevel> levels;
    Halide::Func top;        // (n, c), n = k·K + s: the serial scan of the last level
    Halide::RDom top_steps;  // (s, k)
    // complete[l](s, k, c): the state after item k of level l; complete[0] over the blocks in
    // scan order, complete[levels] read from `top`.
    std::vector<Halide::Func> complete;
    // (s, t, c): the complete carries in block order (prologue: leaving block t; epilogue:
    // entering block t from after it).
    Halide::Func carries;
    int K = 0, C = 0;  // the state size, the chunk size
};

struct IirLineFuncs {
    int b = 0, algorithm = 0, K = 0;
    Halide::Func blocks;  // X(i, t, c), zero past the signal's end
    LineBlocks edge_blocks;
    Halide::Func edges;  // (s, t, c): P̄ (s < K), then Ē (s ∈ [K, 2K)) of block t
    LineCompletion prologue, epilogue;
    Halide::Func epilogue_input;  // (s, k, c): Ē(t + 1) + Mc·P(t), t = T − 1 − k
    LineBlocks final_blocks;
    Halide::Func output;
    Halide::Var n, c, i, t, s;
};

// Defines `output` (n, c) as the causal (algorithm 1) or causal–anticausal (algorithm 3) filter of
// each channel of `input` (n, c), n ∈ [0, length), zero feedbacks at both ends (boundary none).
// `table` follows LineLayout{filter.state(), chunk, levels}; `b` is the block size.
IirLineFuncs define_iir_line(Halide::Func input, Halide::Expr length, Halide::Func output,
                             const SectionCascade &filter, Halide::Func table, int b, int algorithm,
                             int chunk, int levels);

}  // namespace cascade
