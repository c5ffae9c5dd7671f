// cascade::cuda::wrap: buffers over the caller's device memory (cascade/cuda.h).
#include <HalideRuntimeCuda.h>

#include "cascade/cuda.h"
#include "cascade/error.h"

namespace cascade::cuda {

Halide::Runtime::Buffer<> wrap(halide_type_t type, void *data, int width, int height, int channels,
                               int64_t row_stride, int64_t channel_stride) {
    if (!data) throw Error("cascade::cuda::wrap: the device pointer is null");
    if (width < 1 || height < 1 || channels < 1)
        throw Error("cascade::cuda::wrap: the image is empty (" + std::to_string(width) + "x" +
                    std::to_string(height) + "x" + std::to_string(channels) + ")");
    if (row_stride == 0) row_stride = width;
    if (channel_stride == 0) channel_stride = row_stride * height;
    if (row_stride < width) throw Error("cascade::cuda::wrap: the row stride is shorter than a row");
    halide_dimension_t shape[3] = {
        {0, width, 1, 0}, {0, height, int32_t(row_stride), 0}, {0, channels, int32_t(channel_stride), 0}};
    Halide::Runtime::Buffer<> buffer(type, nullptr, 3, shape);
#ifdef CASCADE_HAVE_CUDA_VARIANTS
    if (buffer.device_wrap_native(halide_cuda_device_interface(), uint64_t(uintptr_t(data))) != 0)
        throw Error("cascade::cuda::wrap: Halide's CUDA runtime refused the device pointer");
    buffer.set_device_dirty(true);  // the data are on the device only
    return buffer;
#else
    throw Error("cascade::cuda::wrap: this build has no CUDA pipelines (configured with CASCADE_CUDA=OFF)");
#endif
}

}  // namespace cascade::cuda
