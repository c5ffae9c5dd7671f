// A user's generator: its own stage, then Cascade's Gaussian with an exact boundary and a generic
// recursion with run-time coefficients, fused into one AOT library.
#include <Halide.h>
#include <cascade/funcs.h>

namespace {

using namespace Halide;

class ConsumerBlur : public Generator<ConsumerBlur> {
public:
    Input<Buffer<float>> input{"input", 2};
    Input<float> gain{"gain"}, a1{"a1"};
    Input<int> margin{"margin"};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Var x, y;
        Func scaled;
        scaled(x, y) = 2.0f * input(x, y);
        cascade::funcs::Filtered blurred = cascade::funcs::gaussian(
            scaled, 3.0, cascade::Boundary::reflect, input.width(), input.height(), get_target());
        cascade::funcs::Recursion r{gain, {a1}, margin};
        cascade::funcs::Filtered smoothed = cascade::funcs::iir(blurred, r, r, cascade::Boundary::clamp,
                                                                input.width(), input.height(), get_target());
        output(x, y) = smoothed.func()(x, y) + 1.0f;

        blurred.schedule(get_target());
        // Computed strip by strip inside `output`: no buffer between the filter and it.
        smoothed.schedule(get_target(), output);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ConsumerBlur, consumer_blur)
