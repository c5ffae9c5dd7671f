#pragma once
#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace cascade {

// One recursive pass of order r = feedback.size(), in the project's convention:
//   causal      y_i = gain·x_i − Σ_{k=1..r} feedback[k-1]·y_{i−k}
//   anticausal  z_i = gain·y_i − Σ_{k=1..r} feedback[k-1]·z_{i+k}
struct RecursiveFilter {
    double gain = 1.0;
    std::vector<double> feedback;

    int order() const { return int(feedback.size()); }

    // y = x: what a dimension or a padding section that filters nothing runs.
    static RecursiveFilter identity() { return {1.0, {0.0}}; }
};

// A separable 2D filter: causal then anticausal down the columns (vertical), then along the
// rows (horizontal).
struct Filter2D {
    RecursiveFilter vertical, horizontal;
};

// Roots of z^r + a_1 z^{r-1} + … + a_r: the filter's poles.
std::vector<std::complex<double>> poles(const RecursiveFilter &filter);

// The largest magnitude among the filter's poles (0 for a filter without feedback).
double largest_pole(const RecursiveFilter &filter);

// The gain that makes a pass's response to a constant equal that constant: 1 + Σ a_k.
double unit_dc_gain(const std::vector<double> &feedback);

// The pass with these poles (complex ones in conjugate pairs) and unit DC gain: the feedback is
// Π (1 − p z⁻¹) = 1 + a_1 z⁻¹ + … + a_r z⁻ʳ.
RecursiveFilter unit_gain_filter(const std::vector<std::complex<double>> &poles);

// The same filter as a cascade of sections of order ≤ 2: one per complex-conjugate pair, one per
// two real poles at least kMinPairedPoleGap apart, one per remaining real pole; the gain rides
// on the first.
// In float32 the sections keep the accuracy the direct form loses at orders ≥ 3.
std::vector<RecursiveFilter> to_sections(const RecursiveFilter &filter);
constexpr double kMinPairedPoleGap = 0.3;

// The filter as a pipeline variant runs it: one direct-form section padded with zero feedback to
// `variant_order`, or sections of order 2 (a first-order one with a_2 = 0) padded with identity
// sections to `variant_order` of them, the gain on the first. For a float32 pipeline (`float32`)
// coefficients are rounded to float, as the pipeline sees them, so that tables derived from them
// match its scans, and the gain is rescaled so that the rounded filter keeps the exact one's DC
// gain; a float64 pipeline runs them as they are.
std::vector<RecursiveFilter> variant_sections(const RecursiveFilter &filter, bool direct, int variant_order,
                                              bool float32 = true);

// Samples past which the filter's impulse response (causal or anticausal) has fallen below 1e−9 of
// its peak: how far past the edges cascade::funcs runs a recursion with run-time coefficients for
// an exact boundary (cascade/funcs.h, Recursion::margin). Throws cascade::Error for an unstable
// filter, and for one whose margin would pass 2^31 − 1 (a pole within ~1e−8 of the unit circle).
int margin_for(const RecursiveFilter &filter);

// Throws cascade::Error unless the filter has order ≥ 1, finite coefficients and every pole
// strictly inside the unit circle.
void require_stable(const RecursiveFilter &filter);

// Parses "a1,a2,...,ar" (decimal or exponent notation). Throws cascade::Error on an empty
// list, an empty item, text that is not a number, or a non-finite value.
std::vector<double> parse_coefficients(const std::string &text);

}  // namespace cascade
