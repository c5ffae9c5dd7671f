// A separable FIR with run-time taps: 2·radius+1 taps down the columns, then as many along the
// rows, the image zero outside (boundary `none`). It runs the numerators of Deriche's Gaussians
// (runtime/deriche.h) ahead of the all-pole passes; a shorter filter runs zero-padded.
#include <Halide.h>

#include "schedules/fir_schedule.h"

namespace {

using namespace Halide;

class Fir : public Generator<Fir> {
public:
    GeneratorParam<int> radius{"radius", 4, 0, 16};

    Input<Buffer<float>> input{"input", 3};
    Input<Buffer<float>> taps_y{"taps_y", 1};  // taps_y(k) weighs the sample k − radius rows away
    Input<Buffer<float>> taps_x{"taps_x", 1};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        Var x("x"), y("y"), c("c");
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();
        // Zero outside the image; the clamp keeps the loads inside the buffer.
        Func zero("zero");
        zero(x, y, c) = select(x >= 0 && x < width && y >= 0 && y < height,
                               input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c), 0.0f);
        const int r = radius;
        Func vertical("vertical");
        Expr down = 0.0f, across = 0.0f;
        for (int k = 0; k <= 2 * r; k++) down += taps_y(k) * zero(x, y + k - r, c);
        vertical(x, y, c) = down;
        // Columns past the edges are zero because `zero` is: the row pass needs no select.
        for (int k = 0; k <= 2 * r; k++) across += taps_x(k) * vertical(x + k - r, y, c);
        output(x, y, c) = across;

        taps_y.dim(0).set_bounds(0, 2 * r + 1);
        taps_x.dim(0).set_bounds(0, 2 * r + 1);
        if (get_target().has_gpu_feature()) {
            cascade::schedule_fir_cuda(vertical, output);
        } else {
            cascade::schedule_fir_cpu(vertical, output);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Fir, fir)
