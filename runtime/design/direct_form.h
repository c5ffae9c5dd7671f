#pragma once
// When float32 runs a filter of order 3 as one direct-form recursion as accurately as it runs
// its sections (runtime/iir.cpp's automatic form on the GPU).
#include <vector>

#include "cascade/filter.h"

namespace cascade {

// The largest order of the GPU's block-parallel direct form: 3 states a dimension, where van
// Vliet's Gaussian as sections carries 4 (a complex pair and a real pole padded to two pairs).
constexpr int kBlockDirectOrder = 3;

// Above this relative L2 error of its float32 causal pass, the direct form is left to sections.
// float32's own rounding of a long recursion is ~1e−7; van Vliet's Gaussian passes it to σ ≈ 5
// (σ 4: 8.6e−7 against 1.4e−7 as sections; σ 8: 4.4e−6 against 4.5e−7).
constexpr double kDirectFormError = 2e-6;

// The relative L2 error against `exact` run in double of `run` (its coefficients as the
// pipeline rounds them: variant_sections) cascaded in float32, causal, over a step with noise
// on it, 8192 samples.
double float_pass_error(const RecursiveFilter &exact, const std::vector<RecursiveFilter> &run);

// Whether `filter`'s direct form stays within kDirectFormError.
bool direct_form_accurate(const RecursiveFilter &filter);

// Whether the tiles run `filter` as one direct-form recursion a dimension rather than as sections
// of order 2, where a direct form of its order is built: order 1, and order kBlockDirectOrder where
// both dimensions keep float32's accuracy (order 2 is one section either way). The prebuilt plans'
// automatic form and the Func API's blocked path on CUDA decide by it.
bool tiles_in_direct_form(const Filter2D &filter);

}  // namespace cascade
