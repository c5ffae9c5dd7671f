#pragma once
// The filters of the CUDA Func API tests, shared by their generator and the test that checks them.
#include <string>

#include "cascade/bspline.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"

namespace cascade::testing {

// van Vliet's Gaussian: order 3, the direct form on tiles of 128.
constexpr double kFuncsCudaSigma = 4.0;
// B-spline of degree 9: order 4, sections on tiles of 64.
constexpr int kFuncsCudaDegree = 9;

// The box's radius.
constexpr int kFuncsCudaRadius = 3;

// `call`: "gaussian", "bspline", or "iir" (a different filter down the columns and along the rows:
// orders 3 and 1).
inline Filter2D funcs_cuda_filter(const std::string &call) {
    if (call == "gaussian") {
        const RecursiveFilter g = van_vliet_gaussian(kFuncsCudaSigma);
        return {g, g};
    }
    if (call == "bspline") {
        const RecursiveFilter f = bspline_prefilter(kFuncsCudaDegree);
        return {f, f};
    }
    return {van_vliet_gaussian(2.0), bspline_prefilter(3)};
}

}  // namespace cascade::testing
