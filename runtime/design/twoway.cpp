#include "cascade/twoway.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "boundary_tables.h"
#include "cascade/gaussian.h"
#include "twoway_edges.h"

namespace cascade {

TwoWayGaussian two_way_gaussian(double sigma) {
    TwoWayGaussian g;
    for (RecursiveFilter s : to_sections(van_vliet_gaussian(sigma))) {
        s.gain = unit_dc_gain(s.feedback);
        g.sections.push_back(s);
    }
    g.kernel = sampled_gaussian(sigma, int(std::ceil(4 * sigma)));
    return g;
}

TwoWayEdgeWeights two_way_edges(const std::vector<float> &coefficients, int64_t n, Boundary boundary) {
    TwoWayEdgeWeights table;
    if (boundary == Boundary::none || boundary == Boundary::zero || n < 1) return table;
    const int sections = int(coefficients.size() / 3), K = 2 * sections;
    // One causal step of the cascade: each section's newest output, then its previous one.
    auto step = [&](const Eigen::VectorXd &state, double x) {
        Eigen::VectorXd next(K);
        double u = x;
        for (int s = 0; s < sections; s++) {
            const double y = coefficients[3 * s] * u - coefficients[3 * s + 1] * state(2 * s) -
                             coefficients[3 * s + 2] * state(2 * s + 1);
            next(2 * s) = y;
            next(2 * s + 1) = state(2 * s);
            u = y;
        }
        return next;
    };
    const Eigen::VectorXd B = step(Eigen::VectorXd::Zero(K), 1.0);
    Eigen::MatrixXd Phi(K, K);
    for (int k = 0; k < K; k++) Phi.col(k) = step(Eigen::VectorXd::Unit(K, k), 0.0);
    const int64_t period = boundary == Boundary::clamp      ? 1
                           : boundary == Boundary::periodic ? n
                           : boundary == Boundary::reflect  ? 2 * n
                                                            : std::max<int64_t>(2 * n - 2, 1);
    Eigen::MatrixXd power = Eigen::MatrixXd::Identity(K, K);
    for (int64_t j = 0; j < period; j++) power = Phi * power;
    const Eigen::MatrixXd repeats = (Eigen::MatrixXd::Identity(K, K) - power).inverse();
    // W(i, side): the weights of sample i, K rows per side.
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(2 * K, n);
    for (int side = 0; side < 2; side++) {
        Eigen::VectorXd v = repeats * B;  // (I − Φ^P)⁻¹·Φ^j·B: Φ and (I − Φ^P)⁻¹ commute
        for (int64_t j = 0; j < period; j++) {
            const int64_t i = extended_index(boundary, side == 0 ? -1 - j : n + j, n);
            W.block(side * K, i, K, 1) += v;
            v = Phi * v;
        }
    }
    const double largest = W.cwiseAbs().maxCoeff(), negligible = 1e-10 * largest;
    int64_t reach = 0;  // samples from the nearer end that matter
    for (int64_t i = 0; i < n; i++)
        if (W.col(i).cwiseAbs().maxCoeff() > negligible) reach = std::max(reach, std::min(i + 1, n - i));
    table.count = std::min(n, 2 * reach);
    table.near = table.count == n ? n : reach;
    table.weights.resize(size_t(table.count) * 2 * K);
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < K; k++)
            for (int64_t q = 0; q < table.count; q++) {
                const int64_t i = q < table.near ? q : n - table.count + q;
                table.weights[size_t(q + table.count * (k + K * side))] = float(W(side * K + k, i));
            }
    return table;
}

}  // namespace cascade
