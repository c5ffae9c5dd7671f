#pragma once
// The per-dimension matrices the block-parallel variants take (layout and meaning:
// contract/tiled_layout.h), derived by running the serial reference (reference.h) on identity
// inputs and states, section by section, exactly as a tile is scanned.
#include <Eigen/Dense>
#include <vector>

#include "cascade/filter.h"

namespace cascade {

struct TileMatrices {
    Eigen::MatrixXd Mf, Mr, Mc, UP, UE, Gf, Gr;  // K×K, K×K, K×K, b×K, b×K, K×b, K×b
};

// `sections`: the cascade of one dimension, every section of the same order q (pad with zero
// feedback), the gain on the first. `length`: the tile's valid samples (b, or fewer in the
// image's last tile). Over a short last tile the causal state (Mf, Gf) is taken after its last
// valid sample and the anticausal pass enters at it (Mr, Mc, UE, Gr): the sections never see
// past the image.
TileMatrices tile_matrices(const std::vector<RecursiveFilter> &sections, int b, int length);

// The packed float table for a dimension of `extent` samples cut into tiles of b: b columns,
// TiledLayout::rows() rows, row-major.
std::vector<double> tiled_table(const std::vector<RecursiveFilter> &sections, int b, int extent);

// The sections with every gain 1: whose tables the tiles read where they scan with unit gains
// (TiledLayout::unit_gain_scans).
std::vector<RecursiveFilter> with_unit_gains(std::vector<RecursiveFilter> sections);

// `v` as a float32 table's entry. Throws cascade::Error, its message from `who`, past float32's
// range (a gain or pole too extreme for a float32 pipeline).
float table_entry(double v, const char *who);

}  // namespace cascade
