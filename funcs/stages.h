#pragma once
// What a Filtered (cascade/funcs.h) holds: the result its func() gives, and how each of its stages
// is scheduled. The builders (funcs/blocked_*.h, funcs/table_*.h and funcs.cpp's serial path) fill
// it; the prebuilt variants' generators build through the same builders.
#include <Halide.h>

#include <functional>
#include <memory>
#include <vector>

#include "cascade/funcs.h"

namespace cascade::funcs {

struct Filtered::Stages {
    Halide::Func view;
    // Each stage's schedule for a target; `consumer` as Filtered::schedule's.
    std::vector<std::function<void(const Halide::Target &, Halide::Func consumer)>> schedules;
    bool cpu_only = false;  // built for a CPU target (the strips): refused on a GPU one
};

using StagesPtr = std::shared_ptr<Filtered::Stages>;

}  // namespace cascade::funcs
