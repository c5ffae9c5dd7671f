#pragma once
// Halide's CUDA runtime and the CUDA runtime API (CUB, cudaMemcpyAsync, CUDA events) on one
// context and one stream, so their work is ordered and can be timed together.
#include <string>

namespace cascade {

// Empty when Halide's CUDA pipelines run on device 0's primary context and, outside a
// cascade::cuda::Scope, the legacy default stream: the ones the CUDA runtime API uses; otherwise
// why not (no driver, no device). Retains the primary context on first use.
std::string share_cuda_context_with_halide();

}  // namespace cascade
