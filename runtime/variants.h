#pragma once
// The AOT-compiled pipelines this build holds, and how to find one by its key.
#include <HalideRuntime.h>

#include <string>
#include <utility>
#include <vector>

#include "cascade/device.h"
#include "cascade/iir.h"
#include "contract/variant_key.h"

namespace cascade {

struct Variant {
    VariantKey key;
    bool extra = false;        // plans run it only when asked for its schedule
    std::string catalogue;     // the manifest that lists it: iir, base, comparison, a tuning manifest's name
    int (*call)(void **args);  // Halide's _argv entry point
    const halide_filter_metadata_t *(*metadata)();
    Device device = Device::cpu;  // the key's device, as the runtime names it

    // The knobs of its schedule, as a plan asks for them.
    TileSchedule schedule() const { return {key.tile, key.rows, key.autoscheduler, key.knobs}; }
};

// The smallest image {width, height} the variant runs on: an autoscheduled one assumes its
// output's estimates (Halide's autoschedulers split by them, shifting inwards), read from its
// metadata; any other {1, 1}.
std::pair<int, int> minimum_size(const Variant &variant);

// Every variant of this build (generated from the catalogue).
const std::vector<Variant> &variants();

// The key of a 2D recursive filter's variants run by `algorithm` (rt and strips are families of
// their own), in the form and with the boundary handling asked for; order, device and schedule
// left for wanted().
VariantKey iir_key(Algorithm algorithm, bool sections, bool exact = false, bool level = false);

// A sample type as a key spells it: "" (float32, the default), f64, u8, u16; throws cascade::Error
// for the others.
std::string sample_key(SampleType samples);

// `key` (its order, device and schedule left as they are) asked for at least `order` on `device`
// with `schedule`; the default schedule {} stands for the build's own.
VariantKey wanted(VariantKey key, int order, Device device, const TileSchedule &schedule = {});

// The variant of `key` built for the smallest order ≥ key.order: a filter of lower order runs
// on it with its extra feedback coefficients set to zero. With a schedule in the key (tile,
// rows, autoscheduler, knobs), the variant (an extra or not) of exactly that schedule; without,
// the build's own. Null when the build has none.
const Variant *lookup_variant(const VariantKey &key);

// The same; throws cascade::Error naming the orders that exist when none fits.
const Variant &find_variant(const VariantKey &key);

// The build's own tile schedule of the block-parallel algorithms ({CASCADE_IIR_TILE, CASCADE_IIR_ROWS}).
TileSchedule default_tile_schedule();

// True when the build holds any variant for `device`.
bool has_variants(Device device);

}  // namespace cascade
