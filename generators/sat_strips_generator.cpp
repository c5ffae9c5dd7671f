// The CPU's summed-area table by strips of rows (algebra/sat_strips.h). The strips' height is
// a run-time input (runtime/sat.cpp chooses it).
#include <stdexcept>

#include "funcs/table_strips.h"

namespace {

using namespace Halide;

// Halide 14's generator parameters cannot name 64-bit types: one registered generator per table
// type.
template <typename Table>
class SatStrips : public Generator<SatStrips<Table>> {
public:
    GeneratorInput<Buffer<>> input{"input", 3};
    GeneratorInput<int> strip{"strip"};  // rows per strip
    GeneratorOutput<Buffer<Table>> output{"output", 3};

    void generate() {
        if (this->get_target().has_gpu_feature())
            throw std::invalid_argument("sat_strips is a CPU realisation");
        const cascade::funcs::Filtered filtered(cascade::funcs::table_strips(
            input, output, input.dim(0).extent(), input.dim(1).extent(), output.type(), strip));
        // The chunks start at column 0.
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
        }
        filtered.schedule(this->get_target());
    }
};

}  // namespace

using SatStripsF32 = SatStrips<float>;
using SatStripsU32 = SatStrips<uint32_t>;
using SatStripsU64 = SatStrips<uint64_t>;
HALIDE_REGISTER_GENERATOR(SatStripsF32, sat_strips_float32)
HALIDE_REGISTER_GENERATOR(SatStripsU32, sat_strips_uint32)
HALIDE_REGISTER_GENERATOR(SatStripsU64, sat_strips_uint64)
