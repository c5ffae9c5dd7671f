#pragma once
// CUDA memory and streams the caller owns. A CUDA plan's run() takes buffers whose data are on the
// device already and leaves its result there: no host copy is made.
//
//   float *in, *out;                        // cudaMalloc'ed, W×H float32, rows W apart
//   cascade::IirPlan plan(filter, W, H, {Boundary::none, DeviceChoice::cuda});
//   auto src = cascade::cuda::wrap(in, W, H), dst = cascade::cuda::wrap(out, W, H);
//   {
//       cascade::cuda::Scope on(stream);    // this thread's Cascade calls run on `stream`
//       plan.run(src.raw_buffer(), dst.raw_buffer());
//   }                                       // asynchronous: synchronise `stream` before reading
#include <HalideBuffer.h>

#include <cstdint>

#include "cascade/image.h"

namespace cascade::cuda {

// While a Scope lives, the CUDA pipelines this thread calls run in `context` (a CUcontext; null:
// device 0's primary context, the one the CUDA runtime API and cudaMalloc use) and are queued on
// `stream` (a CUstream or cudaStream_t; null: the legacy default stream), without synchronising.
// Scopes nest; outside any, pipelines use the primary context and the legacy default stream.
class Scope {
public:
    explicit Scope(void *stream, void *context = nullptr);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

private:
    void *previous_stream_, *previous_context_;
    bool previous_set_;
};

// The primary context of CUDA device `device` (a CUcontext), retained for the life of the process:
// the context the CUDA runtime API (cudaSetDevice(device), CuPy's Device) works in there. A Scope
// of it runs pipelines on that device. Throws cascade::Error where there is no such device.
void *primary_context(int device);

// A W×H×C buffer over device memory the caller keeps (no host allocation; the memory is neither
// copied nor freed): sample (x, y, c) at data + x + y·row_stride + c·channel_stride elements.
// row_stride defaults to `width`, channel_stride to row_stride·height (planar channels).
// Throws cascade::Error where this build has no CUDA runtime.
Halide::Runtime::Buffer<> wrap(halide_type_t type, void *data, int width, int height, int channels = 1,
                               int64_t row_stride = 0, int64_t channel_stride = 0);

template <typename T>
Halide::Runtime::Buffer<T> wrap(T *data, int width, int height, int channels = 1, int64_t row_stride = 0,
                                int64_t channel_stride = 0) {
    return Halide::Runtime::Buffer<T>(
        wrap(halide_type_of<T>(), data, width, height, channels, row_stride, channel_stride));
}

}  // namespace cascade::cuda
