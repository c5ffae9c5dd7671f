// Row strips with overlapped column windows (algebra/iir_strips.h): the CPU's realisation of a
// separable causal–anticausal filter, boundary none or (exact) any extension. The coefficients and
// the overlaps are run-time inputs (runtime/strips.h chooses the overlaps and the strips' height);
// the section count is a build parameter. sections = S: S sections of order 2 (a_1, a_2 each), the
// gain on the first.
#include <stdexcept>

#include "algebra/boundary.h"
#include "algebra/iir_strips.h"
#include "schedules/strips_schedule.h"

namespace {

using namespace Halide;
using cascade::Coefficients;

class IirStrips : public Generator<IirStrips> {
public:
    GeneratorParam<int> sections{"sections", 1, 1, 16};
    // Exact boundaries: the run-time `extension` (include/cascade/boundary.h's Boundary, not none)
    // and `row_overlap`, the columns the row passes reach past each end of a row.
    GeneratorParam<bool> exact{"exact", false};
    // With exact: filtered about the image's level, `level_gain` the filter's response to 1.
    GeneratorParam<bool> level{"level", false};

    Input<Buffer<float>> input{"input", 3};
    Input<float> gain_y{"gain_y"};
    Input<float[]> feedback_y{"feedback_y"};
    Input<float> gain_x{"gain_x"};
    Input<float[]> feedback_x{"feedback_x"};
    Input<int> overlap{"overlap"};
    Input<int> strip{"strip"};  // rows per strip, a power of two ≥ 64 (runtime/strips.h)
    Output<Buffer<float>> output{"output", 3};

    void configure() {
        if (level && !exact) throw std::invalid_argument("level takes exact");
        if (exact) {
            extension = add_input<int>("extension");
            row_overlap = add_input<int>("row_overlap");
        }
        if (level) level_gain = add_input<float>(cascade::kLevelGainInput);
    }

    void generate() {
        if (get_target().has_gpu_feature()) throw std::invalid_argument("iir_strips is a CPU realisation");
        std::optional<cascade::StripsExtension> extended;
        if (exact)
            extended = cascade::StripsExtension{*extension, *row_overlap, level ? Expr(*level_gain) : Expr()};
        cascade::IirStripsFuncs f = cascade::iir_strips(
            input, output, input.dim(0).extent(), input.dim(1).extent(), filters(gain_y, feedback_y),
            filters(gain_x, feedback_x), overlap, strip, extended);
        cascade::schedule_strips_cpu(f, natural_vector_size<float>());
    }

private:
    Input<int> *extension = nullptr, *row_overlap = nullptr;
    Input<float> *level_gain = nullptr;

    std::vector<Coefficients> filters(Input<float> &gain, Input<float[]> &feedback) {
        std::vector<Coefficients> result;
        for (int s = 0; s < sections; s++)
            result.push_back({s == 0 ? Expr(gain) : Expr(1.0f), {feedback[2 * s], feedback[2 * s + 1]}});
        return result;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirStrips, iir_strips)
