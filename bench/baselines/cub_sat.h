#pragma once
// The CUB baseline of `cascade bench`, built with nvcc into the CUDA baselines library
// (cmake/CascadeCudaBaselines.cmake): a summed-area table written the way a CUB user would. Runs on
// device 0's primary context and the legacy default stream (cuda_support.h). Plain C++ API: no
// CUDA header is needed to call it. Failures throw std::runtime_error.
#include <cstddef>

namespace cascade::baselines {

// The inclusive SAT of a W×H float32 image (row-major, x fastest) in two passes: column prefix
// sums (a tiled kernel around cub::WarpScan), then row prefix sums (cub::DeviceScan::
// InclusiveSumByKey keyed by the row index). Scratch memory is allocated once, here.
class CubSat {
public:
    CubSat(int width, int height);
    ~CubSat();
    CubSat(const CubSat &) = delete;
    CubSat &operator=(const CubSat &) = delete;

    // Enqueues the table of `input` into `output` (device pointers, not aliased) on the default
    // stream.
    void run(const float *input, float *output);

private:
    int width_, height_;
    float *columns_ = nullptr;  // the column pass's result
    void *scan_temp_ = nullptr;
    size_t scan_temp_bytes_ = 0;
};

// Runs CubSat on a seeded random 67×45 image and compares with a double SAT computed on the host.
// Returns the maximum absolute error divided by the largest reference value.
double cub_sat_self_check();

}  // namespace cascade::baselines
