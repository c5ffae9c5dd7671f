#pragma once
#include <Halide.h>

namespace cascade {

// A tile staged in shared memory by b × rows_per_pass threads: rows padded by one sample so that
// column-wise reads fall in different banks, and the serial row loop innermost, inside the thread
// loops: outside them Halide puts a barrier after every row (one bar.sync per load in the PTX;
// the SAT: 195 GiP/s at 8192² on an H100, against 188 with the barriers).
// `columns`: the tile's stored width when it holds more than its b columns (carries, seeds): the
// columns past b are loaded by the same b threads, so a block stays b × rows_per_pass threads.
void stage_tile(Halide::Func tile, Halide::Var xi, Halide::Var yi, int b, int rows_per_pass, int columns = 0);

// The same, each thread staging `rows` / rows_per_pass rows of one column (rounded up; see
// staged_rows), consecutive ones, or with `interleaved` every rows_per_pass-th (so that whether a
// row lies past b is known at compile time): its loads from `source` (the Func the tile's pure
// definition reads) go to registers first, all issued before the first store to shared memory
// (alternating load–store pairs let ptxas keep only a few loads in flight). 2 rows of threads
// through registers: 74 GiP/s at 8192² on an H100, algorithm 6, order 3 (4 rows alternating: 69).
void stage_tile_through_registers(Halide::Func tile, Halide::Func source, Halide::Var xi, Halide::Var yi,
                                  int b, int rows_per_pass, int columns, int rows, bool interleaved = false);
int staged_rows(int rows, int rows_per_pass);

// The last pass of a tiled algorithm: `output` (x, y, c) written one b×b tile per GPU block by
// b × rows_per_pass threads. Returns the block's var, where the tile's Func is computed. `tail`
// RoundUp where the output is whole tiles: its stores then need no test.
Halide::Var tile_output_cuda(Halide::Stage output, Halide::Var x, Halide::Var y, Halide::Var c, int b,
                             int rows_per_pass,
                             Halide::TailStrategy tail = Halide::TailStrategy::GuardWithIf);

// Computes `tile` (xi, yi, tx, ty, c) at `at` of `output` as exactly one tile of `columns` ×
// `rows` (b × b, or more where it also holds carries): its shared memory then has a static size,
// not one sized by a host loop over every tile.
void compute_one_tile_at(Halide::Func tile, Halide::Func output, Halide::VarOrRVar at, int columns, int rows);

// The same mapping for update `update` of `output` over `r` (xi, yi, tile), the tiles it lists
// disjoint: returns the RVar at which one tile is computed.
Halide::RVar tile_update_cuda(Halide::Func output, int update, const Halide::RDom &r, Halide::Var c,
                              int rows_per_pass);

}  // namespace cascade
