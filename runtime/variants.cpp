#include "variants.h"

#include <algorithm>
#include <sstream>

#include "cascade/error.h"

namespace cascade {

const char *device_name(Device device) { return device == Device::cuda ? "cuda" : "cpu"; }

namespace {

bool has_schedule(const Variant &v, TileSchedule schedule) {
    return schedule.is_default() ? !v.extra : v.tile == schedule.tile && v.rows == schedule.rows;
}

}  // namespace

const Variant *lookup_variant(const std::string &algorithm, int order, Device device, TileSchedule schedule) {
    const Variant *best = nullptr;
    for (const Variant &v : variants())
        if (v.algorithm == algorithm && v.device == device && has_schedule(v, schedule) && v.order >= order &&
            (!best || v.order < best->order))
            best = &v;
    return best;
}

std::vector<TileSchedule> built_schedules(const std::string &algorithm, Device device) {
    std::vector<TileSchedule> knobs;
    for (const Variant &v : variants()) {
        const TileSchedule k{v.tile, v.rows};
        if (v.algorithm == algorithm && v.device == device &&
            std::find(knobs.begin(), knobs.end(), k) == knobs.end())
            knobs.push_back(k);
    }
    return knobs;
}

const Variant &find_variant(const std::string &algorithm, int order, Device device, TileSchedule schedule) {
    if (const Variant *best = lookup_variant(algorithm, order, device, schedule)) return *best;
    std::ostringstream built;
    for (const Variant &v : variants())
        if (v.algorithm == algorithm && v.device == device && has_schedule(v, schedule))
            built << (built.tellp() > 0 ? ", " : "") << v.order;
    std::ostringstream msg;
    msg << "no " << device_name(device) << " variant of " << algorithm;
    if (!schedule.is_default()) msg << " with tile " << schedule.tile << " and rows " << schedule.rows;
    msg << " for order " << order;
    if (built.tellp() > 0) {
        msg << " (this build has orders " << built.str() << ")";
    } else {
        msg << " (this build has none for " << device_name(device) << ")";
    }
    throw Error(msg.str());
}

bool has_variants(Device device) {
    for (const Variant &v : variants())
        if (v.device == device) return true;
    return false;
}

}  // namespace cascade
