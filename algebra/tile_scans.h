#pragma once
// The pieces every block-parallel 2D recursive filter is built from (iir_tiled.h: algorithms 4,
// 5, 6; iir_blocked.h: algorithm 2): a tile Func filtered in place by scan updates, its carries
// captured past its edge, and the carries completed across tiles by chunked linear scans with
// the matrices of contract/tiled_layout.h.
#include <Halide.h>

#include <functional>
#include <string>
#include <vector>

#include "algebra/recursive_filter.h"
#include "contract/tiled_layout.h"

namespace cascade {

// One dimension's filter: S sections of order q, the gain on the first.
struct SectionCascade {
    Halide::Expr gain;
    std::vector<std::vector<Halide::Expr>> feedback;  // [section][k − 1] = a_k

    int sections() const { return int(feedback.size()); }
    int order() const { return int(feedback[0].size()); }
    int state() const { return sections() * order(); }
};

// One in-place update of a tile: a scan or a carry capture, down the columns (`column`) or
// along the rows, parallel across the other dimension.
struct TileUpdate {
    int index;  // update definition of the tile Func
    bool column;
    Halide::RVar along;
    Halide::VarOrRVar across;  // the pure var, or an RVar over [0, b) where the tile is wider
};

// A tile Func, (xi, yi, tx, ty, c), filtered in place by its updates. Where carries are
// captured it is wider than the tile: rows b + s hold the column carries, columns b + s the row
// carries, and the row updates then run over rows [0, b) only.
struct TileScans {
    Halide::Func func;
    int columns = 0;  // its stored width
    int rows = 0;     // its stored height
    std::vector<TileUpdate> updates;
    // Its lines live in registers (one per GPU thread, every step unrolled), so every index into
    // it must be a constant once unrolled: a run-time one moves the line to local memory.
    bool in_registers = false;
    // Where defined, the Func its samples are read from (the GPU stages it into the tile).
    Halide::Func samples;
    // Where defined, where it holds its scans run with unit gains, the samples carrying the
    // filter's scale (iir_tiled.cpp), so that scaling and offsetting a sample is one FMA where it
    // is loaded and each scan step one FMA.
    Halide::Expr gain_in_samples;
    // Its seeds (stage_seeds), (i, s, tx, ty, c): computed where the tile is, before it.
    Halide::Func seeds;
    int seed_count = 0;  // s ∈ [0, seed_count)
};

TileScans new_tile(const std::string &name, int columns, int rows);

// How a carry completion gets each tile's state from its chunk's (CarryScan::func):
//   `powers`: the chunk's zero-state scan, stored, plus M^(v+1)·(the state entering the chunk);
//   `rescan`: the chunk scanned again, seeded with the state entering it, where it is read (a GPU
//            thread per line and chunk, in registers), so that only the chunks' states are stored
//            (schedules/tiled_schedule.cpp: one kernel can then complete both carries of a
//            dimension).
enum class CarryForm { powers, rescan };

// A carry completed across tiles: the recurrence S(t) = M·S(t − 1) + u(t), S(−1) = 0, by chunks
// of TiledLayout::kChunk tiles (no serial scan through global memory over every tile). Chunk j
// holds tiles [j·kChunk, (j + 1)·kChunk) in either direction; a backward scan runs each chunk from
// its last tile, and the image's last chunk, the short one, first.
//   `within`: each chunk's scan from a zero state, per row or column, in registers;
//   `chunk_state`: the state leaving each chunk, a short serial scan over chunks with M^kChunk;
//   `func`: S(t), as `form` says, read where it is used.
struct CarryScan {
    Halide::Func func;         // (i, s, t, c): i the row or column, s the state index, t the tile
    Halide::Func input;        // u (i, s, t, c)
    Halide::Func within;       // (i, v·K + s, chunk, c), v the step within the chunk
    Halide::Func local;        // powers: `within`, stored
    Halide::Func chunk_end;    // rescan: (i, s, chunk, c), the state leaving `within`'s chunk
    Halide::Func chunk_state;  // (i, chunk·K + s, c)
    Halide::Func rescan;       // rescan: (i, v·K + s, chunk, c), seeded with the state entering
    Halide::RDom within_steps, chunk_steps, rescan_steps;  // (s, v), (s, chunk), (s, v)
    Halide::Expr chunks, tiles;
    int K = 0;  // the state size
    CarryForm form = CarryForm::powers;
    // The recurrence: M the table's rows m_row…, M^(v+1) the rows power_row + v·K; backwards when
    // `reverse`.
    Halide::Func table;
    int m_row = 0, power_row = 0;
    bool reverse = false;
};

// The state entering a tile along one dimension, by (row or column within the tile, state
// index); an empty function means zero.
using Seed = std::function<Halide::Expr(Halide::Expr, Halide::Expr)>;
struct Seeds {
    Seed prologue, epilogue;
};

// The scans of one dimension of a tile: `along` the rows (Dim::x) or down the columns (Dim::y),
// parallel across the other, for sections of order q. `bounded`: the updates run across [0, b)
// only (not over captured rows or columns).
class TileScanner {
public:
    TileScanner(TileScans &t, Dim dim, int b, int q, bool bounded);

    // The causal sections, seeded with `prologue`. With `capture`, each section's state at the
    // tile's end is copied, after its scan, to the rows (columns) b + s past the tile, s ∈ [0, K).
    // With `exact` (exact boundaries) the image's last tile is handled as the tables' `last`
    // copies say (tiled_layout.h): the state is captured after its last valid sample (`valid`).
    void causal(const SectionCascade &f, Halide::Expr valid, const Seed &prologue, bool capture, bool exact);

    // The anticausal sections, the first of which sees zeros from sample `valid` of the tile on
    // (past the image's end), seeded with `epilogue`. With `capture`, each section's state at the
    // tile's start goes to b + K + s. With `exact` they enter at the image's end, seeded there,
    // so the seeds of an exact boundary enter exactly where the image ends; elsewhere `valid` ≥ b
    // and nothing changes but a few selects, which the zero-boundary variants do without.
    void anticausal(const SectionCascade &f, Halide::Expr valid, const Seed &epilogue, bool capture,
                    bool exact);

private:
    std::vector<Halide::Expr> at(Halide::Expr p, const Halide::RDom &d) const;
    Halide::Expr across() const;
    void record(const Halide::RDom &d);
    // A scan's gain: one where the samples carry it (TileScans::gain_in_samples).
    Halide::Expr scan_gain(const SectionCascade &f) const;

    TileScans &t_;
    Dim dim_;
    int b_, q_, along_;
    bool bounded_;
    std::vector<Halide::Var> args_;
    Halide::RDom r_, rc_;
};

// Both halves: the causal sections, then the anticausal ones.
void add_scans(TileScans &t, Dim dim, const SectionCascade &f, int b, Halide::Expr valid, const Seeds &seeds,
               bool capture, bool bounded, bool exact);

// Copies a tile's seeds from the completed carries into a Func of its own (TileScans::seeds), one
// line of the tile per i: the column seeds at s ∈ [0, 2K_V) (the prologue, then the epilogue), then
// the row seeds at s ∈ [2K_V, 2K_V + 2K_H), all loaded in one step so that their global loads
// overlap one another instead of each stalling the first step of a scan. Apart from the tile, so
// that the tile holds only its b × b samples and loads nothing else: 109.5 GiP/s at 8192² on an
// H100, 6-order3 (in the tile, as rows and columns past b, which makes the last pass load 2K more
// rows and columns of samples behind a branch: 99.4). Returns seeds that read them.
struct StagedSeeds {
    Seeds column, row;
};
StagedSeeds stage_seeds(TileScans &t, const Seeds &column, int KV, const Seeds &row, int KH);

// The table entry of matrix row `row` (a TiledLayout row index) and column `column`.
Halide::Expr entry(Halide::Func table, Halide::Expr column, Halide::Expr row);

// Σ_s2 M(row, s2)·state(s2): a matrix row times a state vector of K values.
Halide::Expr times_state(Halide::Func table, Halide::Expr row, int K, std::function<Halide::Expr(int)> state);

// Completes prologue carries over `tiles` tiles: P(t) = Mf·P(t − 1) + incomplete(t), P(−1) = 0.
CarryScan complete_prologues(const std::string &name, Halide::Func incomplete, Halide::Func table,
                             const TiledLayout &L, Halide::Expr tiles, CarryForm form = CarryForm::powers);

// Completes epilogue carries backwards: E(t), the state at the start of tile t + 1, is
// incomplete(t + 1) + Mr·E(t + 1), E(tiles − 1) = 0; with `prologue` (causal–anticausal
// overlapping: the incomplete epilogues were scanned from incomplete causal outputs) also
// + Mc·P(t), with the last tile's Mc for t + 1 = tiles − 1.
CarryScan complete_epilogues(const std::string &name, Halide::Func incomplete, const CarryScan *prologue,
                             Halide::Func table, const TiledLayout &L, Halide::Expr tiles,
                             CarryForm form = CarryForm::powers);

// The rescan form's carries read a second time, through a `rescan` and `func` of their own from
// the same chunk states and input, so that a schedule can rescan one line's chunk apart from where
// the tiles' carries are stored (Halide clones a Func only once).
CarryScan reread(const std::string &name, const CarryScan &p);

// A dimension's completed carries in one Func, (i, s, t, c): the prologue P(t) for s < K, then the
// epilogue E(t) for s ∈ [K, 2K). What the tiles read.
Halide::Func completed_carries(const std::string &name, const CarryScan &prologue, const CarryScan &epilogue);

}  // namespace cascade
