#pragma once
// Which tiled 2R1W variant serves an image (runtime/sat.cpp).
#include <string>

#include "variants.h"

namespace cascade {

// The planes' size up to which the GPU's 2R1W sums each tile's corner in the tile's block:
// one kernel fewer, but the block's loads wait for the sum: 158 GiP/s at 2048² on an H100 (a kernel
// of its own: 140), 198 against 200 at 8192² (docs/performance.md).
constexpr long long kCornerInBlockSamples = 1LL << 25;
// And the widest: more tile columns than two loads a thread of the block's sum.
constexpr long long kCornerInBlockColumns = 8192;

// "2r1w", or on the GPU above kCornerInBlockSamples or kCornerInBlockColumns "2r1w_corner_kernel".
std::string two_read_kind(long long width, long long height, Device device);

}  // namespace cascade
