#include "fir2d_schedule.h"

#include <stdexcept>
#include <string>

#include "contract/register_budget.h"

namespace cascade {

using namespace Halide;

void schedule_fir2d_cpu(Fir2d &f, int lanes) {
    // Eight independent sums a block, each a chain of 2R + 1 multiply-adds: enough to cover the
    // FMA's latency at two a cycle (2048², σ 4, float32, 2 cores: 7.9 ms against 8.7 with four).
    const int chains = 8;
    const int width = 32 * lanes, height = 64;
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), xb("xb"), xu("xu"), xl("xl"), t("t"), yr("yr");
    // A block's vectors of outputs overlap their windows: the 2R + chains·lanes unaligned loads
    // of `columns` serve chains·(2R + 1) multiply-adds.
    f.output.tile(f.x, f.y, xo, yo, xi, yi, width, height, TailStrategy::GuardWithIf)
        .fuse(xo, yo, t)
        .fuse(t, f.c, t)
        .parallel(t)
        .split(xi, xb, xu, chains * lanes, TailStrategy::GuardWithIf)
        .split(xu, xu, xl, lanes, TailStrategy::GuardWithIf)
        .reorder(xl, xu, xb, yi, t)
        .vectorize(xl)
        .unroll(xu);
    // `chains` rows a block down the columns: 2R + chains rows of the copied extension for
    // chains·(2R + 1) multiply-adds. Rounded up: the extension is defined everywhere.
    f.columns.compute_at(f.output, t)
        .split(f.y, yo, yr, chains, TailStrategy::RoundUp)
        .vectorize(f.x, lanes, TailStrategy::RoundUp)
        .reorder(f.x, yr, yo)
        .unroll(yr);
    f.extended.compute_at(f.output, t).vectorize(f.x, lanes, TailStrategy::RoundUp);
    f.source_x.compute_root();
    f.source_y.compute_root();
}

namespace {

// The smallest pitch ≥ extent that is ≡ lanes (mod 32): the row pass's warp, `lanes` threads
// along x in each of 32/lanes rows, then reads 32 distinct banks (16 bank pairs a half-warp for
// float64).
int bank_pitch(int extent, int lanes) {
    int pitch = extent;
    while (pitch % 32 != lanes % 32) pitch++;
    return pitch;
}

}  // namespace

void schedule_fir2d_cuda(Fir2d &f, int sample_bytes, Fir2dTile tile) {
    const int R = f.radius;
    // float32 128 wide: the column pass sums (128 + 2R)/128 columns an output, not (64 + 2R)/64
    // (8192², radius 16, reflect, H100: 0.478 ms against 0.601 at 64 × 64).
    const int TX = tile.width > 0 ? tile.width : sample_bytes == 8 ? 64 : 128;
    // float64: 4 lanes and 16 column rows as float32, under 168 registers a thread, where 128 spill
    // (8192², radius 16, H100: 0.827 ms; 8 lanes and 8 rows under 128: 1.196).
    const int A = tile.lanes > 0 ? tile.lanes : 4;
    const int m = tile.column_rows > 0 ? tile.column_rows : 16;
    const int registers = tile.registers > 0 ? tile.registers : sample_bytes == 8 ? 168 : 128;
    const int P = bank_pitch(TX + 2 * R, A), Po = bank_pitch(TX, A);
    const auto shared_bytes = [&](int ty) { return sample_bytes * ty * (P + Po) + 4 * (TX + ty + 4 * R); };
    int TY = tile.height;
    if (TY <= 0)
        for (TY = 64; TY > 8 && shared_bytes(TY) > 48 * 1024;) TY /= 2;
    if (TX % A || 32 % A || TY % m || (A * TY) % 32 || shared_bytes(TY) > 48 * 1024)
        throw std::invalid_argument("fir2d: no CUDA tile " + std::to_string(TX) + "x" + std::to_string(TY) +
                                    " with " + std::to_string(A) + " lanes and " + std::to_string(m) +
                                    " column rows at radius " + std::to_string(R));
    const int T = A * TY;  // threads a block

    // 128 registers a thread, not Halide's JIT cap of 64 (contract/register_budget.h; the mark is
    // on the outermost block variable, which names the kernel): under 64 the sums spill (8192²,
    // radius 16, H100: float64 2.70 → 1.20 ms, DRAM 75% busy with the spills at 64; float32
    // 0.591 → 0.478).
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), e("e"), eo("eo"), ei("ei");
    Var cb(register_budget_name(f.c.name(), registers));
    // The tile written out from shared memory, consecutive threads along x: whole rows of sectors.
    f.output.split(f.x, xo, xi, TX, TailStrategy::GuardWithIf)
        .split(f.y, yo, yi, TY, TailStrategy::GuardWithIf)
        .reorder(xi, yi, xo, yo, f.c)
        .fuse(xi, yi, e)
        .split(e, eo, ei, T, TailStrategy::GuardWithIf)
        .rename(f.c, cb)
        .gpu_blocks(xo, yo, cb)
        .gpu_threads(ei);

    // The row pass: thread (a, y) sums outputs a, a + A, a + 2A, ... of its row as one vector,
    // their windows overlapping, so that its TX/A sums read TX − A + 2R + 1 values of `columns`,
    // each once: the vector's loads all precede its stores, which lets them be merged (unrolled,
    // the stores into shared memory between the sums kept every sum's 2R + 1 loads).
    Var xj("xj"), xa("xa"), r("r");
    f.rows.compute_at(f.output, xo)
        .store_in(MemoryType::GPUShared)
        .bound_extent(f.x, TX)
        .bound_extent(f.y, TY)
        .bound_storage(f.x, Po)
        .split(f.x, xj, xa, A)
        .reorder(xj, xa, f.y, f.c)
        .fuse(xa, f.y, r)
        .gpu_threads(r)
        .vectorize(xj);

    // The column pass, every thread down m rows of one column: m + 2R loads of the input for
    // m·(2R + 1) multiply-adds, consecutive threads along x (whole sectors). The m sums are
    // registers, copied to shared memory once all are done, for the same reason.
    Var cy("cy"), cyi("cyi"), w("w"), wo("wo"), wi("wi");
    Func tile_columns = f.columns.in(f.rows);
    tile_columns.compute_at(f.output, xo)
        .store_in(MemoryType::GPUShared)
        .bound_storage(f.x, P)
        .split(f.y, cy, cyi, m)
        .fuse(f.x, cy, w)
        .split(w, wo, wi, T, TailStrategy::GuardWithIf)
        .reorder(cyi, wi, wo, f.c)
        .gpu_threads(wi)
        .unroll(cyi);
    f.columns.compute_at(tile_columns, wi)
        .store_in(MemoryType::Register)
        .bound_extent(f.x, 1)
        .bound_extent(f.y, m)
        .unroll(f.y);

    // The extension's sources for the tile and its halo, computed once per block.
    for (Func s : {f.source_x, f.source_y}) {
        Var so("so"), si("si");
        s.compute_at(f.output, xo).split(f.p, so, si, T, TailStrategy::GuardWithIf).gpu_threads(si);
    }
}

}  // namespace cascade
