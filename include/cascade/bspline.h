#pragma once
// B-spline interpolation prefilters (Unser's direct B-spline transform): the recursive filter
// whose output, sampled through the B-spline kernel, gives back the input samples.
#include <vector>

#include "cascade/filter.h"

namespace cascade {

// The samples β^n(k), k = −⌊n/2⌋ … ⌊n/2⌋, of the centred B-spline of odd degree n.
std::vector<double> bspline_samples(int degree);

// The prefilter of odd degree n ≥ 1 as one causal pass (applied causal then anticausal, like
// every pass): its poles are the roots of Σ β^n(k) z^k inside the unit circle, its gain the
// one of unit DC response. Degree 1 is the identity (no poles): throws cascade::Error for it,
// as for an even or out-of-range degree (3 to 9 are supported).
RecursiveFilter bspline_prefilter(int degree);

}  // namespace cascade
