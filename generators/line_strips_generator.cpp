// One long signal per channel filtered by overlapped segments (algebra/line_strips.h): the
// causal cascade (passes = 1) or the causal, then the anticausal one (passes = 3), boundary none.
// The coefficients are run-time inputs; the overlap is a build parameter, and a variant serves
// filters whose response fits within it (runtime/line_filter.cpp checks).
//   sections = 0: one direct-form section of order feedback.size();
//   sections = S: S sections of order 2 (a_1, a_2 each), the gain on the first.
#include "algebra/line_strips.h"
#include "schedules/line_strips_schedule.h"

namespace {

using namespace Halide;

class LineStrips : public Generator<LineStrips> {
public:
    GeneratorParam<int> passes{"passes", 3};
    GeneratorParam<int> sections{"sections", 0, 0, 16};
    GeneratorParam<int> overlap{"overlap", 32};
    GeneratorParam<int> segment{"segment", 32};   // samples per segment; the overlap is a multiple
    GeneratorParam<int> threads{"threads", 128};  // GPU: segments per block, a multiple of 32
    // Exact boundaries: the run-time `extension` (include/cascade/boundary.h's Boundary, not none).
    GeneratorParam<bool> exact{"exact", false};

    Input<Buffer<float>> input{"input", 2};  // (n, c)
    Input<float> gain{"gain"};
    Input<float[]> feedback{"feedback"};
    Output<Buffer<float>> output{"output", 2};

    void configure() {
        if (exact) extension = add_input<int>("extension");
    }

    void generate() {
        const int q = sections == 0 ? int(feedback.size()) : 2;
        std::vector<cascade::Coefficients> cascade;
        for (size_t j = 0; j < feedback.size(); j += q) {
            std::vector<Expr> a;
            for (int k = 0; k < q; k++) a.push_back(feedback[j + k]);
            cascade.push_back({cascade.empty() ? Expr(gain) : Expr(1.0f), a});
        }
        cascade::LineStripsFuncs f =
            cascade::define_line_strips(input, input.dim(0).extent(), output, cascade, passes, segment,
                                        overlap, exact ? Expr(*extension) : Expr());
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
        }
        if (get_target().has_gpu_feature()) {
            cascade::schedule_line_strips_cuda(f, threads);
        } else {
            cascade::schedule_line_strips_cpu(f, natural_vector_size<float>());
        }
    }

private:
    Input<int> *extension = nullptr;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LineStrips, line_strips)
