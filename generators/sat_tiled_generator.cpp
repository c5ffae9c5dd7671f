// The tiled summed-area tables (algebra/sat_tiled.h): algorithm = overlapped | 2r1w, and the
// 2R1W of a rectangle inside a larger table (the (1+r)R1W split's bottom-right part).
#include <stdexcept>
#include <string>

#include "funcs/table_tiles.h"

namespace {

using namespace Halide;

// Halide 14's generator parameters cannot name 64-bit types, so the table's type is a template
// argument: one registered generator per table type.
// What both generators share; Self is the registered class (Halide's generators are CRTP).
template <typename Self, typename Table>
class SatTiledBase : public Generator<Self> {
public:
    GeneratorParam<std::string> algorithm{"algorithm", "2r1w"};
    GeneratorParam<int> tile{"tile", 64};
    GeneratorParam<int> rows{"rows", 4};  // GPU: tile rows moved per pass, threads = tile × rows
    // GPU, 2r1w: where each tile's corner is summed, "block" (the tile's) or "kernel" (its own).
    GeneratorParam<std::string> corner{"corner", "block"};

    GeneratorInput<Buffer<>> input{"input", 3};
    GeneratorOutput<Buffer<Table>> output{"output", 3};

protected:
    void build(const cascade::SatBoundary *boundary) {
        if (this->get_target().has_gpu_feature() && corner.value() != "block" && corner.value() != "kernel")
            throw std::invalid_argument("corner must be block or kernel, not " + corner.value());
        const cascade::funcs::Filtered filtered(cascade::funcs::table_tiles(
            input, output, input.dim(0).extent(), input.dim(1).extent(), output.type(),
            {tile, algorithm, rows, corner.value() == "block"}, boundary));
        // Tiles start at 0: every block's tile is then known statically, and no host loop sizes
        // the shared memory over all tiles before each launch.
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
        }
        filtered.schedule(this->get_target());
    }
};

template <typename Table>
class SatTiled : public SatTiledBase<SatTiled<Table>, Table> {
public:
    void generate() { this->build(nullptr); }
};

template <typename Table>
class SatTiledBounded : public SatTiledBase<SatTiledBounded<Table>, Table> {
public:
    GeneratorInput<Buffer<Table>> top{"top", 2};    // (x ∈ [−1, W), c): the table's row above
    GeneratorInput<Buffer<Table>> left{"left", 2};  // (y ∈ [−1, H), c): the table's column left

    void generate() {
        left.dim(0).set_stride(Expr());  // a column of the table
        cascade::SatBoundary boundary{top, left};
        this->build(&boundary);
    }
};

}  // namespace

using SatTiledF32 = SatTiled<float>;
using SatTiledU32 = SatTiled<uint32_t>;
using SatTiledU64 = SatTiled<uint64_t>;
HALIDE_REGISTER_GENERATOR(SatTiledF32, sat_tiled_float32)
HALIDE_REGISTER_GENERATOR(SatTiledU32, sat_tiled_uint32)
HALIDE_REGISTER_GENERATOR(SatTiledU64, sat_tiled_uint64)
using SatTiledBoundedF32 = SatTiledBounded<float>;
using SatTiledBoundedU32 = SatTiledBounded<uint32_t>;
using SatTiledBoundedU64 = SatTiledBounded<uint64_t>;
HALIDE_REGISTER_GENERATOR(SatTiledBoundedF32, sat_bounded_float32)
HALIDE_REGISTER_GENERATOR(SatTiledBoundedU32, sat_bounded_uint32)
HALIDE_REGISTER_GENERATOR(SatTiledBoundedU64, sat_bounded_uint64)
