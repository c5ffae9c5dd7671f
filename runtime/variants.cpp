#include "variants.h"

#include <algorithm>
#include <sstream>

#include "cascade/error.h"

namespace cascade {

const char *device_name(Device device) { return device == Device::cuda ? "cuda" : "cpu"; }

namespace {

bool asks_schedule(const VariantKey &key) {
    return key.tile > 0 || key.rows > 0 || !key.autoscheduler.empty() || !key.knobs.empty();
}

bool has_schedule(const Variant &v, const VariantKey &wanted) {
    return asks_schedule(wanted) ? v.key.same_schedule(wanted) : !v.extra;
}

// What a lookup of `key` finds, whatever its order.
bool matches(const Variant &v, const VariantKey &key) {
    return v.key.same_filter(key) && has_schedule(v, key);
}

}  // namespace

VariantKey wanted(VariantKey key, int order, Device device, const TileSchedule &schedule) {
    key.order = order;
    key.device = device_name(device);
    key.tile = schedule.tile;
    key.rows = schedule.rows;
    key.autoscheduler = schedule.autoscheduler;
    key.knobs = schedule.knobs;
    return key;
}

const Variant *lookup_variant(const VariantKey &key) {
    const Variant *best = nullptr;
    for (const Variant &v : variants())
        if (matches(v, key) && v.key.order >= key.order && (!best || v.key.order < best->key.order))
            best = &v;
    return best;
}

TileSchedule default_tile_schedule() { return {CASCADE_IIR_TILE, CASCADE_IIR_ROWS, "", ""}; }

const Variant &find_variant(const VariantKey &key) {
    if (const Variant *best = lookup_variant(key)) return *best;
    std::ostringstream built;
    for (const Variant &v : variants())
        if (matches(v, key)) built << (built.tellp() > 0 ? ", " : "") << v.key.order;
    std::ostringstream msg;
    msg << "no " << key.device << " variant of " << key.computes();
    if (!key.autoscheduler.empty()) msg << " scheduled by " << key.autoscheduler;
    if (key.tile > 0 || key.rows > 0) msg << " with tile " << key.tile << " and rows " << key.rows;
    if (!key.knobs.empty()) msg << " with knobs " << key.knobs;
    msg << " for order " << key.order;
    if (built.tellp() > 0) {
        msg << " (this build has orders " << built.str() << ")";
    } else {
        msg << " (this build has none for " << key.device << ")";
    }
    throw Error(msg.str());
}

std::pair<int, int> minimum_size(const Variant &variant) {
    std::pair<int, int> size{1, 1};
    if (variant.key.autoscheduler.empty()) return size;
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

std::string sample_key(SampleType samples) {
    switch (samples) {
        case SampleType::f32:
            return "";
        case SampleType::f64:
            return "f64";
        case SampleType::u8:
            return "u8";
        case SampleType::u16:
            return "u16";
        default:
            throw Error(std::string("no variant reads ") + sample_name(samples) + " samples");
    }
}

}  // namespace cascade
