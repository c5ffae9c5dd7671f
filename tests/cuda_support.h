#pragma once
// For the suites that run pipelines: whether their CUDA cases can run here, and if not, why (the
// reason a skipped test reports).
#include <gtest/gtest.h>

#include <string>

#include "cascade/device.h"
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

namespace cascade::testing {

// The device a case of a parameterised suite runs on: its `device` member, or the case itself.
inline DeviceChoice device_of(DeviceChoice device) { return device; }
template <typename Case>
DeviceChoice device_of(const Case &c) {
    return c.device;
}

// A parameterised suite whose cases name a device: CUDA cases skip, saying why, where they
// cannot run.
template <typename Case>
class DeviceTest : public ::testing::TestWithParam<Case> {
protected:
    void SetUp() override {
        std::string why;
        if (device_of(this->GetParam()) == DeviceChoice::cuda && cuda_unavailable(why)) GTEST_SKIP() << why;
    }
};

}  // namespace cascade::testing
