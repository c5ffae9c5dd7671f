#pragma once
// Schedules of the block-parallel IIR algorithms 4, 5 and 6 (generators/iir_tiled.h). The
// algorithms differ in what the tiles store; algorithm 6 differs from 5 only here: its column
// carries' dot products are one parallel kernel (compute_root) instead of being recomputed
// inside the row carries' sequential scan (inline).
#include "generators/iir_tiled.h"

namespace cascade {

void schedule_iir_tiled_cpu(IirTiledFuncs &f);

// The pieces, shared with algorithm 2 (schedules/blocked_schedule.h). CPU: a tile's scans
// vectorized across its columns (rows); a carry completion's chunks in parallel, stored.
extern const int kCpuLanes;
void schedule_tile_cpu(TileScans t);
void schedule_edge_pass_cpu(EdgePass &pass);
void schedule_carry_cpu(CarryScan p);
// CUDA: a tile staged from `source` in shared memory by b × rows threads, then its scans one
// thread per column (row); a carry completion, `stored` once complete or completed where read.
void schedule_tile_cuda(TileScans t, Halide::Func source, int b, int rows);
void schedule_scans_cuda(TileScans t);
void schedule_edge_pass_cuda(EdgePass &pass, Halide::Func source, int b, int rows);
void schedule_carry_cuda(CarryScan p, bool stored);
// `rows`: tile rows loaded per pass by the b × rows threads of a tile's block.
void schedule_iir_tiled_cuda(IirTiledFuncs &f, int rows);

}  // namespace cascade
