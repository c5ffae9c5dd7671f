// Row strips with overlapped column windows (algebra/iir_strips.h): the CPU's realisation of a
// separable causal–anticausal filter with boundary none. The coefficients and the overlap are
// run-time inputs (runtime/strips.h chooses the overlap and the strips' height); the section count
// is a build parameter. sections = S: S sections of order 2 (a_1, a_2 each), the gain on the first.
#include <stdexcept>

#include "algebra/iir_strips.h"
#include "schedules/strips_schedule.h"

namespace {

using namespace Halide;
using cascade::Coefficients;

class IirStrips : public Generator<IirStrips> {
public:
    GeneratorParam<int> sections{"sections", 1, 1, 16};

    Input<Buffer<float>> input{"input", 3};
    Input<float> gain_y{"gain_y"};
    Input<float[]> feedback_y{"feedback_y"};
    Input<float> gain_x{"gain_x"};
    Input<float[]> feedback_x{"feedback_x"};
    Input<int> overlap{"overlap"};
    Input<int> strip{"strip"};  // rows per strip, a power of two ≥ 64 (runtime/strips.h)
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        if (get_target().has_gpu_feature()) throw std::invalid_argument("iir_strips is a CPU realisation");
        cascade::IirStripsFuncs f =
            cascade::iir_strips(input, output, input.dim(0).extent(), input.dim(1).extent(),
                                filters(gain_y, feedback_y), filters(gain_x, feedback_x), overlap, strip);
        cascade::schedule_strips_cpu(f, natural_vector_size<float>());
    }

private:
    std::vector<Coefficients> filters(Input<float> &gain, Input<float[]> &feedback) {
        std::vector<Coefficients> result;
        for (int s = 0; s < sections; s++)
            result.push_back({s == 0 ? Expr(gain) : Expr(1.0f), {feedback[2 * s], feedback[2 * s + 1]}});
        return result;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirStrips, iir_strips)
