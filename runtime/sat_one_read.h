#pragma once
// Kasagi et al.'s 1R1W summed-area table: a wavefront over the tiles' anti-diagonals, each
// stage one or a few pipeline calls on strided views of the image and the table.
#include <HalideRuntime.h>

#include "variants.h"

namespace cascade {

// Tile size of the wavefront.
constexpr int kOneReadTile = 64;

// Fills `output` (W×H×C, the table's type) from `input` with `stage`, the 1R1W stage variant.
// Both buffers live where the variant runs: host memory for the CPU, device memory for CUDA.
void sat_one_read(halide_buffer_t *input, halide_buffer_t *output, const Variant &stage);

}  // namespace cascade
