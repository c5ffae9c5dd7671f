// A stand-in for the CUDA driver library, built as libcuda.so.1 in a folder of its own, for
// test_bad_input's CudaDriverWithoutADevice: put first on LD_LIBRARY_PATH, it answers
// cascade::cuda_info()'s probe (runtime/cuda/device.cpp) as the environment variable FAKE_CUDA says:
// "init-fails", cuInit fails as on a machine whose driver cannot start (CUDA_ERROR_NO_DEVICE);
// otherwise the driver starts and sees no device.
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kNoDevice = 100;       // CUDA_ERROR_NO_DEVICE
constexpr int kInvalidDevice = 101;  // CUDA_ERROR_INVALID_DEVICE

bool init_fails() {
    const char *mode = std::getenv("FAKE_CUDA");
    return mode && std::strcmp(mode, "init-fails") == 0;
}

}  // namespace

extern "C" {

int cuInit(unsigned) { return init_fails() ? kNoDevice : 0; }

int cuDeviceGetCount(int *count) {
    *count = 0;
    return 0;
}

int cuDeviceGet(int *, int) { return kInvalidDevice; }

int cuDeviceGetName(char *, int, int) { return kInvalidDevice; }
}
