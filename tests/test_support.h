#pragma once
// Shared helpers of the test suite: seeded random data, awkward sizes, error norms.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <string>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/filter.h"
#include "cascade/image.h"

namespace cascade::testing {

// A generator seeded from the test's name, so each test is repeatable on its own.
std::mt19937_64 rng_for_test();

// Uniform random values in [-1, 1].
Eigen::MatrixXd random_matrix(std::mt19937_64 &rng, int rows, int cols);
Image random_image(std::mt19937_64 &rng, int width, int height, int channels);

// A random stable filter of order r: poles drawn inside the disc of radius max_pole, complex
// ones in conjugate pairs when `complex_poles`, gain for unit DC response.
RecursiveFilter random_stable_filter(std::mt19937_64 &rng, int order, double max_pole, bool complex_poles);

// ||a − b||₂ / ||b||₂ (b the reference); 0 when both are zero.
double relative_l2(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b);

// The source tree (for data/), and the `cascade` binary: the environment variables
// CASCADE_SOURCE_DIR and CASCADE_CLI override the paths of the build, so the test binaries can
// run on another machine (docs/gpu.md).
std::string source_dir();
std::string cli_path();

// Success when `a` has the shape of `expected` (non-zero) and lies within `tolerance` of it in
// relative L2; otherwise a failure saying by how much.
::testing::AssertionResult within_relative_l2(const Eigen::MatrixXd &a, const Eigen::MatrixXd &expected,
                                              double tolerance);

// The sample of a line of n that position i of its extension by `boundary` holds, −1 for a zero:
// the extension folded one reflection at a time, independently of the library's index code.
int64_t folded(Boundary boundary, int64_t i, int64_t n);

// A fresh, empty folder under the system's temporary folder, removed at exit.
std::string temporary_folder();

}  // namespace cascade::testing
