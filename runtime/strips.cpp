#include "strips.h"

#include <algorithm>
#include <cmath>

namespace cascade {

int strips_height(int overlap, int height, int threads, int sample_bytes) {
    // Taller strips spread the windows' overlap over more rows: σ 30 (overlap 548) 51.2 ms at 4096²
    // on 2 cores with 512 rows (128: 82.7). float32 up to an overlap of 128 takes 256 rows (van
    // Vliet σ 4, overlap 30, 2 cores: 4096² 15.7 ms against 18.1 with 64; 2048² 3.7 against 4.4;
    // σ 8 at 2048² 4.0 against 4.7 with 128). float64 takes 128 from the smallest overlaps (the
    // cubic spline's prefilter, overlap 28, 2048²: 5.4 ms against 5.9 with 64, 5.5 with 256).
    const int preferred = overlap > 128 ? 512 : sample_bytes < 8 ? 256 : 128;
    // But every thread needs a strip of its own. One each, not more: a strip's window reaches the
    // overlap past both its ends, which on a short image costs more than the threads' imbalance
    // (van Vliet σ 16 on 2 cores: 1024², 512-row strips 0.84 ms, four a thread 1.61; 512², 0.24
    // against 0.48; σ 30 at 2048² under reflect, 7.1 against 8.5). A power of two, as the
    // pipeline finds a row's strip by a shift.
    int shared = 64;
    while (2 * shared <= height / std::max(threads, 1)) shared *= 2;
    return std::min(preferred, shared);
}

int strips_overlap(const std::vector<RecursiveFilter> &sections, double tail_bound) {
    // Far enough past the largest accepted overlap that the mass beyond it is below the tail
    // bound of any response that is within the bound at kStripsMaxOverlap.
    const int length = 8 * kStripsMaxOverlap;
    std::vector<double> response(length, 0.0);
    response[0] = 1.0;
    for (const RecursiveFilter &s : sections) {
        for (int i = 0; i < length; i++) {
            double value = s.gain * response[i];
            for (size_t k = 1; k <= s.feedback.size() && k <= size_t(i); k++)
                value -= s.feedback[k - 1] * response[i - k];
            response[i] = value;
        }
    }
    double total = 0;
    for (double v : response) total += std::abs(v);
    if (!(total > 0) || !std::isfinite(total)) return -1;
    // The overlap n: everything from sample n on is within the tail bound.
    double tail = 0;
    int n = length;
    while (n > 0 && tail + std::abs(response[n - 1]) <= tail_bound * total) tail += std::abs(response[--n]);
    return n <= kStripsMaxOverlap && n < length ? n : -1;
}

int strips_row_overlap(const std::vector<RecursiveFilter> &sections, double tail) {
    const int n = strips_overlap(sections, tail);
    return n < 0 ? n : (n + kStripsRowAlignment - 1) / kStripsRowAlignment * kStripsRowAlignment;
}

}  // namespace cascade
