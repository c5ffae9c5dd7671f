#pragma once
// Schedules of the block-parallel IIR algorithms 4, 5 and 6 (algebra/iir_tiled.h). The
// algorithms differ in what the tiles store; algorithm 6 differs from 5 only here: its column
// carries' dot products are one parallel kernel (compute_root) instead of being recomputed
// inside the row carries' sequential scan (inline).
#include <string>

#include "algebra/iir_tiled.h"

namespace cascade {

// The CPU's vector width where a manifest does not set the `vector` knob (docs/tuning.md).
extern const int kCpuLanes;

// `lanes`: the vector width of every scan and store.
void schedule_iir_tiled_cpu(IirTiledFuncs &f, int lanes = kCpuLanes);

// The pieces, shared with algorithm 2 (schedules/blocked_schedule.h). CPU: a tile's scans
// vectorized across its columns (rows); a carry completion's chunks in parallel, stored.
void schedule_tile_cpu(TileScans t, int lanes = kCpuLanes);
void schedule_edge_pass_cpu(EdgePass &pass, int lanes = kCpuLanes);
void schedule_carry_cpu(CarryScan p, int lanes = kCpuLanes);
// CUDA: a tile staged from `source` in shared memory by b × rows threads, then its scans one
// thread per column (row); a carry completion, `stored` once complete or completed where read.
void schedule_tile_cuda(TileScans t, Halide::Func source, int b, int rows);
void schedule_scans_cuda(TileScans t);
void schedule_edge_pass_cuda(EdgePass &pass, Halide::Func source, int b, int rows);
// `registers`: the chunk scans' kernel's register budget (contract/register_budget.h), 0 for the
// JIT's cap.
void schedule_carry_cuda(CarryScan p, bool stored, int registers = 0);
// Where the GPU completes the carries (the `carries` knob): `automatic`, the measured rule of
// tiled_schedule.cpp; `stored`, every carry in a kernel of its own; `inline`, every carry where it
// is read, but above K = 4 (minutes of compilation a variant).
enum class CarryKernels { automatic, stored, inline_ };
CarryKernels parse_carry_kernels(const std::string &text);  // "auto", "stored", "inline"
// How the GPU's first pass (algorithms 5, 6) scans its tile rows (the `scan` knob): `registers`, a
// thread per row with the row in registers (EdgePass::rows); `shared`, in place in shared memory;
// `automatic`, the measured rule of tiled_schedule.cpp.
enum class ScanStyle { automatic, registers, shared };
ScanStyle parse_scan_style(const std::string &text);  // "auto", "registers", "shared"
// How the carries are formed from their chunks (algebra/tile_scans.h) for the `carries` knob:
// rescanned on the GPU, so that a dimension's carries take one kernel (K ≤ 4 under `automatic`) or
// are stored each in its own (`stored`, or K > 4); as powers for `inline` and on the CPU.
CarryForm carry_form(CarryKernels carries, const Halide::Target &target);
// Whether the first pass's rows (of `tile` samples, a recursion of `row_states` states along them)
// go to registers on this target, with or without exact boundaries.
bool rows_in_registers(ScanStyle scan, bool exact, int tile, int row_states, const Halide::Target &target);

// `rows`: tile rows loaded per pass by the b × rows threads of a tile's block.
void schedule_iir_tiled_cuda(IirTiledFuncs &f, int rows, CarryKernels carries = CarryKernels::automatic);

}  // namespace cascade
