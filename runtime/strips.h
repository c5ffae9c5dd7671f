#pragma once
// How far the CPU's strips (algebra/iir_strips.h) reach past each strip.
#include <vector>

#include "cascade/filter.h"

namespace cascade {

// The tail of the column passes' impulse response past the overlap, as a fraction of its whole
// mass (Σ|h|), that a strip's window may cut off: each cut end moves an output by at most this
// fraction of the largest output the filter can make, far below float32's rounding.
inline constexpr double kStripsTail = 1e-9;
// float64 samples: the same bound below float64's rounding (a spline prefilter's pole −0.268 then
// reaches 28 rows past a strip).
inline constexpr double kStripsTailFloat64 = 1e-16;

// Beyond this overlap the windows' extra column steps cost more than algorithm 6 saves:
// 4096², 2 cores, 2 sections: the strips take 20 ms plus 0.22 ms per row of overlap, algorithm 6
// 127 ms.
inline constexpr int kStripsMaxOverlap = 1024;

// Rows per strip for an overlap, on an image of `height` rows filtered by `threads` threads:
// taller strips spread the windows' extra column steps (3·overlap per strip and section) over
// more rows, as long as each thread keeps strips of its own. A power of two (the pipeline finds a
// row's strip by a shift) of at least 64, the row passes'
// group of 8 vectors on AVX2 (schedules/strips_schedule.cpp).
int strips_height(int overlap, int height, int threads, int sample_bytes = 4);

// The overlap of the causal cascade of `sections` (as the pipeline runs them): the fewest samples
// n with Σ_{i≥n}|h_i| ≤ tail · Σ|h_i|, or −1 when that is past kStripsMaxOverlap.
int strips_overlap(const std::vector<RecursiveFilter> &sections, double tail = kStripsTail);

// Under an exact boundary the windows warm up over the folded extension, and a line of a few
// samples folds into a signal of a few frequencies that the filter may pass far less than it passes
// the warm-up's float32 rounding: random filters of order 2–8 with poles to 0.95 reached 2.4e−3 of
// the result on 3×2000 and 1.3e−3 on 2×2 (RT: 2e−6, 4.5e−6). With poles −0.95 and −0.9 the error
// falls with the line's length: 8.2e−3 at 1 sample, 2.2e−5 at 8, 4.4e−6 at 16, 1.3e−6 at 32 and
// beyond. `auto` runs algorithm 6 on images with a side shorter than this.
inline constexpr int kStripsMinExactLine = 32;

// Under an exact boundary, the columns the row passes reach past each end of a row: the overlap of
// the horizontal cascade, rounded up to whole vectors (kStripsRowAlignment), which keeps the rows'
// column tiles at the image's vector alignment (neutral where measured: van Vliet σ 4, 74 or 80
// columns, 4.30 or 4.24 ms at 2048² on 2 cores); −1 where strips_overlap is.
inline constexpr int kStripsRowAlignment = 8;
int strips_row_overlap(const std::vector<RecursiveFilter> &sections, double tail = kStripsTail);

}  // namespace cascade
