// The Func API's blocked path compiled AOT for CUDA (funcs_cuda_generator.cpp), against the double
// references: every boundary, awkward sizes short and long (the tables' lines, and the short lines'
// serial path), outputs poisoned on the device first.
#include <HalideBuffer.h>
#include <HalideRuntimeCuda.h>
#include <gtest/gtest.h>

#include <cmath>

#include "funcs_cuda_filters.h"
#include "funcs_cuda_pipelines.h"
#include "runtime/design/reference.h"
#include "tests/cuda_support.h"
#include "tests/test_support.h"

namespace cascade {
namespace {

using Halide::Runtime::Buffer;

class FuncsCuda : public ::testing::TestWithParam<testing::FuncsCudaPipeline> {};

TEST_P(FuncsCuda, MatchesTheExtendedDefinition) {
    std::string why;
    if (testing::cuda_unavailable(why)) GTEST_SKIP() << why;
    const testing::FuncsCudaPipeline &p = GetParam();
    const Filter2D filter = testing::funcs_cuda_filter(p.call);
    auto rng = testing::rng_for_test();
    // One sample, primes, very wide and very tall, short of the tables' lines or past them, whole tiles.
    for (auto [w, h] : std::vector<std::pair<int, int>>{
             {1, 1}, {7, 5}, {67, 33}, {130, 7}, {3, 97}, {2000, 9}, {523, 389}, {1031, 397}, {1024, 512}}) {
        // Samples in [0, 1], as images hold them: zero-mean noise under σ 4 on 7 × 5 leaves outputs
        // near 0, against which float32's rounding of the unit-sized sums alone reaches 1e−5.
        Image image = testing::random_image(rng, w, h, 2);
        for (float &v : image.data) v = 0.5f * (v + 1.0f);
        Buffer<float> in(w, h, 2), out(w, h, 2);
        for (int c = 0; c < 2; c++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) in(x, y, c) = image.at(x, y, c);
        in.set_host_dirty();
        out.fill(NAN);
        out.set_host_dirty();
        ASSERT_EQ(out.copy_to_device(halide_cuda_device_interface()), 0);
        ASSERT_EQ(p.run(in.raw_buffer(), out.raw_buffer()), 0) << p.call << " " << boundary_name(p.boundary);
        ASSERT_EQ(out.copy_to_host(), 0);
        for (int c = 0; c < 2; c++) {
            reference::Matrix got(h, w);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) got(y, x) = out(x, y, c);
            EXPECT_TRUE(testing::within_relative_l2(
                got, reference::filter_2d(filter, reference::plane(image, c), p.boundary), 1e-5))
                << p.call << " " << boundary_name(p.boundary) << " on " << w << "x" << h << ", channel " << c;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Pipelines, FuncsCuda, ::testing::ValuesIn(testing::kFuncsCudaPipelines),
                         [](const ::testing::TestParamInfo<testing::FuncsCudaPipeline> &info) {
                             return info.param.call + std::string("_") + boundary_name(info.param.boundary);
                         });

}  // namespace
}  // namespace cascade
