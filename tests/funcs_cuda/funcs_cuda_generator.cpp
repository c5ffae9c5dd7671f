// One call of the Func API on its blocked path as a whole pipeline, input → call → output, for the
// CUDA tests (test_funcs_cuda.cpp): the target's own path, which a CPU test cannot JIT for CUDA.
#include <Halide.h>
#include <cascade/funcs.h>

#include "funcs_cuda_filters.h"

namespace {

using namespace Halide;

class FuncsCuda : public Generator<FuncsCuda> {
public:
    GeneratorParam<std::string> call{"call", "gaussian"};
    GeneratorParam<cascade::Boundary> boundary{"boundary",
                                               cascade::Boundary::none,
                                               {{"none", cascade::Boundary::none},
                                                {"zero", cascade::Boundary::zero},
                                                {"clamp", cascade::Boundary::clamp},
                                                {"periodic", cascade::Boundary::periodic},
                                                {"reflect", cascade::Boundary::reflect},
                                                {"mirror", cascade::Boundary::mirror}}};
    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        namespace funcs = cascade::funcs;
        const cascade::Boundary b = boundary;
        const Expr w = input.width(), h = input.height();
        const std::string what = call;
        const cascade::Filter2D f = cascade::testing::funcs_cuda_filter(what);
        funcs::Filtered filtered =
            what == "gaussian"
                ? funcs::gaussian(input, cascade::testing::kFuncsCudaSigma, b, w, h, get_target())
            : what == "bspline"
                ? funcs::bspline(input, cascade::testing::kFuncsCudaDegree, b, w, h, get_target())
                : funcs::iir(input, funcs::constant(f.vertical), funcs::constant(f.horizontal), b, w, h,
                             get_target());
        output = filtered.schedule(get_target());
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuncsCuda, funcs_cuda)
