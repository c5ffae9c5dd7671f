#include "cascade/filter.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cascade/error.h"
#include "companion.h"

namespace cascade {

std::vector<std::complex<double>> poles(const RecursiveFilter &filter) {
    const int r = filter.order();
    if (r == 0) return {};
    Eigen::EigenSolver<Eigen::MatrixXd> solver(companion_matrix(filter.feedback), false);
    std::vector<std::complex<double>> result;
    for (int k = 0; k < r; k++) result.push_back(solver.eigenvalues()(k));
    return result;
}

std::vector<RecursiveFilter> to_sections(const RecursiveFilter &filter) {
    std::vector<RecursiveFilter> sections;
    std::vector<double> real;
    // EigenSolver returns real eigenvalues with a zero imaginary part and complex ones as exact
    // conjugate pairs, so each pair is taken once, from its member above the real axis.
    for (auto p : poles(filter)) {
        if (p.imag() == 0.0) {
            real.push_back(p.real());
        } else if (p.imag() > 0.0) {
            sections.push_back({1.0, {-2.0 * p.real(), std::norm(p)}});
        }
    }
    // Real poles two by two, so that most filters of order r take ⌈r/2⌉ sections: the largest
    // with the smallest left. Two close poles stay apart: a second-order section moves a double
    // pole by ~√(float rounding), which costs more than a section.
    std::sort(real.begin(), real.end());
    size_t lo = 0, hi = real.size();
    for (; hi - lo >= 2 && real[hi - 1] - real[lo] >= kMinPairedPoleGap; lo++, hi--)
        sections.push_back({1.0, {-(real[lo] + real[hi - 1]), real[lo] * real[hi - 1]}});
    for (; lo < hi; lo++) sections.push_back({1.0, {-real[lo]}});
    if (!sections.empty()) sections.front().gain = filter.gain;
    return sections;
}

double largest_pole(const RecursiveFilter &filter) {
    double largest = 0;
    for (const auto &p : poles(filter)) largest = std::max(largest, std::abs(p));
    return largest;
}

double unit_dc_gain(const std::vector<double> &feedback) {
    double sum = 1.0;
    for (double a : feedback) sum += a;
    return sum;
}

RecursiveFilter unit_gain_filter(const std::vector<std::complex<double>> &poles) {
    std::vector<std::complex<double>> poly{1.0};
    for (std::complex<double> p : poles) {
        poly.push_back(0.0);
        for (size_t k = poly.size() - 1; k >= 1; k--) poly[k] -= p * poly[k - 1];
    }
    // Conjugate pairs make the coefficients real; what imaginary part is left is rounding.
    RecursiveFilter f;
    for (size_t k = 1; k < poly.size(); k++) f.feedback.push_back(poly[k].real());
    f.gain = unit_dc_gain(f.feedback);
    return f;
}

void require_stable(const RecursiveFilter &filter) {
    if (filter.order() < 1) throw Error("the filter needs at least one feedback coefficient");
    if (!std::isfinite(filter.gain)) throw Error("the gain is not a finite number");
    for (double a : filter.feedback)
        if (!std::isfinite(a)) throw Error("a feedback coefficient is not a finite number");
    // a_k is ± the k-th elementary symmetric function of the r poles, so poles inside the unit
    // circle bound it by C(r, k). Past that bound the filter is unstable whatever its roots, and
    // the root finder, fed coefficients spanning hundreds of decades, may not find the large ones.
    double binomial = 1;
    for (int k = 1; k <= filter.order(); k++) {
        binomial = binomial * (filter.order() - k + 1) / k;
        const double a = filter.feedback[k - 1];
        if (std::abs(a) > binomial) {
            std::ostringstream msg;
            msg << "unstable filter: |a" << k << "| = " << std::abs(a) << " exceeds C(" << filter.order()
                << ", " << k << ") = " << binomial
                << ", which no filter with every pole inside the unit circle reaches";
            throw Error(msg.str());
        }
    }
    for (auto p : poles(filter)) {
        // A pole this close to the circle has an impulse response longer than any image.
        if (!(std::abs(p) < 1.0 - 1e-9)) {
            std::ostringstream msg;
            msg << "unstable filter: pole " << p.real() << (p.imag() < 0 ? "-" : "+") << std::abs(p.imag())
                << "i has magnitude " << std::abs(p)
                << " (every pole must lie strictly inside the unit circle)";
            throw Error(msg.str());
        }
    }
}

std::vector<double> parse_coefficients(const std::string &text) {
    if (text.empty()) throw Error("empty coefficient list (expected e.g. -0.5 or 0.25,-0.1)");
    std::vector<double> values;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ',')) {
        // strtod, not stod: stod throws on underflow too, and a coefficient below double's range is
        // simply (nearly) zero; only overflow is an error.
        const char *start = item.c_str();
        char *end = nullptr;
        errno = 0;
        const double value = std::strtod(start, &end);
        const bool overflow = errno == ERANGE && std::abs(value) == HUGE_VAL;
        size_t used = size_t(end - start);
        while (used < item.size() && std::isspace(static_cast<unsigned char>(item[used]))) used++;
        if (item.empty()) throw Error("malformed coefficient list '" + text + "': empty item");
        if (used != item.size())
            throw Error("malformed coefficient list '" + text + "': '" + item + "' is not a number");
        if (overflow) throw Error("coefficient '" + item + "' is out of range (beyond ±1.8e308)");
        if (!std::isfinite(value)) throw Error("coefficient '" + item + "' is not finite");
        values.push_back(value);
    }
    if (!text.empty() && text.back() == ',')
        throw Error("malformed coefficient list '" + text + "': trailing comma");
    return values;
}

std::vector<RecursiveFilter> variant_sections(const RecursiveFilter &f, bool direct, int variant_order,
                                              bool float32) {
    std::vector<RecursiveFilter> sections;
    if (direct) {
        sections.push_back(f);
        sections[0].feedback.resize(variant_order, 0.0);
    } else {
        sections = to_sections(f);
        for (RecursiveFilter &s : sections) s.feedback.resize(2, 0.0);
        sections.resize(variant_order, RecursiveFilter{1.0, {0.0, 0.0}});
    }
    if (!float32) return sections;
    // Rounding moves 1 + Σ a_k, the DC gain's denominator, by ~1e−7·|a|: with poles near 1 (a
    // Gaussian of σ = 200 has 1 + Σ a_k ≈ 1e−4 per section) that is a DC error of 1e−3. The
    // gain is rescaled so that the rounded filter keeps the DC gain of the exact one.
    double dc_ratio = 1.0;
    for (RecursiveFilter &s : sections) {
        const double exact = unit_dc_gain(s.feedback);
        for (double &a : s.feedback) a = float(a);
        if (exact != 0.0) dc_ratio *= unit_dc_gain(s.feedback) / exact;
    }
    sections[0].gain *= dc_ratio;
    for (RecursiveFilter &s : sections) s.gain = float(s.gain);
    return sections;
}

}  // namespace cascade
