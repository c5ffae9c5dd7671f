// Algorithm RT for a separable causal–anticausal recursive filter: sequential passes (down, up,
// right, left), each parallel across the other dimension. The coefficients are run-time inputs.
//
// Two forms of each 1D filter:
// - direct (sections = 0): one pass of order r = feedback.size() per direction;
// - cascaded sections (sections = S): S passes of order ≤ 2 per direction, section j taking
//   feedback[2j], feedback[2j+1] and the gain applied by section 0. In float32 the direct form
//   of order ≥ 3 loses accuracy (coefficient rounding moves clustered poles, and rounding of the
//   state is amplified); first- and second-order sections stay within ~1e-6 of the exact result.
#include "generators/recursive_filter.h"
#include "schedules/rt_schedule.h"

namespace {

using namespace Halide;
using cascade::Coefficients;
using cascade::Dim;
using cascade::Pass;

class IirRt : public Generator<IirRt> {
public:
    GeneratorParam<int> sections{"sections", 0, 0, 16};

    Input<Buffer<float>> input{"input", 3};
    Input<float> gain_y{"gain_y"};
    Input<float[]> feedback_y{"feedback_y"};
    Input<float> gain_x{"gain_x"};
    Input<float[]> feedback_x{"feedback_x"};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        std::vector<Coefficients> vertical = filters(gain_y, feedback_y);
        std::vector<Coefficients> horizontal = filters(gain_x, feedback_x);
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();

        std::vector<Pass> passes;
        Func current = input;
        auto add = [&](bool is_causal, const Coefficients &k, Dim dim, Expr extent, bool last) {
            std::string name =
                std::string(dim == Dim::y ? (is_causal ? "down" : "up") : (is_causal ? "right" : "left")) +
                "_" + std::to_string(passes.size());
            Func out = last ? Func(output) : Func(name);
            passes.push_back(is_causal ? cascade::causal(out, current, k, dim, extent)
                                       : cascade::anticausal(out, current, k, dim, extent));
            current = passes.back().func;
        };
        for (const auto &k : vertical) add(true, k, Dim::y, height, false);
        for (const auto &k : vertical) add(false, k, Dim::y, height, false);
        for (const auto &k : horizontal) add(true, k, Dim::x, width, false);
        for (size_t j = 0; j < horizontal.size(); j++)
            add(false, horizontal[j], Dim::x, width, j + 1 == horizontal.size());

        if (get_target().has_gpu_feature()) {
            cascade::schedule_rt_cuda(passes);
        } else {
            cascade::schedule_rt_cpu(passes);
        }
    }

private:
    // The passes of one direction: a single direct-form filter, or the cascade of sections.
    std::vector<Coefficients> filters(Input<float> &gain, Input<float[]> &feedback) {
        std::vector<Coefficients> result;
        if (sections == 0) {
            Coefficients k{gain, {}};
            for (size_t j = 0; j < feedback.size(); j++) k.a.push_back(feedback[j]);
            result.push_back(k);
        } else {
            for (int s = 0; s < sections; s++)
                result.push_back({s == 0 ? Expr(gain) : Expr(1.0f), {feedback[2 * s], feedback[2 * s + 1]}});
        }
        return result;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirRt, iir_rt)
