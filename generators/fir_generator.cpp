// A separable FIR with run-time taps: 2·radius+1 taps down the columns, then as many along the
// rows, the image zero outside (`extension` zero, boundary `none`) or extended periodically, by
// half-sample symmetry (reflect) or by whole-sample symmetry (mirror), as include/cascade/boundary.h
// defines them, or (`margin`) read from an input that holds `radius` samples past each edge (its
// buffer's min at −radius). It runs the numerators of Deriche's Gaussians (include/cascade/deriche.h) ahead
// of the all-pole passes, or after them from their margin; a shorter filter runs zero-padded.
#include <Halide.h>

#include <stdexcept>
#include <string>

#include "algebra/boundary.h"
#include "schedules/fir_schedule.h"

namespace {

using namespace Halide;

class Fir : public Generator<Fir> {
public:
    GeneratorParam<int> radius{"radius", 4, 0, 16};
    GeneratorParam<std::string> extension{"extension", "zero"};  // zero, periodic, reflect, mirror, margin

    Input<Buffer<float>> input{"input", 3};
    Input<Buffer<float>> taps_y{"taps_y", 1};  // taps_y(k) weighs the sample k − radius rows away
    Input<Buffer<float>> taps_x{"taps_x", 1};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        Var x("x"), y("y"), c("c");
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();
        // The image's extension; the clamps keep the loads inside the buffer where bounds inference
        // cannot see it.
        Func extended("extended");
        // With an extension: the column (row) each coordinate reads.
        Func column_of("column_of"), row_of("row_of");
        const std::string mode = extension;
        const bool folded = mode != "zero" && mode != "margin";
        if (mode == "margin") {
            extended(x, y, c) = input(x, y, c);
        } else if (!folded) {
            extended(x, y, c) = select(x >= 0 && x < width && y >= 0 && y < height,
                                       input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c), 0.0f);
        } else {
            if (mode != "periodic" && mode != "reflect" && mode != "mirror")
                throw std::invalid_argument("extension is zero, periodic, reflect, mirror or margin");
            const Expr boundary = mode == "periodic"  ? cascade::kPeriodic
                                  : mode == "reflect" ? cascade::kReflect
                                                      : cascade::kMirror;
            // The folded coordinates, once per column and row (stored): deriche4 1.62 ms at 8192²
            // on an H100, against 1.60 for none (folded at every tap load: 2.09; Halide's
            // BoundaryConditions: 2.23).
            Var i("i");
            column_of(i) = cascade::extended_index(boundary, i, width);
            row_of(i) = cascade::extended_index(boundary, i, height);
            extended(x, y, c) = input(clamp(column_of(x), 0, width - 1), clamp(row_of(y), 0, height - 1), c);
        }
        const int r = radius;
        Func vertical("vertical");
        Expr down = 0.0f, across = 0.0f;
        for (int k = 0; k <= 2 * r; k++) down += taps_y(k) * extended(x, y + k - r, c);
        vertical(x, y, c) = down;
        // Columns past the edges hold the extension's columns because `extended` does: the row
        // pass needs no select.
        for (int k = 0; k <= 2 * r; k++) across += taps_x(k) * vertical(x + k - r, y, c);
        output(x, y, c) = across;

        taps_y.dim(0).set_bounds(0, 2 * r + 1);
        taps_x.dim(0).set_bounds(0, 2 * r + 1);
        if (get_target().has_gpu_feature()) {
            cascade::schedule_fir_cuda(vertical, output);
            if (folded)
                for (Func f : {column_of, row_of})
                    f.compute_root().gpu_tile(f.args()[0], Var("block"), Var("thread"), 64,
                                              TailStrategy::GuardWithIf);
        } else {
            cascade::schedule_fir_cpu(vertical, output);
            if (folded)
                for (Func f : {column_of, row_of}) f.compute_root();
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Fir, fir)
