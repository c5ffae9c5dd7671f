#pragma once
// The double reference of correlate1d and fir2d: sums over the extension folded one reflection at
// a time (test_support.h's `folded`), as scipy.ndimage folds it, not by the library's own index
// arithmetic; each output checked within a tolerance of the sum of its terms' magnitudes, so that
// cancellation within a sum is not charged to the pipeline.
#include <HalideBuffer.h>

#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cascade/boundary.h"

namespace cascade::testing {

struct Taps {
    std::vector<double> taps;
    int center;  // the tap that weighs the output's own sample
};

// `count` taps uniform in [−1, 1].
std::vector<double> random_taps(std::mt19937 &rng, int count);

// A W×H×C image (x fastest) in double, the magnitudes of the terms of each value beside it.
struct Sums {
    int width, height, channels;
    std::vector<double> value, magnitude;
};

// `image` correlated by `f` down the columns, or along the rows with `rows`.
Sums correlated(const Sums &image, const Taps &f, Boundary boundary, bool rows);

// Fails (up to five messages, naming `what`) where an output differs from `expected` by more than
// tolerance × its terms' magnitude.
void expect_sums(const Sums &expected, const std::vector<double> &output, double tolerance,
                 const std::string &what);

// `output` against `input` correlated down the columns by `down` and then along the rows by
// `along` (either may be absent), with the taps rounded to T as a plan of T holds them.
template <typename T>
void expect_correlated(const Halide::Runtime::Buffer<T> &input, const Halide::Runtime::Buffer<T> &output,
                       std::optional<Taps> down, std::optional<Taps> along, Boundary boundary,
                       double tolerance, const std::string &what) {
    Sums s{input.width(), input.height(), input.channels(), {}, {}};
    std::vector<double> got;
    for (int c = 0; c < s.channels; c++)
        for (int y = 0; y < s.height; y++)
            for (int x = 0; x < s.width; x++) {
                s.value.push_back(double(input(x, y, c)));
                s.magnitude.push_back(std::abs(double(input(x, y, c))));
                got.push_back(double(output(x, y, c)));
            }
    for (std::optional<Taps> *f : {&down, &along}) {
        if (!*f) continue;
        if (std::is_same<T, float>::value)
            for (double &t : (*f)->taps) t = double(float(t));
        s = correlated(s, **f, boundary, f == &along);
    }
    expect_sums(s, got, tolerance, what);
}

}  // namespace cascade::testing
