#pragma once
// What `cascade bench` needs of the CUDA runtime API to time its CUDA cases: device buffers, a
// device-to-device copy (the floor) and event timing. The command line links it (with the runtime,
// statically); the CUDA baselines library links its own copy. Everything runs on the CUDA
// runtime's device 0 and its legacy default stream, the stream that runtime/cuda/cuda_context.cpp hands
// Halide, so these calls are ordered and timed with Halide's kernels and the baselines'. Plain C++
// API: no CUDA header is needed to call it. Failures throw std::runtime_error.
#include <cstddef>
#include <functional>
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

// Calls `op` `warmup` times, waits, then `repetitions` times back to back with a CUDA event
// recorded on the default stream before and after each call. Returns each call's milliseconds.
std::vector<double> time_on_default_stream(const std::function<void()> &op, int warmup, int repetitions);

}  // namespace cascade::baselines
