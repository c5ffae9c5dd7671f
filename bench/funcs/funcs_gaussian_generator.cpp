// The Func API's Gaussian as a whole pipeline, input → funcs::gaussian(σ, boundary) → output, as a
// user's generator would write it: the blocked path fused into the output on the CPU, the serial
// path on CUDA. funcs_timing.cpp times it beside the prebuilt variants.
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
    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        const cascade::funcs::Filtered blurred = cascade::funcs::gaussian(
            input, sigma, cascade::Boundary(boundary), input.width(), input.height(), get_target());
        Var x("x"), y("y");
        output(x, y) = blurred.func()(x, y);
        if (get_target().has_gpu_feature()) {
            blurred.schedule(get_target());
            Var xo, yo, xi, yi;
            output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        } else {
            blurred.schedule(get_target(), output);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuncsGaussian, funcs_gaussian)
