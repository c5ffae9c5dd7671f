#pragma once
// Where the 1D block-parallel variants (algebra/iir_line.h) find their matrices: one packed
// float table of K columns (K = S·q, the state of a cascade of S sections of order q, as in
// tiled_layout.h), rows laid out below. runtime/line_filter.cpp fills it from
// runtime/design/tile_matrices.h, in double; the generator reads it; this header is where both agree.
//
// Row `first + s` holds row s of a K×K matrix:
//   Mc, Mc_last   E at a block's start from P entering it (the last block's for its length)
//   Mf^(C^l·(v+1)), l ∈ [0, levels], v ∈ [0, C)   the prologue completion's powers
//   Mr^(C^l·(v+1))                               the epilogue completion's powers
// Level l of the completion scans chunks of C items whose step matrix is M^(C^l); an item's
// state is its chunk's scan plus M^(C^l·(v+1)) times the state entering its chunk (v its place
// in the chunk). Level `levels` is the serial scan at the top: it uses M^(C^levels) alone.
namespace cascade {

struct LineLayout {
    int K;       // state size S·q
    int chunk;   // C: items per chunk at every level of the completion
    int levels;  // chunked levels below the serial top

    int mc(int last) const { return last * K; }
    // The first row of Mf^(C^level·(v+1)) for v = 0; v adds v·K.
    int f_power(int level) const { return (2 + level * chunk) * K; }
    int r_power(int level) const { return (2 + (levels + 1 + level) * chunk) * K; }
    int rows() const { return (2 + 2 * (levels + 1) * chunk) * K; }
};

}  // namespace cascade
