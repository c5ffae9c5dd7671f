#pragma once
// What the baselines' self-checks report: max |output − reference| ÷ max |reference|.
#include <algorithm>
#include <cmath>
#include <vector>

namespace cascade::baselines {

inline double max_relative_error(const std::vector<float> &output, const std::vector<double> &reference) {
    double error = 0, largest = 0;
    for (size_t i = 0; i < output.size(); i++) {
        error = std::max(error, std::abs(output[i] - reference[i]));
        largest = std::max(largest, std::abs(reference[i]));
    }
    return error / largest;
}

}  // namespace cascade::baselines
