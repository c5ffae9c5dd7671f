#include "variants.h"

#include <sstream>

#include "cascade/error.h"

namespace cascade {

const char *device_name(Device device) { return device == Device::cuda ? "cuda" : "cpu"; }

const Variant *lookup_variant(const std::string &algorithm, int order, Device device) {
    const Variant *best = nullptr;
    for (const Variant &v : variants())
        if (v.algorithm == algorithm && v.device == device && v.order >= order &&
            (!best || v.order < best->order))
            best = &v;
    return best;
}

const Variant &find_variant(const std::string &algorithm, int order, Device device) {
    if (const Variant *best = lookup_variant(algorithm, order, device)) return *best;
    std::ostringstream built;
    for (const Variant &v : variants())
        if (v.algorithm == algorithm && v.device == device)
            built << (built.tellp() > 0 ? ", " : "") << v.order;
    std::ostringstream msg;
    msg << "no " << device_name(device) << " variant of " << algorithm << " for order " << order;
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
