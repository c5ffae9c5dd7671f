// Block-parallel causal–anticausal 2D recursive filters: algorithms 4, 5 and 6
// (generators/iir_tiled.h). The coefficients and the per-dimension matrix tables are run-time
// inputs; the section count and order, the algorithm and the tile size are build parameters.
//   sections = 0: one direct-form section of order feedback.size() per direction;
//   sections = S: S sections of order 2 (a_1, a_2 each), the gain on the first.
#include "generators/iir_tiled.h"
#include "schedules/tiled_schedule.h"

namespace {

using namespace Halide;

class IirTiled : public Generator<IirTiled> {
public:
    GeneratorParam<int> algorithm{"algorithm", 6};
    GeneratorParam<int> sections{"sections", 0, 0, 16};
    GeneratorParam<int> tile{"tile", 64};
    GeneratorParam<int> rows{"rows", 4};  // GPU: tile rows loaded per pass, threads = tile × rows

    Input<Buffer<float>> input{"input", 3};
    Input<float> gain_y{"gain_y"};
    Input<float[]> feedback_y{"feedback_y"};
    Input<float> gain_x{"gain_x"};
    Input<float[]> feedback_x{"feedback_x"};
    Input<Buffer<float>> vertical{"vertical", 2};      // tiled_layout.h, down the columns
    Input<Buffer<float>> horizontal{"horizontal", 2};  // along the rows
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        const cascade::SectionCascade down = cascade_of(gain_y, feedback_y),
                                      across = cascade_of(gain_x, feedback_x);
        cascade::IirTiledFuncs f =
            cascade::define_iir_tiled(input, input.dim(0).extent(), input.dim(1).extent(), output, down,
                                      across, vertical, horizontal, tile, algorithm);
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
            vertical.dim(d).set_min(0);
            horizontal.dim(d).set_min(0);
        }
        // Tables built for another tile size or state size are refused, not misread.
        const int table_rows = cascade::TiledLayout{tile, down.state()}.rows();
        vertical.dim(0).set_extent(tile).dim(1).set_extent(table_rows);
        horizontal.dim(0).set_extent(tile).dim(1).set_extent(table_rows);
        if (get_target().has_gpu_feature()) {
            cascade::schedule_iir_tiled_cuda(f, rows);
        } else {
            cascade::schedule_iir_tiled_cpu(f);
        }
    }

private:
    cascade::SectionCascade cascade_of(Input<float> &gain, Input<float[]> &feedback) {
        cascade::SectionCascade f{gain, {}};
        const int q = sections == 0 ? int(feedback.size()) : 2;
        for (size_t j = 0; j < feedback.size(); j += q) {
            std::vector<Expr> a;
            for (int k = 0; k < q; k++) a.push_back(feedback[j + k]);
            f.feedback.push_back(a);
        }
        return f;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirTiled, iir_tiled)
