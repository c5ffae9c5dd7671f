#pragma once
// Schedules of the separable 2D FIR of compile-time radius (algebra/fir2d.h): tiles whose column
// pass stays on chip for their row pass, every sum in a register.
#include "algebra/fir2d.h"

namespace cascade {

// `lanes`: the vector width of the samples' type. Parallel tiles of 32 vectors × 64 rows: the
// tile's extension copied first (dense rows, the folds only at the image's edges), its column
// pass (the tile's width plus 2R) in cache for its row pass.
void schedule_fir2d_cpu(Fir2d &f, int lanes);

// The CUDA tile; 0 takes the schedule's own choice.
struct Fir2dTile {
    int width = 0;        // outputs along x
    int height = 0;       // outputs along y: the tallest of 64, 32, 16, 8 whose tiles fit 48 KB
    int lanes = 0;        // row-pass threads along x: a warp is lanes × 32/lanes rows
    int column_rows = 0;  // column-pass outputs a thread sums down its column
    int registers = 0;    // the kernel's register budget (contract/register_budget.h)
};

// A block per tile: the column pass of the tile and its 2R halo columns, summed from the input
// (every thread down its own column, the input read once) into shared memory, the row pass from
// there into shared memory, then written out along the rows. `sample_bytes`: 4 or 8.
void schedule_fir2d_cuda(Fir2d &f, int sample_bytes, Fir2dTile tile = {});

}  // namespace cascade
