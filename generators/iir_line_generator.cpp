// Block-parallel recursive filtering of one long signal per channel: Nehab et al. 2011's
// algorithm 1 (causal) and 3 (causal, then anticausal), algebra/iir_line.h. The coefficients and
// the matrix table (contract/line_layout.h) are run-time inputs; the algorithm, the form, the
// block size and the completion's chunk size and levels are build parameters.
//   sections = 0: one direct-form section of order feedback.size();
//   sections = S: S sections of order 2 (a_1, a_2 each), the gain on the first.
#include "algebra/iir_line.h"
#include "schedules/line_schedule.h"

namespace {

using namespace Halide;

class IirLine : public Generator<IirLine> {
public:
    GeneratorParam<int> algorithm{"algorithm", 3};
    GeneratorParam<int> sections{"sections", 0, 0, 16};
    GeneratorParam<int> block{"block", 64};
    // The completion (iir_line.h, LineCompletion): chunks of `chunk` items, `levels` chunked
    // levels below a serial scan of ⌈T / chunk^levels⌉ items (T blocks).
    GeneratorParam<int> chunk{"chunk", 16};
    GeneratorParam<int> levels{"levels", 4};
    GeneratorParam<int> rows{"rows", 2};  // GPU: threads per block sample, a block of block × rows

    Input<Buffer<float>> input{"input", 2};  // (n, c)
    Input<float> gain{"gain"};
    Input<float[]> feedback{"feedback"};
    Input<Buffer<float>> table{"table", 2};  // line_layout.h: (column, row)
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        cascade::SectionCascade filter{gain, {}};
        const int q = sections == 0 ? int(feedback.size()) : 2;
        for (size_t j = 0; j < feedback.size(); j += q) {
            std::vector<Expr> a;
            for (int k = 0; k < q; k++) a.push_back(feedback[j + k]);
            filter.feedback.push_back(a);
        }
        cascade::IirLineFuncs f = cascade::define_iir_line(input, input.dim(0).extent(), output, filter,
                                                           table, block, algorithm, chunk, levels);
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
        }
        // A table built for another state size, chunk or level count is refused, not misread.
        const cascade::LineLayout layout{filter.state(), chunk, levels};
        table.dim(0).set_bounds(0, layout.K).dim(1).set_bounds(0, layout.rows());
        if (get_target().has_gpu_feature()) {
            cascade::schedule_iir_line_cuda(f, rows);
        } else {
            cascade::schedule_iir_line_cpu(f);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirLine, iir_line)
