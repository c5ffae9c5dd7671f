#include "direct_form.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cascade {

namespace {

constexpr int kSamples = 8192;

// A step to 1 with uniform noise of ±0.5 on it (a fixed generator: the same signal every call).
std::vector<double> test_signal() {
    std::vector<double> x(kSamples);
    uint32_t state = 12345;
    for (double &v : x) {
        state = state * 1664525u + 1013904223u;
        v = 1.0 + (double(state >> 8) / double(1 << 24) - 0.5);
    }
    return x;
}

template <typename T>
std::vector<T> causal(const RecursiveFilter &f, const std::vector<T> &x) {
    std::vector<T> y(x.size(), T(0));
    for (size_t i = 0; i < x.size(); i++) {
        T v = T(f.gain) * x[i];
        for (size_t k = 1; k <= f.feedback.size() && k <= i; k++) v -= T(f.feedback[k - 1]) * y[i - k];
        y[i] = v;
    }
    return y;
}

}  // namespace

double float_pass_error(const RecursiveFilter &exact, const std::vector<RecursiveFilter> &run) {
    const std::vector<double> x = test_signal();
    const std::vector<double> expected = causal(exact, x);
    std::vector<float> y(x.begin(), x.end());
    for (const RecursiveFilter &stage : run) y = causal(stage, y);
    double error = 0, norm = 0;
    for (size_t i = 0; i < x.size(); i++) {
        error += (double(y[i]) - expected[i]) * (double(y[i]) - expected[i]);
        norm += expected[i] * expected[i];
    }
    return norm > 0 ? std::sqrt(error / norm) : 0.0;
}

bool direct_form_accurate(const RecursiveFilter &filter) {
    const double error = float_pass_error(filter, variant_sections(filter, true, filter.order()));
    return error <= kDirectFormError;  // false for NaN
}

bool tiles_in_direct_form(const Filter2D &filter) {
    const int order = std::max(filter.vertical.order(), filter.horizontal.order());
    return order == 1 || (order == kBlockDirectOrder && direct_form_accurate(filter.vertical) &&
                          direct_form_accurate(filter.horizontal));
}

}  // namespace cascade
