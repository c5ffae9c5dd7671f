#include "cascade/image.h"

#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

#include "cascade/error.h"

namespace cascade {

size_t sample_size(SampleType type) {
    switch (type) {
        case SampleType::u8:
            return 1;
        case SampleType::u16:
            return 2;
        case SampleType::u32:
            return 4;
        case SampleType::u64:
            return 8;
        case SampleType::f32:
            return 4;
        case SampleType::f64:
            return 8;
    }
    return 0;
}

const char *sample_name(SampleType type) {
    switch (type) {
        case SampleType::u8:
            return "uint8";
        case SampleType::u16:
            return "uint16";
        case SampleType::u32:
            return "uint32";
        case SampleType::u64:
            return "uint64";
        case SampleType::f32:
            return "float32";
        case SampleType::f64:
            return "float64";
    }
    return "unknown";
}

namespace {

template <typename T>
double load(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return double(v);
}

}  // namespace

double raw_sample(const RawImage &raw, size_t n) {
    const uint8_t *p = &raw.bytes[n * sample_size(raw.type)];
    switch (raw.type) {
        case SampleType::u8:
            return *p;
        case SampleType::u16:
            return load<uint16_t>(p);
        case SampleType::u32:
            return load<uint32_t>(p);
        case SampleType::u64:
            return load<uint64_t>(p);
        case SampleType::f32:
            return load<float>(p);
        case SampleType::f64:
            return load<double>(p);
    }
    return 0;
}

Image::Image(int width, int height, int channels) : width(width), height(height), channels(channels) {
    if (width < 0 || height < 0 || channels < 0)
        throw Error("image dimensions must not be negative (got " + std::to_string(width) + "×" +
                    std::to_string(height) + "×" + std::to_string(channels) + ")");
    data.resize(size_t(width) * height * channels);
}

namespace {

// Integer samples become fractions of their largest value; float samples pass through.
template <typename T>
void to_planes(const RawImage &raw, Image &image) {
    const float divisor = std::numeric_limits<T>::is_integer ? float(std::numeric_limits<T>::max()) : 1.0f;
    const size_t h = raw.height, w = raw.width, c = raw.channels;
    const uint8_t *src = raw.bytes.data();
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            for (size_t ch = 0; ch < c; ch++, src += sizeof(T)) {
                T value;
                std::memcpy(&value, src, sizeof(T));
                image.data[(ch * h + y) * w + x] = float(value) / divisor;
            }
}

template <typename T>
T quantize(float v) {
    if constexpr (std::numeric_limits<T>::is_integer) {
        // As a double, uint64's largest value rounds up to 2^64, past the type: not converted back.
        constexpr double top = double(std::numeric_limits<T>::max());
        if (!(v > 0.0f)) return 0;  // also NaN
        if (v >= 1.0f) return std::numeric_limits<T>::max();
        return T(std::floor(double(v) * top + 0.5));  // lround would overflow long for 64 bits
    } else {
        return T(v);
    }
}

template <typename T>
void from_planes(const Image &image, RawImage &raw) {
    const size_t h = raw.height, w = raw.width, c = raw.channels;
    uint8_t *dst = raw.bytes.data();
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            for (size_t ch = 0; ch < c; ch++, dst += sizeof(T)) {
                T value = quantize<T>(image.data[(ch * h + y) * w + x]);
                std::memcpy(dst, &value, sizeof(T));
            }
}

}  // namespace

Image to_planar_float(const RawImage &raw) {
    if (raw.height > INT_MAX || raw.width > INT_MAX || raw.channels > INT_MAX)
        throw Error("image of " + std::to_string(raw.height) + "×" + std::to_string(raw.width) + "×" +
                    std::to_string(raw.channels) + " samples is too large to filter");
    if (raw.bytes.size() != raw.samples() * sample_size(raw.type))
        throw Error("image holds " + std::to_string(raw.bytes.size()) + " bytes, expected " +
                    std::to_string(raw.samples() * sample_size(raw.type)));
    Image image(int(raw.width), int(raw.height), int(raw.channels));
    switch (raw.type) {
        case SampleType::u8:
            to_planes<uint8_t>(raw, image);
            break;
        case SampleType::u16:
            to_planes<uint16_t>(raw, image);
            break;
        case SampleType::u32:
            to_planes<uint32_t>(raw, image);
            break;
        case SampleType::u64:
            to_planes<uint64_t>(raw, image);
            break;
        case SampleType::f32:
            to_planes<float>(raw, image);
            break;
        case SampleType::f64:
            to_planes<double>(raw, image);
            break;
    }
    return image;
}

RawImage from_planar_float(const Image &image, SampleType type) {
    if (image.width < 0 || image.height < 0 || image.channels < 0 ||
        image.data.size() != size_t(image.width) * image.height * image.channels)
        throw Error("image holds " + std::to_string(image.data.size()) + " samples, expected " +
                    std::to_string(image.width) + "×" + std::to_string(image.height) + "×" +
                    std::to_string(image.channels));
    RawImage raw;
    raw.height = size_t(image.height);
    raw.width = size_t(image.width);
    raw.channels = size_t(image.channels);
    raw.type = type;
    raw.bytes.resize(raw.samples() * sample_size(type));
    switch (type) {
        case SampleType::u8:
            from_planes<uint8_t>(image, raw);
            break;
        case SampleType::u16:
            from_planes<uint16_t>(image, raw);
            break;
        case SampleType::u32:
            from_planes<uint32_t>(image, raw);
            break;
        case SampleType::u64:
            from_planes<uint64_t>(image, raw);
            break;
        case SampleType::f32:
            from_planes<float>(image, raw);
            break;
        case SampleType::f64:
            from_planes<double>(image, raw);
            break;
    }
    return raw;
}

}  // namespace cascade
