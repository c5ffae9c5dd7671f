#include "correlation_reference.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace cascade::testing {

std::vector<double> random_taps(std::mt19937 &rng, int count) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> taps(count);
    for (double &t : taps) t = u(rng);
    return taps;
}

Sums correlated(const Sums &image, const Taps &f, Boundary boundary, bool rows) {
    const int W = image.width, H = image.height, C = image.channels, n = rows ? W : H;
    Sums out{W, H, C, std::vector<double>(image.value.size()), std::vector<double>(image.value.size())};
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const int i = rows ? x : y;
                double sum = 0, magnitude = 0;
                for (size_t j = 0; j < f.taps.size(); j++) {
                    const int64_t s = folded(boundary, i + int64_t(j) - f.center, n);
                    if (s < 0) continue;
                    const size_t at =
                        rows ? size_t(c) * W * H + size_t(y) * W + s : size_t(c) * W * H + size_t(s) * W + x;
                    sum += f.taps[j] * image.value[at];
                    magnitude += std::abs(f.taps[j]) * image.magnitude[at];
                }
                const size_t here = size_t(c) * W * H + size_t(y) * W + x;
                out.value[here] = sum;
                out.magnitude[here] = magnitude;
            }
    return out;
}

void expect_sums(const Sums &expected, const std::vector<double> &output, double tolerance,
                 const std::string &what) {
    int wrong = 0;
    for (size_t i = 0; i < output.size(); i++) {
        if (std::abs(output[i] - expected.value[i]) <= tolerance * expected.magnitude[i] || wrong++ >= 5)
            continue;
        const size_t plane = size_t(expected.width) * expected.height;
        ADD_FAILURE() << what << ": (" << i % plane % expected.width << ", " << i % plane / expected.width
                      << ", " << i / plane << ") is " << output[i] << ", the sum " << expected.value[i]
                      << " (terms of magnitude " << expected.magnitude[i] << ")";
    }
    EXPECT_EQ(wrong, 0) << what;
}

}  // namespace cascade::testing
