#include "cascade/bspline.h"

#include <Eigen/Dense>
#include <cmath>
#include <complex>

#include "cascade/error.h"
#include "companion.h"

namespace cascade {

namespace {

double binomial(int n, int k) {
    double r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
}

// β^n(x) = 1/n! Σ_j (−1)^j C(n+1, j) (x + (n+1)/2 − j)_+^n.
double bspline(int n, double x) {
    double sum = 0, factorial = 1;
    for (int i = 2; i <= n; i++) factorial *= i;
    for (int j = 0; j <= n + 1; j++) {
        const double t = x + (n + 1) / 2.0 - j;
        if (t > 0) sum += (j % 2 ? -1 : 1) * binomial(n + 1, j) * std::pow(t, n);
    }
    return sum / factorial;
}

}  // namespace

std::vector<double> bspline_samples(int degree) {
    std::vector<double> samples;
    for (int k = -degree / 2; k <= degree / 2; k++) samples.push_back(bspline(degree, k));
    return samples;
}

RecursiveFilter bspline_prefilter(int degree) {
    if (degree < 3 || degree > 9 || degree % 2 == 0)
        throw Error("B-spline prefilters exist here for odd degrees 3 to 9, not " + std::to_string(degree));
    // z^m Σ_k β(k) z^k is a polynomial of degree 2m whose roots pair as p, 1/p.
    const std::vector<double> c = bspline_samples(degree);  // coefficients of z^0 … z^2m
    const int m = degree / 2, n = 2 * m;
    std::vector<double> monic(size_t(n), 0.0);
    for (int k = 0; k < n; k++) monic[size_t(k)] = c[n - 1 - k] / c[n];
    Eigen::EigenSolver<Eigen::MatrixXd> solver(companion_matrix(monic), false);
    // Π (1 − p z⁻¹) over the poles inside the unit circle (all real and negative for B-splines).
    std::vector<double> poly{1.0};
    for (int i = 0; i < n; i++) {
        const std::complex<double> p = solver.eigenvalues()(i);
        if (std::abs(p) >= 1) continue;
        poly.push_back(0.0);
        for (size_t k = poly.size() - 1; k >= 1; k--) poly[k] -= p.real() * poly[k - 1];
    }
    RecursiveFilter f;
    f.feedback.assign(poly.begin() + 1, poly.end());
    f.gain = unit_dc_gain(f.feedback);
    return f;
}

}  // namespace cascade
