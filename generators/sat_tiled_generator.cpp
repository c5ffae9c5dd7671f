// The tiled summed-area tables (generators/sat_tiled.h): algorithm = overlapped | 2r1w.
#include "generators/sat_tiled.h"
#include "schedules/sat_schedule.h"

namespace {

using namespace Halide;

// Halide 14's generator parameters cannot name 64-bit types, so the table's type is a template
// argument: one registered generator per table type.
template <typename Table>
class SatTiled : public Generator<SatTiled<Table>> {
public:
    GeneratorParam<std::string> algorithm{"algorithm", "2r1w"};
    GeneratorParam<int> tile{"tile", 64};
    GeneratorParam<int> rows{"rows", 4};  // GPU: tile rows moved per pass, threads = tile × rows

    GeneratorInput<Buffer<>> input{"input", 3};
    GeneratorOutput<Buffer<Table>> output{"output", 3};

    void generate() {
        // Tiles start at 0: every block's tile is then known statically, and no host loop sizes
        // the shared memory over all tiles before each launch.
        cascade::SatTiledFuncs f = cascade::define_sat_tiled(
            input, input.dim(0).extent(), input.dim(1).extent(), output, output.type(), tile, algorithm);
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
        }
        if (this->get_target().has_gpu_feature()) {
            cascade::schedule_sat_tiled_cuda(f, rows);
        } else {
            cascade::schedule_sat_tiled_cpu(f);
        }
    }
};

}  // namespace

using SatTiledF32 = SatTiled<float>;
using SatTiledU32 = SatTiled<uint32_t>;
using SatTiledU64 = SatTiled<uint64_t>;
HALIDE_REGISTER_GENERATOR(SatTiledF32, sat_tiled_float32)
HALIDE_REGISTER_GENERATOR(SatTiledU32, sat_tiled_uint32)
HALIDE_REGISTER_GENERATOR(SatTiledU64, sat_tiled_uint64)
