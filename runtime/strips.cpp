#include "strips.h"

#include <algorithm>
#include <cmath>

namespace cascade {

int strips_height(int overlap, int height, int threads) {
    // Taller strips spread the windows' overlap over more rows. 4096², 2 cores, ms per call at
    // strips of 64 / 128 / 256 / 512 rows: overlap 30 (a first-order pole at 0.5) 27.2 / 29.0 /
    // 31.8 / –; van Vliet σ 4 (overlap 74) – / 38.4 / 39.8 / 38.4; σ 8 (146) – / – / 43.2 / 40.1;
    // σ 16 (292) – / 58.2 / 51.3 / 44.6 (1024: 45.7); σ 30 (548) – / 82.7 / 64.9 / 51.2 (1024: 54.7).
    // At σ 4, 512-row strips (8 MB of rows a strip at 4096 columns) varied from call to call by up
    // to 30% in the bench (2048², 8.7–13.0 ms; 4096², 38.8–49.0) where 128 rows held 8.1–8.5 and
    // 38.3–39.3 (scripts/bench_ab.sh, two rounds).
    const int preferred = overlap <= 32 ? 64 : overlap <= 128 ? 128 : 512;
    // But every thread needs strips of its own: at least four each. A power of two, as the
    // pipeline finds a row's strip by a shift.
    int shared = 64;
    while (2 * shared <= height / (4 * std::max(threads, 1))) shared *= 2;
    return std::min(preferred, shared);
}

int strips_overlap(const std::vector<RecursiveFilter> &sections) {
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
    while (n > 0 && tail + std::abs(response[n - 1]) <= kStripsTail * total) tail += std::abs(response[--n]);
    return n <= kStripsMaxOverlap && n < length ? n : -1;
}

}  // namespace cascade
