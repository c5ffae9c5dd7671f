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

// Kasagi's (1+r)R1W with square parts: the top-left K×K tiles by 2R1W (`two_read`), the
// bottom-right K×K tiles by 2R1W continuing the table around them (`bounded`), the tiles between
// by the 1R1W wavefront, K = ⌊min(tiles across, tiles down) / 3⌋. Fewer stages than 1R1W, for
// a second read of about 2K²/(tiles) of the image.
void sat_one_read_split(halide_buffer_t *input, halide_buffer_t *output, const Variant &stage,
                        const Variant &two_read, const Variant &bounded);

}  // namespace cascade
