#pragma once
// CUDA baselines of `cascade bench`, built with nvcc (cmake/CascadeCudaBaselines.cmake): a
// summed-area table written the way a CUB user would, a device-to-device copy, and event timing.
// Everything runs on the CUDA runtime's device 0 and its legacy default stream, the stream that
// runtime/cuda_context.cpp hands Halide, so these calls are ordered and timed with Halide's
// kernels. Plain C++ API: no CUDA header is needed to call it. Failures throw std::runtime_error.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cascade::baselines {

// Makes device 0's primary context current on this thread (the one the runtime API uses).
void cuda_init();

// Device memory of the CUDA runtime (cudaMalloc), freed on destruction.
class DeviceArray {
public:
    explicit DeviceArray(size_t bytes);
    ~DeviceArray();
    DeviceArray(const DeviceArray &) = delete;
    DeviceArray &operator=(const DeviceArray &) = delete;

    void *data() const { return data_; }
    size_t bytes() const { return bytes_; }
    void upload(const void *host);    // synchronous
    void download(void *host) const;  // synchronous

private:
    void *data_ = nullptr;
    size_t bytes_ = 0;
};

// Enqueues a device-to-device copy of `bytes` on the default stream.
void device_copy(void *dst, const void *src, size_t bytes);

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

// Calls `op` `warmup` times, waits, then `repetitions` times back to back with a CUDA event
// recorded on the default stream before and after each call. Returns each call's milliseconds.
std::vector<double> time_on_default_stream(const std::function<void()> &op, int warmup, int repetitions);

}  // namespace cascade::baselines
