#include "cascade/planes.h"

#include "cascade/error.h"
#include "pipeline_call.h"

namespace cascade {

halide_type_t halide_type(SampleType t) {
    switch (t) {
        case SampleType::u8:
            return halide_type_of<uint8_t>();
        case SampleType::u16:
            return halide_type_of<uint16_t>();
        case SampleType::u32:
            return halide_type_of<uint32_t>();
        case SampleType::u64:
            return halide_type_of<uint64_t>();
        case SampleType::f64:
            return halide_type_of<double>();
        default:
            return halide_type_of<float>();
    }
}

SampleType sample_type_of(const halide_buffer_t *buffer) {
    for (SampleType t : {SampleType::f32, SampleType::f64, SampleType::u8, SampleType::u16})
        if (buffer->type == halide_type(t)) return t;
    throw Error("the filters read float32, float64, uint8 or uint16 samples");
}

Halide::Runtime::Buffer<float> planes_of(const Image &image) {
    require_addressable("image", image.width, image.height, image.channels, sizeof(float));
    return Halide::Runtime::Buffer<float>(const_cast<float *>(image.data.data()), image.width, image.height,
                                          image.channels);
}

Halide::Runtime::Buffer<> stack_planes(const std::vector<const RawImage *> &images) {
    if (images.empty()) throw Error("no image to filter");
    const RawImage &first = *images.front();
    int channels = 0;
    for (const RawImage *image : images) {
        if (image->width != first.width || image->height != first.height || image->type != first.type)
            throw Error("stacked images differ in size or sample type");
        channels += int(image->channels);
    }
    const halide_type_t type = halide_type(first.type);
    const int w = int(first.width), h = int(first.height);
    Halide::Runtime::Buffer<> planes(type, w, h, channels);
    int c = 0;
    for (const RawImage *image : images) {
        const int ch = int(image->channels);
        Halide::Runtime::Buffer<> part = planes.cropped(2, c, ch);
        part.translate(2, -c);
        part.copy_from(view(type, const_cast<uint8_t *>(image->bytes.data()), w, h, ch, ch, w * ch, 1));
        c += ch;
    }
    return planes;
}

RawImage unstack_planes(const Halide::Runtime::Buffer<> &planes, int first, int channels) {
    RawImage raw;
    raw.width = size_t(planes.dim(0).extent());
    raw.height = size_t(planes.dim(1).extent());
    raw.channels = size_t(channels);
    const halide_type_t type = planes.type();
    raw.type = type.code == halide_type_float ? (type.bits == 64 ? SampleType::f64 : SampleType::f32)
                                              : (type.bits == 8    ? SampleType::u8
                                                 : type.bits == 16 ? SampleType::u16
                                                 : type.bits == 32 ? SampleType::u32
                                                                   : SampleType::u64);
    raw.bytes.resize(raw.samples() * sample_size(raw.type));
    const int w = int(raw.width), h = int(raw.height);
    Halide::Runtime::Buffer<> part = planes.cropped(2, first, channels);
    part.translate(2, -first);
    view(type, raw.bytes.data(), w, h, channels, channels, w * channels, 1).copy_from(part);
    return raw;
}

}  // namespace cascade
