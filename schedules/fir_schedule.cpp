#include "fir_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

struct Vars {
    Var x, y, c;
};

Vars vars_of(const Func &f) {
    const auto args = f.args();
    return {args[0], args[1], args[2]};
}

}  // namespace

void schedule_fir_cpu(Func vertical, Func output) {
    Vars v = vars_of(output);
    Var yo("yo"), yi("yi"), t("t");
    // Strips of 32 rows, one per task: the strip's column pass (32 rows plus nothing above or
    // below: it reads the input, not itself) stays in cache for the row pass.
    output.split(v.y, yo, yi, 32, TailStrategy::GuardWithIf)
        .fuse(yo, v.c, t)
        .parallel(t)
        .vectorize(v.x, 8, TailStrategy::GuardWithIf);
    vertical.compute_at(output, t).vectorize(vars_of(vertical).x, 8, TailStrategy::GuardWithIf);
}

void schedule_fir_cuda(Func vertical, Func output) {
    Vars v = vars_of(output);
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // 32×8 threads per block; the block's column pass (its 32 + 2·radius columns) goes to shared
    // memory, so each input sample is loaded by about one thread.
    output.tile(v.x, v.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
        .gpu_blocks(xo, yo, v.c)
        .gpu_threads(xi, yi);
    Vars w = vars_of(vertical);
    vertical.compute_at(output, xo).gpu_threads(w.x, w.y);
}

}  // namespace cascade
