#include "cascade/error.h"
#include "funcs/stages.h"

namespace cascade::funcs {

Halide::Func Filtered::func() const { return stages_->view; }

Halide::Func Filtered::schedule(const Halide::Target &target) const {
    return schedule(target, Halide::Func());
}

Halide::Func Filtered::schedule(const Halide::Target &target, Halide::Func consumer) const {
    if (stages_->cpu_only && target.has_gpu_feature())
        throw Error(
            "cascade::funcs: this filter was built for a CPU target (the strips); give the call "
            "the GPU target to schedule it there");
    for (const auto &stage : stages_->schedules) stage(target, consumer);
    return func();
}

}  // namespace cascade::funcs
