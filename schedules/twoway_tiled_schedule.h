#pragma once
// Schedule of the block-parallel two-way Gaussian on the GPU (algebra/twoway_tiled.h).
#include "algebra/twoway_tiled.h"

namespace cascade {

// The matrices: one small kernel, once per call.
void schedule_two_way_block_matrices_cuda(TwoWayBlockMatrices m);
// A step: a thread per line and block, its scans in registers; `last`: `out` is the pipeline's
// output.
void schedule_two_way_tiled_cuda(TwoWayTiledStep step, bool last);

}  // namespace cascade
