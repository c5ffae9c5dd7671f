#pragma once
// How far the CPU's strips (algebra/iir_strips.h) reach past each strip.
#include <vector>

#include "cascade/filter.h"

namespace cascade {

// The tail of the column passes' impulse response past the overlap, as a fraction of its whole
// mass (Σ|h|), that a strip's window may cut off: each cut end moves an output by at most this
// fraction of the largest output the filter can make, far below float32's rounding.
inline constexpr double kStripsTail = 1e-9;

// Beyond this overlap the windows' extra column steps cost more than algorithm 6 saves:
// 4096², 2 cores, 2 sections: the strips take 20 ms plus 0.22 ms per row of overlap, algorithm 6
// 127 ms.
inline constexpr int kStripsMaxOverlap = 1024;

// Rows per strip for an overlap, on an image of `height` rows filtered by `threads` threads:
// taller strips spread the windows' extra column steps (3·overlap per strip and section) over
// more rows, as long as each thread keeps strips of its own. A power of two (the pipeline finds a
// row's strip by a shift) of at least 64, the row passes'
// group of 8 vectors on AVX2 (schedules/strips_schedule.cpp).
int strips_height(int overlap, int height, int threads);

// The overlap of the causal cascade of `sections` (as the pipeline runs them): the fewest samples
// n with Σ_{i≥n}|h_i| ≤ kStripsTail · Σ|h_i|, or −1 when that is past kStripsMaxOverlap.
int strips_overlap(const std::vector<RecursiveFilter> &sections);

}  // namespace cascade
