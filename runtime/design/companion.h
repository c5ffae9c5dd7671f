#pragma once

#include <Eigen/Dense>
#include <vector>

namespace cascade {

// The companion matrix of z^r + a_1·z^{r−1} + … + a_r (feedback a_1 … a_r): first row
// (−a_1, …, −a_r), ones below the diagonal. Its eigenvalues are the recursion's poles, and it
// advances the state (y_{i−1}, …, y_{i−r}) of the recursion's unforced part by one sample.
inline Eigen::MatrixXd companion_matrix(const std::vector<double> &feedback) {
    const int r = int(feedback.size());
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(r, r);
    for (int k = 0; k < r; k++) A(0, k) = -feedback[size_t(k)];
    for (int k = 1; k < r; k++) A(k, k - 1) = 1.0;
    return A;
}

}  // namespace cascade
