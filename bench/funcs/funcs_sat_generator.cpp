// The Func API's float32 summed-area table as a whole pipeline, input → funcs::summed_area_table →
// output: the strips on the CPU, the tiled 2R1W on CUDA, its last stage the pipeline's output.
// funcs_timing.cpp times it beside the prebuilt table.
#include <Halide.h>
#include <cascade/funcs.h>

namespace {

using namespace Halide;

class FuncsSat : public Generator<FuncsSat> {
public:
    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        output = cascade::funcs::summed_area_table(input, input.width(), input.height(), get_target())
                     .schedule(get_target());
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuncsSat, funcs_sat)
