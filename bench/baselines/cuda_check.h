#pragma once
// The baselines' one way to fail: a CUDA runtime call that did not succeed throws, naming the call.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cascade::baselines {

inline void check(cudaError_t status, const char *what) {
    if (status != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status) + " (" +
                                 cudaGetErrorString(status) + ")");
}

}  // namespace cascade::baselines
