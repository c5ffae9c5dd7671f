#pragma once
// The AOT-compiled pipelines this build holds, and how to find one.
#include <HalideRuntime.h>

#include <string>
#include <utility>
#include <vector>

#include "cascade/device.h"
#include "cascade/iir.h"

namespace cascade {

struct Variant {
    const char *algorithm;  // e.g. "iir_rt"
    int order;              // filter order r the variant was generated for
    Device device;
    int (*call)(void **args);  // Halide's _argv entry point
    const halide_filter_metadata_t *(*metadata)();
    int tile = 0;                    // the block-parallel variants' tile size b (0: not tiled)
    int rows = 0;                    // their GPU threads per tile column (0: not tiled)
    bool extra = false;              // added by a tuning manifest: run only when its knobs are asked for
    const char *autoscheduler = "";  // scheduled by this Halide autoscheduler; "": by hand
    const char *knobs = "";          // the other schedule knobs a manifest set: "scan=shared,vector=16"
};

// The smallest image {width, height} the variant runs on: an autoscheduled one assumes its
// output's estimates (Halide's autoschedulers split by them, shifting inwards), read from its
// metadata; any other {1, 1}.
std::pair<int, int> minimum_size(const Variant &variant);

// Every variant of this build (generated from generators/CMakeLists.txt).
const std::vector<Variant> &variants();

// The variant of `algorithm` built for the smallest order ≥ `order` on `device`: a filter of
// lower order runs on it with its extra feedback coefficients set to zero. Throws cascade::Error
// naming the orders that exist when none fits.
// With a schedule other than the default, the variant (an extra or not) of exactly that tile and rows.
const Variant &find_variant(const std::string &algorithm, int order, Device device,
                            TileSchedule schedule = {});

// The same, or null when the build has none.
const Variant *lookup_variant(const std::string &algorithm, int order, Device device,
                              TileSchedule schedule = {});

// The schedules of every variant of `algorithm` for `device` (defaults and extras), each once.
std::vector<TileSchedule> built_schedules(const std::string &algorithm, Device device);

// The build's own tile schedule of the block-parallel algorithms ({CASCADE_IIR_TILE, CASCADE_IIR_ROWS}).
TileSchedule default_tile_schedule();

// True when the build holds any variant for `device`.
bool has_variants(Device device);

}  // namespace cascade
