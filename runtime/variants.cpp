#include "variants.h"

#include <algorithm>
#include <sstream>

#include "cascade/error.h"

namespace cascade {

const char *device_name(Device device) { return device == Device::cuda ? "cuda" : "cpu"; }

namespace {

bool has_schedule(const Variant &v, TileSchedule schedule) {
    return schedule.is_default() ? !v.extra
                                 : v.tile == schedule.tile && v.rows == schedule.rows &&
                                       v.autoscheduler == schedule.autoscheduler && v.knobs == schedule.knobs;
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
        const TileSchedule k{v.tile, v.rows, v.autoscheduler, v.knobs};
        if (v.algorithm == algorithm && v.device == device &&
            std::find(knobs.begin(), knobs.end(), k) == knobs.end())
            knobs.push_back(k);
    }
    return knobs;
}

TileSchedule default_tile_schedule() { return {CASCADE_IIR_TILE, CASCADE_IIR_ROWS}; }

const Variant &find_variant(const std::string &algorithm, int order, Device device, TileSchedule schedule) {
    if (const Variant *best = lookup_variant(algorithm, order, device, schedule)) return *best;
    std::ostringstream built;
    for (const Variant &v : variants())
        if (v.algorithm == algorithm && v.device == device && has_schedule(v, schedule))
            built << (built.tellp() > 0 ? ", " : "") << v.order;
    std::ostringstream msg;
    msg << "no " << device_name(device) << " variant of " << algorithm;
    if (!schedule.autoscheduler.empty()) msg << " scheduled by " << schedule.autoscheduler;
    if (schedule.tile > 0 || schedule.rows > 0)
        msg << " with tile " << schedule.tile << " and rows " << schedule.rows;
    if (!schedule.knobs.empty()) msg << " with knobs " << schedule.knobs;
    msg << " for order " << order;
    if (built.tellp() > 0) {
        msg << " (this build has orders " << built.str() << ")";
    } else {
        msg << " (this build has none for " << device_name(device) << ")";
    }
    throw Error(msg.str());
}

std::pair<int, int> minimum_size(const Variant &variant) {
    std::pair<int, int> size{1, 1};
    if (variant.autoscheduler[0] == 0) return size;
    const halide_filter_metadata_t *meta = variant.metadata();
    for (int k = 0; k < meta->num_arguments; k++) {
        const halide_filter_argument_t &a = meta->arguments[k];
        if (std::string(a.name) != "output" || !a.buffer_estimates || a.dimensions < 2) continue;
        // Per dimension, pointers to its min and its extent (null where none was given).
        const int64_t *width = a.buffer_estimates[1], *height = a.buffer_estimates[3];
        if (width) size.first = std::max(size.first, int(*width));
        if (height) size.second = std::max(size.second, int(*height));
    }
    return size;
}

bool has_variants(Device device) {
    for (const Variant &v : variants())
        if (v.device == device) return true;
    return false;
}

}  // namespace cascade
