#pragma once
// Where the block-parallel IIR variants find their per-dimension matrices: one packed float
// table of width b (the tile size) per dimension, rows laid out below. The runtime fills it
// (runtime/design/tile_matrices.h), the generator reads it; this header is the only place both agree on.
//
// The filter of one dimension is a cascade of S causal sections of order q, then the same S
// sections anticausally. Its state across a tile edge has K = S·q values: the last q outputs of
// each causal section (the prologue carry P) or the first q outputs of each anticausal section
// (the epilogue carry E), section by section. Matrices (row s, column s2):
//   Mf  K×K  P leaving a tile from P entering it (zero input): A_F^b of Nehab et al. 2011
//   Mr  K×K  E at a tile's start from E entering at its end: A_R^b
//   Mc  K×K  E at a tile's start from P entering it: H(A_RB)·A_FP
//   UP  b×K  the tile's output from P entering it: A_RB·A_FP
//   UE  b×K  the tile's output from E entering it: A_RE
//   Gf  K×b  P leaving a tile from its input: T(A_FB)
//   Gr  K×b  E at a tile's start from its input: H(A_RB·A_FB)
// In the image's last tile (L ≤ b valid samples) the causal state is taken after sample L − 1 and
// the anticausal pass enters at sample L, never seeing past the image: Mc, UP and Gr have a `last`
// copy built for that tile's L, and so have Mf, Gf and UE (the latter read only with exact
// boundaries, whose feedbacks enter there).
// The carries are completed by chunks of kChunk tiles, which needs the powers Mf^(v+1) and
// Mr^(v+1), v ∈ [0, kChunk), K rows each.
// kChunk: a thread per line and chunk scans the chunk, so short chunks mean more threads where
// there are few lines. 8 tiles: 38.5 GiP/s at 2048² on an H100, algorithm 6, order 3 (16: 30.0).
#include <vector>

namespace cascade {

struct TiledLayout {
    static constexpr int kChunk = 8;
    // The GPU's algorithms 4, 5 and 6 complete a dimension's carries in one kernel, their chunks'
    // states in shared memory (schedules/tiled_schedule.cpp): at most this many tiles along a
    // dimension. The runtime runs larger images on algorithm rt.
    static constexpr int kMostGpuTiles = 4096;
    static bool fits_gpu(int width, int height, int b) {
        return (width + b - 1) / b <= kMostGpuTiles && (height + b - 1) / b <= kMostGpuTiles;
    }
    int b;  // tile size
    int K;  // state size S·q

    // Rows holding matrix M(s, ·), each row of width b (columns past the matrix's width unused).
    int mf() const { return 0; }
    int mr() const { return K; }
    int mc(int last) const { return (2 + last) * K; }
    int up(int last) const { return (4 + last) * K; }  // stored transposed: row s, column yi
    int ue() const { return 6 * K; }                   // likewise
    int gf() const { return 7 * K; }
    int gr(int last) const { return (8 + last) * K; }
    // Next to Gf and Gr: the dot products stage the rows from Gf to here in shared memory.
    int gf_last() const { return 10 * K; }
    int mf_last() const { return 11 * K; }
    int ue_last() const { return 12 * K; }              // stored transposed, as UE
    int mf_power(int v) const { return (13 + v) * K; }  // Mf^(v+1)
    int mr_power(int v) const { return (13 + kChunk + v) * K; }
    int rows() const { return (13 + 2 * kChunk) * K; }
    // The first rows of the K-row blocks that depend on the last tile's length L: what a table
    // built for one L changes for another.
    std::vector<int> last_tile_blocks() const {
        return {mc(1), up(1), gr(1), gf_last(), mf_last(), ue_last()};
    }

    // Whether the tables of algorithms 4, 5 and 6 are the unit-gain filter's, which the tiles then
    // scan on samples scaled by the gains: under boundary none only. Exact boundaries keep the
    // filter's tables; their output's full tiles rescale the states instead
    // (algebra/iir_tiled.cpp says why).
    static bool unit_gain_scans(bool exact) { return !exact; }
};

}  // namespace cascade
