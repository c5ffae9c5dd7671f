#pragma once
// For the suites that run pipelines: whether their CUDA cases can run here, and if not, why (the
// reason a skipped test reports).
#include <string>

#include "device.h"
#include "variants.h"

namespace cascade::testing {

inline bool cuda_unavailable(std::string &why) {
    if (!has_variants(Device::cuda)) {
        why = "this build has no CUDA variants";
        return true;
    }
    if (cuda_info().devices == 0) {
        why = "no CUDA device: " + cuda_info().reason;
        return true;
    }
    return false;
}

}  // namespace cascade::testing
