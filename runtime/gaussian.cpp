#include "gaussian.h"

#include <cmath>
#include <complex>
#include <sstream>

#include "error.h"

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

RecursiveFilter from_poles(const std::vector<Complex> &poles) {
    // Π (1 − p z⁻¹) = 1 + a_1 z⁻¹ + … ; conjugate pairs make the coefficients real.
    std::vector<Complex> poly{1.0};
    for (Complex p : poles) {
        poly.push_back(0.0);
        for (size_t k = poly.size() - 1; k >= 1; k--) poly[k] -= p * poly[k - 1];
    }
    RecursiveFilter f;
    for (size_t k = 1; k < poly.size(); k++) f.feedback.push_back(poly[k].real());
    f.gain = unit_dc_gain(f.feedback);
    return f;
}

}  // namespace

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
    return from_poles(scaled_poles(std::exp(0.5 * (lo + hi))));
}

}  // namespace cascade
