#pragma once
// Box (moving-average) filtering of images through summed-area tables: exact boundaries, O(1)
// work per pixel whatever the radius.
#include <cstdint>
#include <string>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/image.h"

namespace cascade {

// The image continues past its edges as boundary.h says (the mean still divides by (2R+1)² with
// zeros); a box has no feedback, so `none` is `zero`.
// The mean of the (2R+1)×(2R+1) window around every pixel of every channel of the input,
// extended by `boundary`. Any radius ≥ 0 works, far beyond the image's size too. The sums come
// from float32 tables computed on `device`, of the input less its channel means. Throws
// cascade::Error on a non-finite sample (require_finite, cascade/iir.h): through those tables it
// would reach every box.
Image box_mean(const Image &input, int radius, Boundary boundary, DeviceChoice device);

// One term coefficient·P(k) of a coverage count, P(k) the indicator of the indices 0..k.
struct AxisTerm {
    int64_t coefficient;
    int64_t k;  // 0 ≤ k < n
};

// How often the window [x0, x1] of the extended axis of length n covers each index i, written
// as Σ coefficient·P(k): the count of index i is the sum of the coefficients of the terms with
// k ≥ i. Terms come sorted by k, one per k, none zero.
std::vector<AxisTerm> box_axis_terms(int64_t n, int64_t x0, int64_t x1, Boundary boundary);

}  // namespace cascade
