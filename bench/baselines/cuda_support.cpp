#include "cuda_support.h"

#include <algorithm>

#include "cuda_check.h"

namespace cascade::baselines {

void cuda_init() {
    check(cudaSetDevice(0), "cudaSetDevice(0)");
    check(cudaFree(nullptr), "creating the CUDA context");
}

DeviceArray::DeviceArray(size_t bytes) : bytes_(bytes) {
    check(cudaMalloc(&data_, std::max<size_t>(bytes, 1)), "cudaMalloc");
}

DeviceArray::~DeviceArray() { cudaFree(data_); }

void DeviceArray::upload(const void *host) {
    check(cudaMemcpy(data_, host, bytes_, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void DeviceArray::download(void *host) const {
    check(cudaMemcpy(host, data_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
}

void device_copy(void *dst, const void *src, size_t bytes) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpyAsync");
}

namespace {

struct Events {
    std::vector<cudaEvent_t> events;
    explicit Events(size_t n) : events(n, nullptr) {
        for (cudaEvent_t &e : events) check(cudaEventCreate(&e), "cudaEventCreate");
    }
    ~Events() {
        for (cudaEvent_t e : events)
            if (e) cudaEventDestroy(e);
    }
};

}  // namespace

std::vector<double> time_on_default_stream(const std::function<void()> &op, int warmup, int repetitions) {
    for (int i = 0; i < warmup; i++) op();
    check(cudaDeviceSynchronize(), "the warm-up calls");
    Events marks(2 * size_t(repetitions));
    for (int i = 0; i < repetitions; i++) {
        check(cudaEventRecord(marks.events[2 * i], 0), "cudaEventRecord");
        op();
        check(cudaEventRecord(marks.events[2 * i + 1], 0), "cudaEventRecord");
    }
    check(cudaDeviceSynchronize(), "the timed calls");
    std::vector<double> ms(repetitions);
    for (int i = 0; i < repetitions; i++) {
        float t = 0;
        check(cudaEventElapsedTime(&t, marks.events[2 * i], marks.events[2 * i + 1]), "cudaEventElapsedTime");
        ms[i] = t;
    }
    return ms;
}

}  // namespace cascade::baselines
