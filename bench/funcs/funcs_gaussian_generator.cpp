// The Func API's Gaussian as a whole pipeline, input → funcs::gaussian(σ, boundary) → output, as a
// user's generator would write it: the blocked path (the strips on the CPU, algorithm 6 on CUDA),
// its last stage the pipeline's output. funcs_timing.cpp times it beside the prebuilt variants.
// With coefficients=run_time, the same Gaussian as a recursion of order 3 whose coefficients are
// inputs (gain, a1, a2, a3) and whose tables are one more (funcs::tile_tables), on CUDA.
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
    GeneratorParam<std::string> coefficients{"coefficients", "constant"};  // constant, run_time
    Input<Buffer<float>> input{"input", 3};
    std::vector<Input<float> *> recursion;
    Input<Buffer<float>> *tables = nullptr;
    Output<Buffer<float>> output{"output", 3};

    void configure() {
        if (coefficients.value() == "constant") return;
        if (coefficients.value() != "run_time")
            throw std::invalid_argument("coefficients is constant or run_time, not " + coefficients.value());
        for (const char *name : {"gain", "a1", "a2", "a3"}) recursion.push_back(add_input<float>(name));
        tables = add_input<Buffer<float>>("tables", 3);
    }

    void generate() {
        namespace funcs = cascade::funcs;
        const cascade::Boundary b = boundary;
        if (tables) {
            const funcs::Recursion r{*recursion[0], {*recursion[1], *recursion[2], *recursion[3]}, Expr()};
            output = funcs::iir(input, r, r, *tables, b, input.width(), input.height(), get_target())
                         .schedule(get_target());
            return;
        }
        // The filter's last stage is the output: no pass of its own.
        output = funcs::gaussian(input, sigma, b, input.width(), input.height(), get_target())
                     .schedule(get_target());
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuncsGaussian, funcs_gaussian)
