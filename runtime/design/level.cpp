#include "level.h"

#include <algorithm>
#include <cmath>

namespace cascade {

namespace {

// Poles from this magnitude on run about the level. Below it a constant image stays within 1e−5
// without (van Vliet's Gaussian to σ = 5, largest pole 0.80; at σ = 10, 0.89, it drifted by
// 1.03e−5), and the level costs the tiled variants 7–12% on the H100 (8192², order 1 and 3,
// clamp: +64 and +42 µs, a per-sample subtraction in both tile passes).
constexpr double kLevelPole = 0.85;

// Above this alternation gain, the level: float32's 6e−8 amplified past 1e−5 would be ~170.
// Filters with negative poles near the unit circle amplify the alternating line enormously (poles
// −0.64 and −0.69 ± 0.30i, 2.7e7); the exact feedbacks of a constant are then a sum of large terms
// that cancel, and float32 keeps a 1×1 image only to 3e−5 (algorithm 6). About its level a
// constant image is zero and stays exact. The cubic and quintic B-splines (9 and 56) stay below
// it; degrees 7 (343) and 9 run about the level.
constexpr double kLevelAlternationGain = 100;

}  // namespace

double dc_response(const std::vector<RecursiveFilter> &sections) {
    double dc = 1.0;
    for (const RecursiveFilter &s : sections) dc *= s.gain / unit_dc_gain(s.feedback);
    return dc * dc;
}

double alternation_gain(const Filter2D &filter) {
    double gain = 1;
    for (const RecursiveFilter *f : {&filter.vertical, &filter.horizontal}) {
        double at_minus_one = 1, sign = -1;
        for (double a : f->feedback) {
            at_minus_one += a * sign;
            sign = -sign;
        }
        const double ratio = std::abs(unit_dc_gain(f->feedback) / at_minus_one);
        gain *= ratio * ratio;
    }
    return gain;
}

bool tiles_about_level(const Filter2D &filter, Boundary boundary, bool direct3) {
    return about_level(filter, boundary) ||
           (direct3 && boundary != Boundary::none && boundary != Boundary::zero);
}

bool about_level(const Filter2D &filter, Boundary boundary) {
    const bool keeps_constants = boundary != Boundary::none && boundary != Boundary::zero;
    return keeps_constants &&
           (std::max(largest_pole(filter.vertical), largest_pole(filter.horizontal)) >= kLevelPole ||
            alternation_gain(filter) >= kLevelAlternationGain);
}

}  // namespace cascade
