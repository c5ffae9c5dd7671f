// One call of the Func API on its blocked path as a whole pipeline, input → call → output, for the
// CUDA tests (test_funcs_cuda.cpp): the target's own path, which a CPU test cannot JIT for CUDA.
//   call = gaussian, bspline, iir: constant coefficients, input → output;
//   call = sat, box: the summed-area table (float32) and the box mean of radius kFuncsCudaRadius;
//   call = tables_iir, tables_bspline: the iir or bspline filter's recursions with run-time
//          coefficients, read from `coefficients` (gain and feedbacks, the columns' then the
//          rows'), and their tables from `tables` (funcs::tile_tables).
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
    Input<Buffer<float>> *coefficients = nullptr, *tables = nullptr;
    Output<Buffer<float>> output{"output", 3};

    void configure() {
        if (is_tables()) {
            coefficients = add_input<Buffer<float>>("coefficients", 1);
            tables = add_input<Buffer<float>>("tables", 3);
        }
    }

    void generate() {
        namespace funcs = cascade::funcs;
        const cascade::Boundary b = boundary;
        const Expr w = input.width(), h = input.height();
        const std::string what = call;
        if (is_tables()) {
            const cascade::Filter2D f = cascade::testing::funcs_cuda_filter(what.substr(7));
            const funcs::Recursion v = recursion(0, f.vertical.order()),
                                   r = recursion(f.vertical.order() + 1, f.horizontal.order());
            output = funcs::iir(input, v, r, *tables, b, w, h, get_target()).schedule(get_target());
            return;
        }
        if (what == "box") {
            // A pure view of the table: computed here, as the user's stage would.
            Func mean = funcs::box(input, cascade::testing::kFuncsCudaRadius, b, w, h, get_target())
                            .schedule(get_target());
            Var x, y, c, bx, by, tx, ty;
            output(x, y, c) = mean(x, y, c);
            output.gpu_tile(x, y, bx, by, tx, ty, 32, 8, TailStrategy::GuardWithIf);
            return;
        }
        const cascade::Filter2D f = cascade::testing::funcs_cuda_filter(what);
        funcs::Filtered filtered =
            what == "sat" ? funcs::summed_area_table(input, w, h, get_target())
            : what == "gaussian"
                ? funcs::gaussian(input, cascade::testing::kFuncsCudaSigma, b, w, h, get_target())
            : what == "bspline"
                ? funcs::bspline(input, cascade::testing::kFuncsCudaDegree, b, w, h, get_target())
                : funcs::iir(input, funcs::constant(f.vertical), funcs::constant(f.horizontal), b, w, h,
                             get_target());
        output = filtered.schedule(get_target());
    }

private:
    bool is_tables() const { return call.value().rfind("tables_", 0) == 0; }

    // A recursion of `order` whose gain and feedbacks are coefficients[first …].
    cascade::funcs::Recursion recursion(int first, int order) {
        cascade::funcs::Recursion r{(*coefficients)(first), {}, Expr()};
        for (int k = 1; k <= order; k++) r.feedback.push_back((*coefficients)(first + k));
        return r;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuncsCuda, funcs_cuda)
