#include "strips.h"

#include <cmath>

namespace cascade {

int strips_height(int overlap) {
    // 4096², 2 cores, ms per call at strips of 64 / 128 / 192 / 256 rows: overlap 30 (a first-order
    // pole at 0.5) 27.2 / 29.0 / 30.0 / 31.8; overlap 74 (van Vliet σ 4) 41.0 / 38.9 / 39.7 / 40.7.
    return overlap <= 32 ? 64 : 128;
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
