#include "tiled_schedule.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "boundary_schedule.h"
#include "contract/register_budget.h"
#include "tile_staging.h"

namespace cascade {

using namespace Halide;

namespace {

std::vector<CarryScan> carry_scans(const IirTiledFuncs &f) {
    return {f.column_prologue, f.column_epilogue, f.row_prologue, f.row_epilogue};
}

// Whether a dimension's carries are completed by schedule_carries_in_one_kernel_cuda:
// where they are rescanned and not stored one by one. Above K = 4 the scans are not unrolled
// (schedule_carry_cuda says why), and their state would leave the registers.
bool fused(const CarryScan &p, CarryKernels carries) {
    return p.form == CarryForm::rescan && carries == CarryKernels::automatic && p.K <= 4;
}

// Where a dimension's carries are not in one kernel a carry: whether each is stored once complete
// (kernels of its own) rather than completed where it is read (`carries=inline`, the powers form:
// each use costs K products, free at K ≤ 4 where it is read once per row or column of a tile,
// but at K = 16 the inlined expressions take Halide over 5 minutes to compile).
bool stored(const CarryScan &p, CarryKernels carries) { return p.K > 4 || carries != CarryKernels::inline_; }

// `stage`'s outermost GPU block variable `v`, renamed to carry a register budget (0: none), for
// the kernel's name (contract/register_budget.h): a specialization may carry a budget of its own.
Var with_budget(Stage stage, Var v, int registers) {
    if (registers == 0) return v;
    Var budgeted(register_budget_name(v.name(), registers));
    stage.rename(v, budgeted);
    return budgeted;
}

// A tile's seeds (TileScans::seeds) computed where the tile is, before it: on the GPU a thread
// per line, its seeds unrolled, so that their loads are in flight together; on the CPU vectorized
// across lines.
void compute_seeds_at(const TileScans &t, Func f, VarOrRVar at, bool gpu, int lanes) {
    if (!t.seeds.defined()) return;
    Func seeds = t.seeds;
    const std::vector<Var> a = seeds.args();  // i, s, tx, ty, c
    if (at.is_rvar) {
        seeds.compute_at(f, at.rvar);
    } else {
        seeds.compute_at(f, at.var);
    }
    seeds.bound(a[1], 0, t.seed_count).reorder(a[1], a[0]).unroll(a[1]);
    for (int d = 2; d < 5; d++) seeds.bound_extent(a[d], 1);
    if (gpu) {
        seeds.gpu_threads(a[0]);
    } else {
        seeds.vectorize(a[0], lanes, TailStrategy::GuardWithIf);
    }
}

// Exact boundaries: the last tiles' rescan, specialized away where the image is whole tiles (its
// predicate then folds to false and its kernel goes, iir_tiled.cpp). Called once the update is
// scheduled: the specialization copies that schedule.
void skip_rescan_on_whole_tiles(IirTiledFuncs &f) {
    if (f.full.defined()) f.output.update(0).specialize(f.full);
}

}  // namespace

const int kCpuLanes = 8;

CarryKernels parse_carry_kernels(const std::string &text) {
    if (text == "auto") return CarryKernels::automatic;
    if (text == "stored") return CarryKernels::stored;
    if (text == "inline") return CarryKernels::inline_;
    throw std::invalid_argument("carries must be auto, stored or inline, not " + text);
}

ScanStyle parse_scan_style(const std::string &text) {
    if (text == "auto") return ScanStyle::automatic;
    if (text == "registers") return ScanStyle::registers;
    if (text == "shared") return ScanStyle::shared;
    throw std::invalid_argument("scan must be auto, registers or shared, not " + text);
}

CarryForm carry_form(CarryKernels carries, const Target &target) {
    return target.has_gpu_feature() && carries != CarryKernels::inline_ ? CarryForm::rescan
                                                                        : CarryForm::powers;
}

bool rows_in_registers(ScanStyle scan, bool exact, int tile, int row_states, const Target &target) {
    // `automatic`: in registers under boundary none, and under exact boundaries for recursions of up
    // to 2 states. Exact boundaries at 4 states: 42.5 GiP/s in shared memory at 5000×3001 on an
    // H100, 6-order3-clamp (in registers: 40.1; 5% faster on whole tiles): past the image the exact
    // capture selects the row's last valid sample among all 64 (tile_scans.cpp), and images of real
    // sizes are rarely whole tiles. At 2 states registers win there too: a first-order filter as a
    // section under mirror, H200, 0.0669 against 0.0698 ms at 2048², 0.1415 / 0.1406 at 5000×3001,
    // 0.0843 / 0.0876 at 1000×999; under clamp 0.3576 / 0.3832 at 8192².
    // A row of 128 samples is more than the JIT's 64 registers a thread hold: tile_edges 128 µs in
    // shared memory at 8192² on an H100, 6-order3 (in registers, spilling: 227).
    if (!target.has_gpu_feature()) return false;
    return scan == ScanStyle::registers ||
           (scan == ScanStyle::automatic && (!exact || row_states <= 2) && tile <= 64);
}

void schedule_tile_cpu(TileScans t, int lanes) {
    t.func.vectorize(t.func.args()[0], lanes, TailStrategy::GuardWithIf);
    // Lanes of neighbouring columns (rows) scan in lockstep.
    for (const TileUpdate &u : t.updates)
        t.func.update(u.index)
            .reorder(u.across, u.along)
            .vectorize(u.across, lanes, TailStrategy::GuardWithIf);
}

void schedule_edge_pass_cpu(EdgePass &pass, int lanes) {
    const std::vector<Var> a = pass.edges.args();  // i, s, tx, ty, c
    Var tile("tile");
    pass.edges.compute_root().reorder(a[0], a[1], a[2], a[3], a[4]).fuse(a[3], a[4], tile).parallel(tile);
    pass.tile.func.compute_at(pass.edges, a[2]);
    compute_seeds_at(pass.tile, pass.edges, a[2], false, lanes);
    schedule_tile_cpu(pass.tile, lanes);
    if (pass.last_tile.func.defined()) {
        // Tiles of the L are disjoint (the corner is in the row only).
        pass.edges.update(0).allow_race_conditions().parallel(pass.last_strip.z);
        pass.last_tile.func.compute_at(pass.edges, pass.last_strip.z);
        compute_seeds_at(pass.last_tile, pass.edges, pass.last_strip.z, false, lanes);
        schedule_tile_cpu(pass.last_tile, lanes);
    }
}

void schedule_carry_cpu(CarryScan p, int lanes) {
    Var io("io"), ii("ii");
    const std::vector<Var> args = p.local.args();  // i, n, chunk, c
    Var chunk("chunk");
    p.local.compute_root()
        .split(args[0], io, ii, lanes, TailStrategy::GuardWithIf)
        .reorder(ii, args[1], io, args[2], args[3])
        .vectorize(ii)
        .fuse(args[2], args[3], chunk)
        .parallel(chunk);
    const Var wi = p.within.args()[0];
    p.within.compute_at(p.local, io);
    p.within.update()
        .reorder(wi, p.within_steps.x, p.within_steps.y)
        .vectorize(wi, lanes, TailStrategy::GuardWithIf);
    const std::vector<Var> cargs = p.chunk_state.args();  // i, n, c
    p.chunk_state.compute_root();
    p.chunk_state.update()
        .split(cargs[0], io, ii, lanes, TailStrategy::GuardWithIf)
        .reorder(ii, p.chunk_steps.x, p.chunk_steps.y, io, cargs[2])
        .vectorize(ii)
        .parallel(io);
    // Always stored on the CPU: 31.9 ms at 2048² on 2 cores, algorithm 6, order 3 (completed where
    // read: 40.5; algorithms 5 and 4 alike).
    const std::vector<Var> fargs = p.func.args();  // i, s, t, c
    p.func.compute_root()
        .bound(fargs[1], 0, p.K)
        .reorder(fargs[0], fargs[1], fargs[2], fargs[3])
        .vectorize(fargs[0], lanes, TailStrategy::GuardWithIf)
        .parallel(fargs[2]);
}

// A tile in shared memory; each scan one thread per column (row), the scan unrolled so the
// running values stay in registers and the seeds' selects fold away.
void schedule_tile_cuda(TileScans t, Func source, int b, int rows) {
    // Rows interleaved only where the tile holds rows past b (captures), so that those fold: 96.2
    // GiP/s at 4096² on an H100, 6-order3 (no tile interleaved: 93.8; every tile: 93.8).
    stage_tile_through_registers(t.func, source, t.func.args()[0], t.func.args()[1], b, rows, t.columns,
                                 t.rows, t.rows > b);
    schedule_scans_cuda(t);
}

void schedule_scans_cuda(TileScans t) {
    for (const TileUpdate &u : t.updates)
        t.func.update(u.index).reorder(u.along, u.across).gpu_threads(u.across).unroll(u.along);
}

void schedule_edge_pass_cuda(EdgePass &pass, Func source, int b, int rows) {
    const std::vector<Var> a = pass.edges.args();  // i, s, tx, ty, c
    pass.edges.compute_root()
        .reorder(a[1], a[0], a[2], a[3], a[4])
        .gpu_blocks(a[2], a[3], a[4])
        .gpu_threads(a[0])
        .unroll(a[1]);
    pass.tile.func.compute_at(pass.edges, a[2]);
    compute_seeds_at(pass.tile, pass.edges, a[2], true, 0);
    schedule_tile_cuda(pass.tile, source, b, rows);
    if (pass.rows.func.defined()) {
        // Each thread scans its row in registers and keeps only the carries: tile_edges 238 µs at
        // 8192² on an H100, 6-order3 (in shared memory: 250). Not in the last pass (290 against 269):
        // its rows go back through a second shared buffer for coalesced stores, halving blocks per SM.
        TileScans r = pass.rows;
        r.func.compute_at(pass.edges, a[0]).unroll(r.func.args()[0]);
        for (const TileUpdate &u : r.updates) r.func.update(u.index).unroll(u.along);
    }
    if (pass.last_tile.func.defined()) {
        // One tile of the L per block, as the tiles above; they are disjoint.
        const RDom &r = pass.last_strip;
        pass.edges.update(0)
            .allow_race_conditions()
            .reorder(r.y, r.x, r.z, a[4])
            .gpu_blocks(r.z, a[4])
            .gpu_threads(r.x)
            .unroll(r.y);
        compute_one_tile_at(pass.last_tile.func, pass.edges, r.z, pass.last_tile.columns,
                            staged_rows(pass.last_tile.rows, rows));
        compute_seeds_at(pass.last_tile, pass.edges, r.z, true, 0);
        schedule_tile_cuda(pass.last_tile, source, b, rows);
    }
}

// One thread per column (row) and chunk scans the chunk with its state in registers; one
// per column (row) then runs the short scan over chunks. Unrolling the chunk (kChunk·K steps of K
// products) is what keeps the state in registers; beyond K = 4 it costs LLVM minutes per
// variant (K = 16: over 7 minutes) for orders whose speed matters less.
void schedule_carry_cuda(CarryScan p, bool stored, int registers) {
    const bool unrolled = p.K <= 4;
    Var io("io"), ii("ii");
    // The zero-state chunk scans: what is stored of them, a thread per line and chunk.
    Func chunk_scans = p.form == CarryForm::powers ? p.local : p.chunk_end;
    const std::vector<Var> args = chunk_scans.args();  // i, n (or s), chunk, c
    Var c = with_budget(chunk_scans, args[3], registers);
    chunk_scans.compute_root()
        .split(args[0], io, ii, 64, TailStrategy::GuardWithIf)
        .reorder(args[1], ii, io, args[2], c)
        .gpu_blocks(io, args[2], c)
        .gpu_threads(ii);
    if (p.form == CarryForm::rescan) chunk_scans.bound(args[1], 0, p.K);
    p.within.compute_at(chunk_scans, ii);
    if (unrolled) {
        chunk_scans.unroll(args[1]);
        p.within.update().unroll(p.within_steps.x).unroll(p.within_steps.y);
    }
    const std::vector<Var> cargs = p.chunk_state.args();  // i, n, c
    p.chunk_state.compute_root();
    Stage chunk_steps = p.chunk_state.update();
    chunk_steps.split(cargs[0], io, ii, 64, TailStrategy::GuardWithIf);
    if (unrolled) {
        // The chunks' end states loaded kChunksAhead chunks at a time, before the serial steps that
        // read them, so that their loads are in flight together: twoway's inward chunk scans (K = 4)
        // 11.0 µs at 8192² on an H100 (one chunk at a time: 30.6).
        constexpr int kChunksAhead = 4;
        RVar ahead("ahead"), step("step");
        chunk_steps.split(p.chunk_steps.y, ahead, step, kChunksAhead, TailStrategy::GuardWithIf)
            .reorder(p.chunk_steps.x, step, ahead, ii, io, cargs[2])
            .unroll(step);
        Func ends = chunk_scans.in(p.chunk_state);
        const std::vector<Var> e = ends.args();  // i, n (or s), chunk, c
        ends.compute_at(p.chunk_state, ahead)
            .bound_extent(e[0], 1)
            .bound_extent(e[1], p.K)
            .bound_extent(e[2], kChunksAhead)
            .bound_extent(e[3], 1);
        for (Var v : e) ends.unroll(v);
    } else {
        chunk_steps.reorder(p.chunk_steps.x, p.chunk_steps.y, ii, io, cargs[2]);
    }
    chunk_steps.gpu_blocks(io, cargs[2]).gpu_threads(ii).unroll(p.chunk_steps.x);
    if (!stored) {
        if (p.form == CarryForm::rescan)
            throw std::invalid_argument("rescanned carries are completed where they are stored");
        return;
    }
    const std::vector<Var> fargs = p.func.args();  // i, s, t, c
    p.func.compute_root().bound(fargs[1], 0, p.K);
    if (p.form == CarryForm::powers) {
        p.func.reorder(fargs[1], fargs[0], fargs[2], fargs[3])
            .split(fargs[0], io, ii, 64, TailStrategy::GuardWithIf)
            .gpu_blocks(io, fargs[2], fargs[3])
            .gpu_threads(ii)
            .unroll(fargs[1]);
        return;
    }
    // A thread per line and chunk rescans the chunk and stores its tiles.
    Var chunk("chunk"), v("v");
    p.func.split(fargs[2], chunk, v, TiledLayout::kChunk, TailStrategy::GuardWithIf)
        .reorder(fargs[1], v, fargs[0], chunk, fargs[3])
        .split(fargs[0], io, ii, 64, TailStrategy::GuardWithIf)
        .gpu_blocks(io, chunk, fargs[3])
        .gpu_threads(ii);
    p.rescan.compute_at(p.func, ii);
    if (unrolled) {
        p.func.unroll(fargs[1]).unroll(v);
        p.rescan.update().unroll(p.rescan_steps.x).unroll(p.rescan_steps.y);
    }
}

// Carries completed in one kernel (rescanned, K ≤ 4): `out` (i, s, t, c), s ∈ [0, states), in blocks
// of kLines lines and all their tiles. In a block, for each carry in turn: a thread per line and
// chunk scans its chunk from zero, a thread per line scans the chunks' end states; then a thread
// per line and chunk rescans its chunks, seeded, and stores their tiles. Only the chunks' states
// cross threads, in shared memory; the rest stays in registers. With two carries (P, then E of
// one dimension: `out` is completed_carries) E's zero-state scans read P's tiles, rescanned again
// where they are read. With `feedbacks` (exact boundaries) `out` is the corrected carries
// (iir_tiled.cpp, exact_carries) and each block first computes its lines' feedbacks, a thread per
// line, rescanning the chunks they read (`rereads`, IirTiledFuncs::column_feedback_reads).
// `registers`: the kernel's budget (0: the JIT's cap); `registers_many_chunks`, where set, the
// budget of the blocks of 8 lines past kOneWaveChunks chunks.
void schedule_carries_in_one_kernel_cuda(Func out, int states, const std::vector<CarryScan> &carries,
                                         int registers = 0, int registers_many_chunks = 0,
                                         Func feedbacks = Func(), const std::vector<CarryScan> &rereads = {},
                                         Func correction = Func()) {
    // Lines per block: 8 while their chunks' states fit in shared memory (4 states × 8 lines × K ≤ 4
    // × 64 chunks: 32 KB), then one (up to 512 chunks: 4096 tiles along a dimension, 32 KB).
    constexpr int kLines = 8, kFewChunks = 64, kChunkThreads = 16, kOneWaveChunks = 4;
    constexpr int kMostChunks = TiledLayout::kMostGpuTiles / TiledLayout::kChunk;
    const int K = carries[0].K;
    const Expr chunks = carries[0].chunks;
    // With a budget past the cap, the registers bound the blocks an SM holds, so a block has a
    // thread per chunk up to kChunkThreads rather than 16 whatever the image, most of them idle
    // below 16 chunks: van Vliet's columns 21.6 µs against 33.3 at 8192² on an H200, tiles of 128
    // (8 chunks). Under the cap the split by a run-time factor costs more than the idle threads:
    // order 1 at 8192², 16 chunks, 12.2 against 11.4–11.9.
    const Expr chunk_threads = registers > 0 ? min(chunks, kChunkThreads) : Expr(kChunkThreads);
    Var io("io"), ii("ii"), chunk("chunk"), v("v"), co("co"), ci("ci");
    const std::vector<Var> a = out.args();  // i, s, t, c
    // The tiles from 0: each thread's tiles are then one chunk of each carry it rescans, in its
    // registers. Under exact boundaries the output's rescan of the last tiles reads them through a
    // tile Halide cannot prove ≥ 0, and an unbounded `t` starts the chunks anywhere: two chunks a
    // thread, of a size known only at run time, rescanned into global memory.
    out.compute_root().bound(a[1], 0, states).bound(a[2], 0, chunks * TiledLayout::kChunk);
    auto lines_per_block = [&](Stage stage, int lines, int budget) {
        const Var c = with_budget(stage, a[3], budget);
        // RoundUp: the lines are whole tiles (a multiple of 8); a guarded split lets Halide size the
        // block by the image (CUDA_ERROR_INVALID_VALUE at launch).
        stage.split(a[0], io, ii, lines, TailStrategy::RoundUp)
            .split(a[2], chunk, v, TiledLayout::kChunk, TailStrategy::RoundUp)
            .split(chunk, co, ci, chunk_threads, TailStrategy::GuardWithIf)
            .reorder(a[1], v, ii, ci, co, io, c)
            .gpu_blocks(io, c)
            .gpu_threads(ii, ci)
            .unroll(a[1])
            .unroll(v);
    };
    if (registers_many_chunks != 0)
        lines_per_block(out.specialize(chunks <= kOneWaveChunks), kLines, registers);
    lines_per_block(out.specialize(chunks <= kFewChunks), kLines,
                    registers_many_chunks != 0 ? registers_many_chunks : registers);
    lines_per_block(out.specialize(chunks <= kMostChunks), 1, registers);
    lines_per_block(out, 1, registers);
    out.specialize_fail("the GPU's tiled filters take at most " + std::to_string(TiledLayout::kMostGpuTiles) +
                        " tiles along a dimension");
    for (CarryScan p : carries) {
        const std::vector<Var> e = p.chunk_end.args();  // i, s, chunk, c
        Var eo("eo"), ei("ei");
        p.chunk_end.compute_at(out, io)
            .bound(e[1], 0, K)
            .split(e[2], eo, ei, chunk_threads, TailStrategy::GuardWithIf)
            .reorder(e[1], e[0], ei, eo)
            .gpu_threads(e[0], ei)
            .unroll(e[1]);
        p.within.compute_at(p.chunk_end, e[0]);
        p.within.update().unroll(p.within_steps.x).unroll(p.within_steps.y);
        p.chunk_state.compute_at(out, io);
        p.chunk_state.update()
            .reorder(p.chunk_steps.x, p.chunk_steps.y, p.chunk_state.args()[0])
            .gpu_threads(p.chunk_state.args()[0])
            .unroll(p.chunk_steps.x);
        p.rescan.compute_at(out, ii);
        p.rescan.update().unroll(p.rescan_steps.x).unroll(p.rescan_steps.y);
    }
    if (carries.size() == 2) {
        CarryScan P = carries[0], E = carries[1];
        Func p_rescan = P.rescan.clone_in(P.func.clone_in(E.input.clone_in(E.within)));
        p_rescan.compute_at(E.chunk_end, E.chunk_end.args()[0]);
        p_rescan.update().unroll(P.rescan_steps.x).unroll(P.rescan_steps.y);
    }
    if (!feedbacks.defined()) return;
    const std::vector<Var> fa = feedbacks.args();  // s, i, c
    feedbacks.compute_at(out, io)
        .bound(fa[0], 0, states)
        .reorder(fa[0], fa[1])
        .gpu_threads(fa[1])
        .unroll(fa[0]);
    for (CarryScan p : rereads) {
        p.rescan.compute_at(feedbacks, fa[1]);
        p.rescan.update().unroll(p.rescan_steps.x).unroll(p.rescan_steps.y);
    }
    // The first and last tiles' corrections, once for the block's lines, so that storing a tile's
    // carries adds one value from shared memory: van Vliet clamp, 2048² on an H200, 11.7 + 12.6 µs
    // (formed for every tile as it is stored: 16.0 + 18.5). Where their count is read from a table
    // (run-time tables), inline: shared memory is sized before launch.
    if (!correction.defined()) return;
    const std::vector<Var> ca = correction.args();  // i, s, k, c
    correction.compute_at(out, io).bound(ca[1], 0, states);
    // Past order 1 and 4 chunks a thread a line and state, elsewhere a thread a line. On an H200,
    // clamp, reflect and mirror, a thread a line and state against a thread a line: van Vliet at
    // 8192² (8 chunks) 0.3804–0.3819 ms against 0.3825–0.3833, at 2048² (2 chunks) 0.0559–0.0567
    // against 0.0556–0.0564; order 1 at 8192² 0.2684–0.2695 against 0.2679–0.2686.
    if (states > 2)
        correction.specialize(chunks > kOneWaveChunks)
            .reorder(ca[2], ca[0], ca[1], ca[3])
            .gpu_threads(ca[0], ca[1]);
    correction.reorder(ca[1], ca[2], ca[0], ca[3]).gpu_threads(ca[0]).unroll(ca[1]);
}

void schedule_iir_tiled_cpu(IirTiledFuncs &f, int lanes) {
    const int b = f.b;
    Var tile("tile");
    auto schedule_tile = [&](TileScans t) { schedule_tile_cpu(t, lanes); };
    for (EdgePass &pass : f.edge_passes) schedule_edge_pass_cpu(pass, lanes);
    for (CarryScan p : carry_scans(f)) schedule_carry_cpu(p, lanes);
    for (Func feedbacks : {f.column_feedbacks, f.row_feedbacks})
        if (feedbacks.defined()) schedule_feedbacks_cpu(feedbacks);
    if (f.level.defined()) schedule_level_cpu(f.level);
    // The first and last tiles' corrections stored apart, then every tile's corrected carries.
    for (Func carries : {f.column_correction, f.row_correction, f.corrected_columns, f.corrected_rows})
        if (carries.defined())
            carries.compute_root()
                .vectorize(carries.args()[0], lanes, TailStrategy::GuardWithIf)
                .parallel(carries.args()[2]);
    if (f.algorithm == 6)
        f.column_effect.compute_root()
            .bound(f.u, 0, f.column_states)
            .bound(f.v, 0, f.row_states)
            .parallel(f.ty)
            .unroll(f.u)
            .unroll(f.v);

    Var xo("xo"), yo("yo"), xi("xi_out"), yi("yi_out");
    f.output.tile(f.x, f.y, xo, yo, xi, yi, b, b, TailStrategy::GuardWithIf)
        .fuse(yo, f.c, tile)
        .parallel(tile)
        .vectorize(xi, lanes);
    f.final_tile.func.compute_at(f.output, xo);
    compute_seeds_at(f.final_tile, f.output, xo, false, lanes);
    schedule_tile(f.final_tile);
    if (f.last_tile.func.defined()) {
        // Tiles of the L are disjoint (the corner is in the row only).
        const RDom &r = f.last_strip;
        f.output.update(0).allow_race_conditions();
        f.last_tile.func.compute_at(f.output, r.z);
        compute_seeds_at(f.last_tile, f.output, r.z, false, lanes);
        schedule_tile(f.last_tile);
        skip_rescan_on_whole_tiles(f);
    }
}

// The budget of a kernel completing both carries of a dimension (K ≥ 2) past kOneWaveChunks
// chunks: at 255 a block of 8 lines and 8 chunks leaves an SM 4 blocks, and the 1024 blocks of 8192
// columns take two waves, each waiting out the serial steps with 8 warps an SM; at 128 they take
// one (ptxas, sm_90, K = 3 exact: the columns' kernel spills nothing, the rows' 72 bytes a thread).
// van Vliet at 8192² on an H200, tiles of 128: none 0.3635 ms against 0.3735, clamp 0.3857 against
// 0.3983; 5000×3001 clamp 0.1446 against 0.1596 (104 registers: 0.3647 and 0.3878 at 8192²; 96:
// 0.3695, 0.3921; 64: 0.3820, 0.4121). Up to 4 chunks a block has at most 32 threads and images to
// 4096 lines fit one wave at 255 (128 gained nothing there: van Vliet at 2048² and 4096² within
// 0.5%). Where 128's spills cost more than the wave they save: Deriche's 2nd order, clamp, at 2048²
// (its margin makes 5 chunks of tiles of 64) 0.1398–0.1406 ms against 0.1327–0.1345.
constexpr int kManyChunksRegisters = 128;

void schedule_iir_tiled_cuda(IirTiledFuncs &f, int rows, CarryKernels carries) {
    const int b = f.b;
    auto schedule_tile = [&](TileScans t) { schedule_tile_cuda(t, t.samples, b, rows); };
    for (EdgePass &pass : f.edge_passes) schedule_edge_pass_cuda(pass, pass.tile.samples, b, rows);
    const bool exact = f.column_feedbacks.defined();
    struct Dimension {
        Func completed, corrected, feedbacks;
        CarryScan P, E;
        std::vector<CarryScan> rereads;
        Func correction;
    };
    Dimension dimensions[] = {
        {f.completed_columns, f.corrected_columns, f.column_feedbacks, f.column_prologue, f.column_epilogue,
         f.column_feedback_reads, f.column_correction},
        {f.completed_rows, f.corrected_rows, f.row_feedbacks, f.row_prologue, f.row_epilogue,
         f.row_feedback_reads, f.row_correction}};
    for (Dimension &d : dimensions) {
        CarryScan &P = d.P, &E = d.E;
        if (fused(P, carries) && (P.K <= 3 || exact)) {
            // Both carries of a dimension in one kernel, in its registers (uncapped up to 4 chunks,
            // then kManyChunksRegisters): 80 GiP/s at 2048² on an H100, 6-order3, tiles of 128 (a
            // kernel each: 70, but 1% faster at 8192²).
            // With exact boundaries it stores the corrected carries, each block computing its lines'
            // feedbacks first: no kernels of their own, which each waited for the whole image's
            // carries. Order 1, clamp, over none on an H200: +16%, +10%, +7% at 2048², 4096², 8192²
            // (four kernels of their own: +35%, +22%, +13%).
            const bool budgeted = P.K > 1;
            schedule_carries_in_one_kernel_cuda(exact ? d.corrected : d.completed, 2 * P.K, {P, E},
                                                budgeted ? kUncappedRegisters : 0,
                                                budgeted ? kManyChunksRegisters : 0, d.feedbacks, d.rereads,
                                                f.correction_counts_before_launch ? d.correction : Func());
        } else if (fused(P, carries)) {
            // K = 4: a kernel per carry. Both in one need 255 registers a thread, which the JIT's cap
            // of 64 (Halide's HL_CUDA_JIT_MAX_REGISTERS) spills. E's kernel, which forms
            // Ē(t + 1) + Mc·P(t), spills alone under the cap, so it runs uncapped: 45.3 µs for the
            // columns at 8192² on an H100, 6-order3 (capped: 92.5).
            schedule_carries_in_one_kernel_cuda(P.func, P.K, {P});
            schedule_carries_in_one_kernel_cuda(E.func, E.K, {E}, kUncappedRegisters);
        } else {
            schedule_carry_cuda(P, stored(P, carries));
            schedule_carry_cuda(E, stored(E, carries));
            if (exact) {
                // The feedbacks in a kernel, the first and last tiles' corrections in another, then
                // the corrected carries in a pass of their own: a thread per line, its states unrolled.
                const Var line = schedule_feedbacks_cuda(d.feedbacks);
                for (CarryScan p : d.rereads) p.rescan.compute_at(d.feedbacks, line);
                for (Func carries : {d.correction, d.corrected}) {
                    const std::vector<Var> a = carries.args();  // i, s, t (or k), c
                    Var io("io"), ii("ii");
                    carries.compute_root()
                        .bound(a[1], 0, 2 * P.K)
                        .reorder(a[1], a[0], a[2], a[3])
                        .split(a[0], io, ii, 64, TailStrategy::GuardWithIf)
                        .gpu_blocks(io, a[2], a[3])
                        .gpu_threads(ii)
                        .unroll(a[1]);
                }
            }
        }
    }
    if (f.level.defined()) {
        f.level_terms.bound(f.level_terms.args()[0], 0, kLevelTerms);
        schedule_level_cuda(f.level, f.level_terms);
    }
    if (f.algorithm == 6) {
        Var to("to"), ti("ti");
        // One thread per dot product (u, v) of a tile, a few tiles per block, in one kernel: a
        // wrapper maps the products to threads, each sums in a register, and every stage in the
        // block uses one thread dimension of the same extent: 41 µs at 8192² on an H100 for K = 4,
        // with the operands staged below (one thread per tile doing all (2K)² products: 335).
        const int products = f.column_states * f.row_states;
        const int tiles_per_block = std::max(1, std::min(32, 256 / products));
        const int threads = products * tiles_per_block;
        Func effect = f.column_effect.in();
        Var uv("uv"), lane("lane");
        effect.compute_root()
            .bound(f.u, 0, f.column_states)
            .bound(f.v, 0, f.row_states)
            .split(f.tx, to, ti, tiles_per_block, TailStrategy::GuardWithIf)
            .reorder(f.u, f.v, ti, to, f.ty, f.c)
            .fuse(f.u, f.v, uv)
            .fuse(uv, ti, lane)
            .gpu_blocks(to, f.ty, f.c)
            .gpu_threads(lane);
        // The dot product unrolled and the carries' states staged unrolled, so that their loads
        // are in flight together: 34.2 µs at 8192² on an H100, 6-order3 (rolled: 41.5).
        f.column_effect.compute_at(effect, lane);
        f.column_effect.update().unroll(f.effect_sum.x);
        // The column carries and the table rows a block reads, staged in shared memory with
        // coalesced loads; read from global memory, each warp's load touches one line per u (or
        // v): order 3 (K = 4) takes 135 µs at 8192² on an H100.
        for (Func carry : f.column_carries_read) {
            const std::vector<Var> a = carry.args();  // i, s, t, c
            Var io("io"), ii("ii");
            carry.in(f.column_effect)
                .compute_at(effect, to)
                .reorder_storage(a[1], a[0])
                .split(a[0], io, ii, threads, TailStrategy::GuardWithIf)
                .reorder(a[1], io, ii)
                .gpu_threads(ii)
                .unroll(a[1]);
        }
        const std::vector<Var> ta = f.horizontal_table.args();  // column, row
        Var entry("entry"), eo("eo"), ei("ei");
        f.horizontal_table.in(f.column_effect)
            .compute_at(effect, to)
            .fuse(ta[0], ta[1], entry)
            .split(entry, eo, ei, threads, TailStrategy::GuardWithIf)
            .gpu_threads(ei);
    }

    if (f.row_carries.defined() && f.row_states >= 4) {
        // One thread per row of a tile, all its carries: the serial row-carry scans then read
        // them instead of summing the column effect at every step: 61.4 GiP/s at 4096² on an H100,
        // algorithm 6, order 3 (inline: 58.2). Order 1 (K = 1) stays inline: 145.0 against 141.4.
        const std::vector<Var> a = f.row_carries.args();  // y, s, tx, c
        Var yo("yo"), yi("yi");
        f.row_carries.compute_root()
            .bound(a[1], 0, f.row_states)
            .reorder(a[1], a[0], a[2], a[3])
            .split(a[0], yo, yi, b, TailStrategy::GuardWithIf)
            .gpu_blocks(yo, a[2], a[3])
            .gpu_threads(yi)
            .unroll(a[1]);
    }

    if (f.output_full.defined()) {
        // Whole tiles: the output's stores need no test (H100, 8192², 6-order1: with it the output
        // pass spends a quarter of its instructions storing, behind a test and a branch per row).
        tile_output_cuda(f.output.specialize(f.output_full), f.x, f.y, f.c, b, rows, TailStrategy::RoundUp);
    }
    const Var block = tile_output_cuda(f.output, f.x, f.y, f.c, b, rows);
    compute_one_tile_at(f.final_tile.func, f.output, block, f.final_tile.columns,
                        staged_rows(f.final_tile.rows, rows));
    compute_seeds_at(f.final_tile, f.output, block, true, 0);
    schedule_tile(f.final_tile);
    if (f.full.defined()) {
        // H100, 8192², algorithm 6: unspecialized, the tile passes spend a third of their
        // instructions and half their stalls loading samples through the image test (ncu, order 1).
        for (EdgePass &pass : f.edge_passes) pass.edges.specialize(f.full);
    }
    if (f.last_tile.func.defined()) {
        const TileScans &t = f.last_tile;
        const RVar at = tile_update_cuda(f.output, 0, f.last_strip, f.c, rows);
        compute_one_tile_at(t.func, f.output, at, t.columns, staged_rows(t.rows, rows));
        compute_seeds_at(t, f.output, at, true, 0);
        schedule_tile(t);
        skip_rescan_on_whole_tiles(f);
    }
}

}  // namespace cascade
