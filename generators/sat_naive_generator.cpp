// Summed-area table as two full scans, down the columns then along the rows (algorithm RT with
// the prefix-sum filter): the comparison baseline of the tiled algorithms.
#include "algebra/recursive_filter.h"
#include "schedules/rt_schedule.h"

namespace {

using namespace Halide;

// One registered generator per table type (Halide 14 parameters cannot name 64-bit types).
template <typename Table>
class SatNaive : public Generator<SatNaive<Table>> {
public:
    GeneratorInput<Buffer<>> input{"input", 3};
    GeneratorOutput<Buffer<Table>> output{"output", 3};

    void generate() {
        Var x("x"), y("y"), c("c");
        Func samples("samples");
        samples(x, y, c) = cast(output.type(), input(x, y, c));
        std::vector<cascade::Pass> passes = {
            cascade::prefix_sum(Func("down"), samples, cascade::Dim::y, input.dim(1).extent())};
        passes.push_back(
            cascade::prefix_sum(output, passes.back().func, cascade::Dim::x, input.dim(0).extent()));
        if (this->get_target().has_gpu_feature()) {
            cascade::schedule_rt_cuda(passes, {}, {}, output);
        } else {
            cascade::schedule_rt_cpu(passes, {}, {}, output);
        }
    }
};

}  // namespace

using SatNaiveF32 = SatNaive<float>;
using SatNaiveU32 = SatNaive<uint32_t>;
using SatNaiveU64 = SatNaive<uint64_t>;
HALIDE_REGISTER_GENERATOR(SatNaiveF32, sat_naive_float32)
HALIDE_REGISTER_GENERATOR(SatNaiveU32, sat_naive_uint32)
HALIDE_REGISTER_GENERATOR(SatNaiveU64, sat_naive_uint64)
