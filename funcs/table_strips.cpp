#include "funcs/table_strips.h"

#include "schedules/sat_strips_schedule.h"

namespace cascade::funcs {

using namespace Halide;

StagesPtr table_strips(Func input, Func output, Expr width, Expr height, Type type, Expr strip) {
    auto s = std::make_shared<Filtered::Stages>();
    s->view = output;
    s->cpu_only = true;
    SatStripsFuncs f = define_sat_strips(input, width, height, output, type, strip);
    s->schedules.push_back([f](const Target &, Func) mutable {
        f.output.compute_root();
        schedule_sat_strips_cpu(f);
    });
    return s;
}

}  // namespace cascade::funcs
