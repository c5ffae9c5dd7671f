// One axis's FIR of run-time length, center and extension (scipy.ndimage.correlate1d) on float32
// or float64 images (input.type = output.type): down the columns (axis = columns) or along the
// rows (axis = rows) of every channel. `extension` is include/cascade/boundary.h's Boundary as an
// int (zero, clamp, periodic, reflect, mirror); the taps are of the samples' type.
#include <Halide.h>

#include <stdexcept>
#include <string>

#include "algebra/correlate.h"
#include "schedules/correlate_schedule.h"

namespace {

using namespace Halide;

class Correlate : public Generator<Correlate> {
public:
    GeneratorParam<std::string> axis{"axis", "columns"};  // columns, rows

    Input<Buffer<>> input{"input", 3};
    Input<int> center{"center"};        // the tap that weighs the output's own sample
    Input<int> extension{"extension"};  // algebra/boundary.h's numbering
    Output<Buffer<>> output{"output", 3};

    void configure() {
        // The taps take the samples' type: float64 filters are float64 throughout.
        taps = add_input<Buffer<>>("taps", input.type(), 1);
    }

    void generate() {
        const std::string a = axis;
        if (a != "columns" && a != "rows") throw std::invalid_argument("axis is columns or rows");
        const Type type = input.type();
        if (type != Float(32) && type != Float(64))
            throw std::invalid_argument("samples are float32 or float64");
        if (output.type() != type) throw std::invalid_argument("input.type and output.type differ");
        cascade::Correlation f = cascade::define_correlation(
            input, type, input.dim(0).extent(), input.dim(1).extent(), output, *taps, taps->dim(0).extent(),
            center, extension, a == "rows" ? cascade::Dim::x : cascade::Dim::y);
        taps->dim(0).set_min(0);
        for (int d = 0; d < 3; d++) output.dim(d).set_min(0);
        if (get_target().has_gpu_feature()) {
            cascade::schedule_correlate_cuda(f);
        } else {
            cascade::schedule_correlate_cpu(f, natural_vector_size(type));
        }
    }

private:
    Input<Buffer<>> *taps = nullptr;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Correlate, correlate)
