#include "cascade/deriche.h"

#include <cmath>
#include <complex>
#include <functional>
#include <sstream>

#include "cascade/error.h"

namespace cascade {

namespace {

using Complex = std::complex<double>;

void require_sigma(const char *method, double sigma, double max_sigma) {
    if (std::isfinite(sigma) && sigma >= 0.5 && sigma <= max_sigma) return;
    std::ostringstream msg;
    msg << "sigma " << sigma << " is outside [0.5, " << max_sigma << "] for " << method;
    if (std::isfinite(sigma) && sigma > max_sigma && max_sigma == kDeriche4MaxSigma)
        msg << " (float32 cannot hold its cascade form beyond; use vanvliet or deriche2)";
    throw Error(msg.str());
}

// The cascade form of the even kernel h with the causal poles `poles`. With e = d ∗ reverse(d),
// d the coefficients of D(z) = Π (1 − p z⁻¹), N = H·D(z)·D(1/z) has taps n_k = Σ_i e_i·h(k − i):
// exact sums, zero for |k| ≥ r because h is a sum of the poles' exponentials in |n|. They are
// scaled to sum 1, and the pass to unit DC gain, so the whole filter has unit DC gain.
FirIirGaussian cascade_form(const std::function<double(double)> &h, const std::vector<Complex> &poles) {
    FirIirGaussian g;
    g.pass = unit_gain_filter(poles);
    const int r = g.pass.order();
    std::vector<double> d{1.0};
    for (double a : g.pass.feedback) d.push_back(a);
    std::vector<double> e(2 * r + 1, 0.0);  // e[i + r] = e_i
    for (int i = 0; i <= r; i++)
        for (int j = 0; j <= r; j++) e[i - j + r] += d[i] * d[j];
    // N is even: compute n_0 … n_{r−1} and mirror, so the taps are exactly symmetric.
    g.taps.assign(2 * r - 1, 0.0);
    double sum = 0;
    for (int k = 0; k <= r - 1; k++) {
        double n = 0;
        for (int i = -r; i <= r; i++) n += e[i + r] * h(k - i);
        g.taps[r - 1 + k] = g.taps[r - 1 - k] = n;
        sum += k == 0 ? n : 2 * n;
    }
    for (double &t : g.taps) t /= sum;
    return g;
}

// Deriche's fit of exp(−x²/2) on x = |n|/σ ≥ 0: Σ (a cos(ω x) + b sin(ω x))·e^{−β x}.
struct DampedPair {
    double a, b, beta, omega;
};
const DampedPair kDeriche4Fit[2] = {{1.680, 3.735, 1.783, 0.6318}, {-0.6803, -0.2598, 1.723, 1.997}};

// Variance of the sampled (1 + α|n|)·e^{−α|n|}, from the closed sums of |n|^k p^|n|, p = e^{−α}.
double deriche2_variance(double alpha) {
    const double p = std::exp(-alpha), q = -std::expm1(-alpha);  // q = 1 − p without cancellation
    const double s0 = (1 + p) / q, s1 = 2 * p / (q * q), s2 = 2 * p * (1 + p) / (q * q * q),
                 s3 = 2 * p * (1 + 4 * p + p * p) / (q * q * q * q);
    return (s2 + alpha * s3) / (s0 + alpha * s1);
}

}  // namespace

double deriche2_kernel(double alpha, double n) {
    const double x = alpha * std::abs(n);
    return (1 + x) * std::exp(-x);
}

double deriche4_kernel(double sigma, double n) {
    const double x = std::abs(n) / sigma;
    double h = 0;
    for (const DampedPair &f : kDeriche4Fit)
        h += (f.a * std::cos(f.omega * x) + f.b * std::sin(f.omega * x)) * std::exp(-f.beta * x);
    return h;
}

double deriche2_alpha(double sigma) {
    require_sigma("deriche2", sigma, 2000);
    // The variance falls monotonically as α grows: bisect on log α for variance = sigma².
    double lo = std::log(1e-6), hi = std::log(50.0);
    for (int i = 0; i < 200; i++) {
        const double mid = 0.5 * (lo + hi);
        (deriche2_variance(std::exp(mid)) > sigma * sigma ? lo : hi) = mid;
    }
    return std::exp(0.5 * (lo + hi));
}

FirIirGaussian deriche2_gaussian(double sigma) {
    const double alpha = deriche2_alpha(sigma);
    const Complex p = std::exp(-alpha);
    return cascade_form([alpha](double n) { return deriche2_kernel(alpha, n); }, {p, p});
}

FirIirGaussian deriche4_gaussian(double sigma) {
    require_sigma("deriche4", sigma, kDeriche4MaxSigma);
    return deriche4_gaussian_unchecked(sigma);
}

FirIirGaussian deriche4_gaussian_unchecked(double sigma) {
    std::vector<Complex> poles;
    for (const DampedPair &f : kDeriche4Fit) {
        const Complex p = std::exp(Complex(-f.beta, f.omega) / sigma);
        poles.push_back(p);
        poles.push_back(std::conj(p));
    }
    return cascade_form([sigma](double n) { return deriche4_kernel(sigma, n); }, poles);
}

}  // namespace cascade
