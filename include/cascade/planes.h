#pragma once
// Samples in the pipelines' planar layout (x fastest, then y, then channel) and their own type:
// how integer images reach the variants that convert them inside their first and last pass
// (algebra/samples.h), and how the summed-area tables take integers exactly.
#include <HalideBuffer.h>

#include <vector>

#include "cascade/image.h"

namespace cascade {

halide_type_t halide_type(SampleType type);
// The type of a filter buffer's samples: float32, float64, uint8 or uint16; throws cascade::Error
// otherwise.
SampleType sample_type_of(const halide_buffer_t *buffer);

// A W×H×C view of `data`, x samples `x_stride` apart, rows `row_stride`, channels
// `channel_stride`: an interleaved file image is (C, W·C, 1).
template <typename T = void>
Halide::Runtime::Buffer<T> view(halide_type_t type, void *data, int width, int height, int channels,
                                int x_stride, int row_stride, int channel_stride) {
    halide_dimension_t shape[3] = {
        {0, width, x_stride, 0}, {0, height, row_stride, 0}, {0, channels, channel_stride, 0}};
    return Halide::Runtime::Buffer<T>(type, data, 3, shape);
}

// `image`'s planes as a W×H×C buffer over its own data, no copy (it must outlive the buffer).
// Throws cascade::Error when the image is beyond what a pipeline can address.
Halide::Runtime::Buffer<float> planes_of(const Image &image);

// `images`, which share width, height and sample type, as the planes of one W×H×ΣC buffer in
// their order, samples unconverted. Throws cascade::Error when they differ.
Halide::Runtime::Buffer<> stack_planes(const std::vector<const RawImage *> &images);

// Planes [first, first + channels) of `planes` as an interleaved image of their type.
RawImage unstack_planes(const Halide::Runtime::Buffer<> &planes, int first, int channels);

}  // namespace cascade
