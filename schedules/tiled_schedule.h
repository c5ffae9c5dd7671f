#pragma once
// Schedules of the block-parallel IIR algorithms 4, 5 and 6 (generators/iir_tiled.h). The
// algorithms differ in what the tiles store; algorithm 6 differs from 5 only here: its column
// carries' dot products are one parallel kernel (compute_root) instead of being recomputed
// inside the row carries' sequential scan (inline).
#include "generators/iir_tiled.h"

namespace cascade {

void schedule_iir_tiled_cpu(IirTiledFuncs &f);
// `rows`: tile rows loaded per pass by the b × rows threads of a tile's block.
void schedule_iir_tiled_cuda(IirTiledFuncs &f, int rows);

}  // namespace cascade
