#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <functional>

namespace cascade::testing {

std::mt19937_64 rng_for_test() {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "none";
    return std::mt19937_64(std::hash<std::string>{}(name));
}

Eigen::MatrixXd random_matrix(std::mt19937_64 &rng, int rows, int cols) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::MatrixXd m(rows, cols);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) m(i, j) = u(rng);
    return m;
}

Image random_image(std::mt19937_64 &rng, int width, int height, int channels) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Image image(width, height, channels);
    for (float &v : image.data) v = u(rng);
    return image;
}

RecursiveFilter random_stable_filter(std::mt19937_64 &rng, int order, double max_pole, bool complex_poles) {
    std::uniform_real_distribution<double> radius(0.05, max_pole), angle(0.1, 3.0), sign(-1, 1);
    // Expand Π (1 − p z⁻¹) into 1 + a_1 z⁻¹ + … + a_r z⁻ʳ.
    std::vector<std::complex<double>> poly{1.0};
    auto multiply = [&](std::complex<double> p) {
        poly.push_back(0.0);
        for (size_t k = poly.size() - 1; k >= 1; k--) poly[k] -= p * poly[k - 1];
    };
    int left = order;
    while (left > 0) {
        if (complex_poles && left >= 2) {
            // One draw at a time: a call's arguments are evaluated in no set order (GCC right to
            // left, Clang left to right), which made the filters depend on the compiler.
            const double theta = angle(rng), rho = radius(rng);
            auto p = std::polar(rho, theta);
            multiply(p);
            multiply(std::conj(p));
            left -= 2;
        } else {
            multiply(sign(rng) < 0 ? -radius(rng) : radius(rng));
            left -= 1;
        }
    }
    RecursiveFilter f;
    for (int k = 1; k <= order; k++) f.feedback.push_back(poly[k].real());
    f.gain = unit_dc_gain(f.feedback);
    return f;
}

double relative_l2(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b) {
    double denominator = b.norm();
    double numerator = (a - b).norm();
    if (denominator == 0) return numerator;
    return numerator / denominator;
}

::testing::AssertionResult within_relative_l2(const Eigen::MatrixXd &a, const Eigen::MatrixXd &expected,
                                              double tolerance) {
    if (a.rows() != expected.rows() || a.cols() != expected.cols())
        return ::testing::AssertionFailure() << "shape " << a.rows() << "x" << a.cols() << ", expected "
                                             << expected.rows() << "x" << expected.cols();
    if (expected.norm() == 0) return ::testing::AssertionFailure() << "the reference is zero";
    const double error = relative_l2(a, expected);
    if (error <= tolerance) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "relative L2 error " << error << " > " << tolerance;
}

namespace {
std::string from_environment(const char *name, const char *fallback) {
    const char *value = std::getenv(name);
    return value && *value ? value : fallback;
}
}  // namespace

std::string source_dir() { return from_environment("CASCADE_SOURCE_DIR", CASCADE_SOURCE_DIR); }

std::string cli_path() { return from_environment("CASCADE_CLI", CASCADE_CLI); }

std::string temporary_folder() {
    namespace fs = std::filesystem;
    static std::vector<fs::path> made;
    static bool registered = false;
    if (!registered) {
        registered = true;
        std::atexit([] {
            for (auto &p : made) fs::remove_all(p);
        });
    }
    std::string pattern = (fs::temp_directory_path() / "cascade-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    made.push_back(pattern);
    return pattern;
}

int64_t folded(Boundary boundary, int64_t i, int64_t n) {
    switch (boundary) {
        case Boundary::none:
        case Boundary::zero:
            return i >= 0 && i < n ? i : -1;
        case Boundary::clamp:
            return i < 0 ? 0 : i >= n ? n - 1 : i;
        case Boundary::periodic:
            while (i < 0) i += n;
            while (i >= n) i -= n;
            return i;
        case Boundary::reflect:
            while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
            return i;
        case Boundary::mirror:
            if (n == 1) return 0;
            while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
            return i;
    }
    return -1;
}

}  // namespace cascade::testing
