#pragma once
// Which float32 filters run about the image's level (algebra/boundary.h's image_level), and what
// a filter makes of a constant: the prebuilt variants' plans and the Func API decide alike.
#include <vector>

#include "cascade/boundary.h"
#include "cascade/filter.h"

namespace cascade {

// What the passes of one dimension, causal and anticausal, make of a constant 1.
double dc_response(const std::vector<RecursiveFilter> &sections);

// How much more the 2D filter passes the highest frequency (the alternating line, z = −1) than a
// constant: Π over both dimensions of (|H(−1)| / |H(1)|)², each pass causal and anticausal.
double alternation_gain(const Filter2D &filter);

// Whether a float32 pipeline filters the image about its level under `boundary`: under the
// extensions that keep a constant line constant, for poles near the unit circle or a large
// alternation gain.
bool about_level(const Filter2D &filter, Boundary boundary);

// Whether the tiles filter `filter` about the level: as about_level, and in the direct form of
// order 3 (`direct3`) under every extension that keeps constants, as its float32 recursion stalls
// short of a constant by up to 3e−6 a pass (van Vliet σ 4; sections 5e−7), and van Vliet σ 5
// under reflect drifted 1.3e−5, past the 1e−5 exact boundaries hold.
bool tiles_about_level(const Filter2D &filter, Boundary boundary, bool direct3);

}  // namespace cascade
