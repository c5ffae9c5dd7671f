// The separable 2D FIR of compile-time radius and run-time taps and extension (algebra/fir2d.h) on
// float32 or float64 images: down the columns with taps_y, then along the rows with taps_x, each
// 2·radius + 1 taps of the samples' type, tap `radius` weighing the output's own sample.
// `extension` is include/cascade/boundary.h's Boundary as an int (zero, clamp, periodic, reflect,
// mirror). The tile_* knobs choose the CUDA tile (schedules/fir2d_schedule.h; 0: its own).
#include <Halide.h>

#include <stdexcept>

#include "algebra/fir2d.h"
#include "schedules/fir2d_schedule.h"

namespace {

using namespace Halide;

class Fir2dGenerator : public Generator<Fir2dGenerator> {
public:
    GeneratorParam<int> radius{"radius", 16};
    GeneratorParam<Type> samples{"samples", Float(32)};  // float32, float64
    GeneratorParam<int> tile_x{"tile_x", 0};
    GeneratorParam<int> tile_y{"tile_y", 0};
    GeneratorParam<int> tile_lanes{"tile_lanes", 0};
    GeneratorParam<int> tile_column_rows{"tile_column_rows", 0};
    GeneratorParam<int> tile_registers{"tile_registers", 0};

    Input<int> extension{"extension"};  // algebra/boundary.h's numbering

    void configure() {
        const Type type = samples;
        if (type != Float(32) && type != Float(64))
            throw std::invalid_argument("samples are float32 or float64");
        input = add_input<Buffer<>>("input", type, 3);
        taps_y = add_input<Buffer<>>("taps_y", type, 1);
        taps_x = add_input<Buffer<>>("taps_x", type, 1);
        output = add_output<Buffer<>>("output", type, 3);
    }

    void generate() {
        const int r = radius;
        if (r < 1) throw std::invalid_argument("radius is at least 1");
        const Type type = samples;
        cascade::Fir2d f = cascade::define_fir2d(*input, type, input->dim(0).extent(), input->dim(1).extent(),
                                                 *output, *taps_y, *taps_x, r, extension);
        taps_y->dim(0).set_bounds(0, 2 * r + 1);
        taps_x->dim(0).set_bounds(0, 2 * r + 1);
        for (int d = 0; d < 3; d++) output->dim(d).set_min(0);
        if (get_target().has_gpu_feature()) {
            cascade::schedule_fir2d_cuda(f, type.bytes(),
                                         {tile_x, tile_y, tile_lanes, tile_column_rows, tile_registers});
        } else {
            cascade::schedule_fir2d_cpu(f, natural_vector_size(type));
        }
    }

private:
    Input<Buffer<>> *input = nullptr, *taps_y = nullptr, *taps_x = nullptr;
    Output<Buffer<>> *output = nullptr;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Fir2dGenerator, fir2d)
