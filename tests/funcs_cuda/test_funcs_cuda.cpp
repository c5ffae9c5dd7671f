// The Func API's blocked path compiled AOT for CUDA (funcs_cuda_generator.cpp), against the double
// references: every boundary, awkward sizes short and long (below and past the embedded tables'
// long lines), outputs poisoned on the device first; the summed-area table and the box; and
// recursions of run-time coefficients with their tables made on the host.
#include <HalideBuffer.h>
#include <HalideRuntimeCuda.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "cascade/tile_tables.h"
#include "funcs_cuda_filters.h"
#include "funcs_cuda_pipelines.h"
#include "runtime/design/reference.h"
#include "tests/cuda_support.h"
#include "tests/test_support.h"

namespace cascade {
namespace {

using Halide::Runtime::Buffer;

class FuncsCuda : public ::testing::TestWithParam<testing::FuncsCudaPipeline> {};

// One sample, primes, very wide and very tall, short of the tables' lines or past them, whole tiles.
const std::vector<std::pair<int, int>> kSizes = {{1, 1},    {7, 5},     {67, 33},    {130, 7},   {3, 97},
                                                 {2000, 9}, {523, 389}, {1031, 397}, {1024, 512}};

// Random two-channel images in [0, 1], as images hold them: zero-mean noise under σ 4 on 7 × 5
// leaves outputs near 0, against which float32's rounding of the unit-sized sums alone reaches 1e−5.
Image unit_image(std::mt19937_64 &rng, int w, int h) {
    Image image = testing::random_image(rng, w, h, 2);
    for (float &v : image.data) v = 0.5f * (v + 1.0f);
    return image;
}

// `run` on `image` (its output poisoned on the device first), each channel against `expected`.
void expect_matches(const Image &image, const std::function<int(halide_buffer_t *, halide_buffer_t *)> &run,
                    const std::function<reference::Matrix(const reference::Matrix &)> &expected,
                    double tolerance, const std::string &what) {
    const int w = image.width, h = image.height;
    Buffer<float> in(w, h, 2), out(w, h, 2);
    for (int c = 0; c < 2; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) in(x, y, c) = image.at(x, y, c);
    in.set_host_dirty();
    out.fill(NAN);
    out.set_host_dirty();
    ASSERT_EQ(out.copy_to_device(halide_cuda_device_interface()), 0);
    ASSERT_EQ(run(in.raw_buffer(), out.raw_buffer()), 0) << what;
    ASSERT_EQ(out.copy_to_host(), 0);
    for (int c = 0; c < 2; c++) {
        reference::Matrix got(h, w);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) got(y, x) = out(x, y, c);
        EXPECT_TRUE(testing::within_relative_l2(got, expected(reference::plane(image, c)), tolerance))
            << what << " on " << w << "x" << h << ", channel " << c;
    }
}

// The box mean of radius r over the image extended by `boundary`.
reference::Matrix box_mean(const reference::Matrix &X, int r, Boundary boundary) {
    const reference::Matrix E = reference::extended(X, boundary, r);
    reference::Matrix mean(X.rows(), X.cols());
    for (Eigen::Index y = 0; y < X.rows(); y++)
        for (Eigen::Index x = 0; x < X.cols(); x++) mean(y, x) = E.block(y, x, 2 * r + 1, 2 * r + 1).mean();
    return mean;
}

TEST_P(FuncsCuda, MatchesTheExtendedDefinition) {
    std::string why;
    if (testing::cuda_unavailable(why)) GTEST_SKIP() << why;
    const testing::FuncsCudaPipeline &p = GetParam();
    const std::string call = p.call;
    std::function<reference::Matrix(const reference::Matrix &)> expected;
    if (call == "sat") {
        expected = reference::summed_area_table;
    } else if (call == "box") {
        expected = [&](const reference::Matrix &X) {
            return box_mean(X, testing::kFuncsCudaRadius, p.boundary);
        };
    } else {
        expected = [filter = testing::funcs_cuda_filter(call), boundary = p.boundary](
                       const reference::Matrix &X) { return reference::filter_2d(filter, X, boundary); };
    }
    // float32 tables of sums grow with the image: their rounding relative to the sums.
    const double tolerance = call == "sat" ? 1e-6 : 1e-5;
    auto rng = testing::rng_for_test();
    for (auto [w, h] : kSizes)
        expect_matches(unit_image(rng, w, h), p.run, expected, tolerance,
                       call + " " + boundary_name(p.boundary));
}

INSTANTIATE_TEST_SUITE_P(Pipelines, FuncsCuda, ::testing::ValuesIn(testing::kFuncsCudaPipelines),
                         [](const ::testing::TestParamInfo<testing::FuncsCudaPipeline> &info) {
                             return info.param.call + std::string("_") + boundary_name(info.param.boundary);
                         });

std::string &kept_error() {
    static std::string message;
    return message;
}

void keep_error(void *, const char *message) { kept_error() = message ? message : ""; }

class FuncsCudaTables : public ::testing::TestWithParam<testing::FuncsCudaTablesPipeline> {};

TEST_P(FuncsCudaTables, MatchesTheExtendedDefinition) {
    std::string why;
    if (testing::cuda_unavailable(why)) GTEST_SKIP() << why;
    const testing::FuncsCudaTablesPipeline &p = GetParam();
    const Filter2D filter = testing::funcs_cuda_filter(p.call);
    // The pipeline's coefficients: the columns' gain and feedbacks, then the rows'.
    Buffer<float> coefficients(filter.vertical.order() + filter.horizontal.order() + 2);
    int at = 0;
    for (const RecursiveFilter &f : {filter.vertical, filter.horizontal}) {
        coefficients(at++) = float(f.gain);
        for (double a : f.feedback) coefficients(at++) = float(a);
    }
    const std::string what = std::string("tables ") + p.call + " " + boundary_name(p.boundary);
    auto rng = testing::rng_for_test();
    for (auto [w, h] : kSizes) {
        Buffer<float> tables(funcs::tile_tables(filter.vertical, filter.horizontal, p.boundary, w, h));
        expect_matches(
            unit_image(rng, w, h),
            [&](halide_buffer_t *in, halide_buffer_t *out) {
                return p.run(in, coefficients.raw_buffer(), tables.raw_buffer(), out);
            },
            [&](const reference::Matrix &X) { return reference::filter_2d(filter, X, p.boundary); }, 1e-5,
            what);
    }
    // Tables made for another size are refused before anything runs, with Halide's error (kept
    // here: Halide's default handler aborts).
    Buffer<float> other(funcs::tile_tables(filter.vertical, filter.horizontal, p.boundary, 41, 30));
    Buffer<float> in(40, 30, 2), out(40, 30, 2);
    in.fill(0.5f);
    const halide_error_handler_t previous = halide_set_error_handler(keep_error);
    kept_error().clear();
    EXPECT_NE(p.run(in.raw_buffer(), coefficients.raw_buffer(), other.raw_buffer(), out.raw_buffer()), 0)
        << what;
    halide_set_error_handler(previous);
    EXPECT_NE(kept_error().find("tables"), std::string::npos) << kept_error();
}

INSTANTIATE_TEST_SUITE_P(Pipelines, FuncsCudaTables, ::testing::ValuesIn(testing::kFuncsCudaTablesPipelines),
                         [](const ::testing::TestParamInfo<testing::FuncsCudaTablesPipeline> &info) {
                             return info.param.call + std::string("_") + boundary_name(info.param.boundary);
                         });

}  // namespace
}  // namespace cascade
