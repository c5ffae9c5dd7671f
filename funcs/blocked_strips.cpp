#include "funcs/blocked_strips.h"

#include "schedules/strips_schedule.h"

namespace cascade::funcs {

using namespace Halide;

StagesPtr strips(Func input, Func output, Expr width, Expr height, const std::vector<Coefficients> &vertical,
                 const std::vector<Coefficients> &horizontal, Expr overlap, Expr strip,
                 const std::optional<StripsExtension> &exact, Type samples) {
    auto s = std::make_shared<Filtered::Stages>();
    s->view = output;
    s->cpu_only = true;
    IirStripsFuncs f = iir_strips(input, output, width, height, vertical, horizontal, overlap, strip, exact,
                                  strips_row_block(samples));
    s->schedules.push_back([f, samples](const Target &t, Func consumer) mutable {
        if (!consumer.defined()) f.output.compute_root();
        schedule_strips_cpu(f, t.natural_vector_size(samples), consumer);
    });
    return s;
}

}  // namespace cascade::funcs
