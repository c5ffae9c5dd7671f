#pragma once
// For the suites that run pipelines: whether their CUDA cases can run here, and if not, why (the
// reason a skipped test reports).
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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

// Why this build cannot run `algorithm`, or "" where it can: the block-parallel algorithms 2, 4
// and 5 are the comparison catalogue's (CASCADE_COMPARISON_VARIANTS; the default catalogue holds
// only the schedules of algorithm 4 that the shipped tables run).
inline std::string unbuilt(Algorithm algorithm) {
    if (algorithm != Algorithm::a2 && algorithm != Algorithm::a4 && algorithm != Algorithm::a5) return "";
    const VariantKey comparison_only = iir_key(Algorithm::a2, false);
    for (const Variant &v : variants())
        if (v.key.family == comparison_only.family && v.key.algorithm == comparison_only.algorithm) return "";
    return std::string("algorithm ") + algorithm_name(algorithm) +
           " is in the comparison catalogue, which this build leaves out (-DCASCADE_COMPARISON_VARIANTS=ON)";
}

// The algorithms of `wanted` this build runs; why the others cannot run is added to `skipped`.
inline std::vector<Algorithm> built_algorithms(std::initializer_list<Algorithm> wanted,
                                               std::string &skipped) {
    std::vector<Algorithm> out;
    for (Algorithm a : wanted) {
        const std::string why = unbuilt(a);
        if (why.empty()) {
            out.push_back(a);
        } else if (skipped.find(why) == std::string::npos) {
            skipped += (skipped.empty() ? "" : "; ") + why;
        }
    }
    return out;
}

}  // namespace cascade::testing

namespace cascade::testing {

// The device a case of a parameterised suite runs on: its `device` member, or the case itself.
inline DeviceChoice device_of(DeviceChoice device) { return device; }
template <typename Case>
DeviceChoice device_of(const Case &c) {
    return c.device;
}

// The algorithm a case runs: its `algorithm` member, or automatic where it has none.
template <typename Case, typename = void>
struct HasAlgorithm : std::false_type {};
template <typename Case>
struct HasAlgorithm<Case, std::void_t<decltype(std::declval<Case>().algorithm)>>
    : std::is_same<std::decay_t<decltype(std::declval<Case>().algorithm)>, Algorithm> {};
template <typename Case>
Algorithm algorithm_of(const Case &c) {
    if constexpr (HasAlgorithm<Case>::value) {
        return c.algorithm;
    } else {
        return Algorithm::automatic;
    }
}

// A parameterised suite whose cases name a device (and an algorithm): cases skip, saying why, where
// they cannot run: CUDA without a device, an algorithm this build leaves out.
template <typename Case>
class DeviceTest : public ::testing::TestWithParam<Case> {
protected:
    void SetUp() override {
        std::string why;
        if (device_of(this->GetParam()) == DeviceChoice::cuda && cuda_unavailable(why)) GTEST_SKIP() << why;
        why = unbuilt(algorithm_of(this->GetParam()));
        if (!why.empty()) GTEST_SKIP() << why;
    }
};

}  // namespace cascade::testing
