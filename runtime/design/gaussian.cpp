#include "cascade/gaussian.h"

#include <cmath>
#include <complex>
#include <sstream>

#include "cascade/error.h"

namespace cascade {

namespace {

using Complex = std::complex<double>;

// The paper's poles d_i (in z⁻¹, so the z-plane poles are 1/d_i) of its L∞-optimised 3rd-order
// fit, for a base scale of sigma = 2.
const Complex kBasePoles[3] = {{1.40098, 1.00236}, {1.40098, -1.00236}, {1.85132, 0.0}};

// Poles rescaled by q: d^(1/q) keeps the shape and stretches the response.
std::vector<Complex> scaled_poles(double q) {
    std::vector<Complex> p;
    for (Complex d : kBasePoles)
        p.push_back(1.0 / std::polar(std::pow(std::abs(d), 1.0 / q), std::arg(d) / q));
    return p;
}

double variance_of(const std::vector<Complex> &poles) {
    Complex v = 0;
    for (Complex p : poles) v += 2.0 * p / ((1.0 - p) * (1.0 - p));
    return v.real();
}

}  // namespace

std::vector<double> sampled_gaussian(double sigma, int radius) {
    std::vector<double> g;
    double sum = 0;
    for (int k = -radius; k <= radius; k++) {
        g.push_back(std::exp(-0.5 * (k / sigma) * (k / sigma)));
        sum += g.back();
    }
    for (double &v : g) v /= sum;
    return g;
}

double pair_variance(const RecursiveFilter &filter) {
    auto p = poles(filter);
    return variance_of(std::vector<Complex>(p.begin(), p.end()));
}

RecursiveFilter van_vliet_gaussian(double sigma) {
    if (!std::isfinite(sigma) || sigma < 0.5 || sigma > 2000) {
        std::ostringstream msg;
        msg << "sigma " << sigma << " is outside [0.5, 2000]";
        throw Error(msg.str());
    }
    // The variance grows monotonically with q: bisect on log q for variance = sigma².
    double lo = std::log(1e-3), hi = std::log(1e4);
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        (variance_of(scaled_poles(std::exp(mid))) < sigma * sigma ? lo : hi) = mid;
    }
    return unit_gain_filter(scaled_poles(std::exp(0.5 * (lo + hi))));
}

}  // namespace cascade
