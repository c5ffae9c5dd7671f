// The Func API's Gaussian as a whole pipeline, input → funcs::gaussian(σ, boundary) → output, as a
// user's generator would write it: the blocked path (the strips on the CPU, algorithm 6 on CUDA),
// its last stage the pipeline's output. funcs_timing.cpp times it beside the prebuilt variants.
#include <Halide.h>
#include <cascade/funcs.h>

namespace {

using namespace Halide;

class FuncsGaussian : public Generator<FuncsGaussian> {
public:
    GeneratorParam<float> sigma{"sigma", 4.0f};
    GeneratorParam<cascade::Boundary> boundary{"boundary",
                                               cascade::Boundary::reflect,
                                               {{"none", cascade::Boundary::none},
                                                {"reflect", cascade::Boundary::reflect},
                                                {"mirror", cascade::Boundary::mirror},
                                                {"clamp", cascade::Boundary::clamp}}};
    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        // The filter's last stage is the output: no pass of its own.
        output = cascade::funcs::gaussian(input, sigma, cascade::Boundary(boundary), input.width(),
                                          input.height(), get_target())
                     .schedule(get_target());
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuncsGaussian, funcs_gaussian)
