#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cascade {

// Sample types the image files can hold.
// Sample types the image files can hold. u32 and u64 appear as summed-area tables of integer
// images (NPY and TIFF hold them).
enum class SampleType { u8, u16, u32, u64, f32, f64 };

size_t sample_size(SampleType type);
const char *sample_name(SampleType type);  // "uint8", "uint16", "uint32", "uint64", "float32", "float64"

// An image as stored in a file: H×W×C samples, row-major, channels interleaved, in native
// byte order. Integer samples keep their raw values (SAT needs them exact).
struct RawImage {
    size_t height = 0, width = 0, channels = 0;
    SampleType type = SampleType::f32;
    std::vector<uint8_t> bytes;  // height * width * channels * sample_size(type)

    size_t samples() const { return height * width * channels; }
};

// Sample n (in file order) of `raw` as stored, without any [0, 1] scaling.
double raw_sample(const RawImage &raw, size_t n);

// The working form of the filters: float32 planes, data[(c * height + y) * width + x].
// Integer samples map to [0, 1] (divided by 255 or 65535); float samples are kept as they are.
struct Image {
    int width = 0, height = 0, channels = 0;
    std::vector<float> data;

    Image() = default;
    Image(int width, int height, int channels);
    float &at(int x, int y, int c) { return data[(size_t(c) * height + y) * width + x]; }
    float at(int x, int y, int c) const { return data[(size_t(c) * height + y) * width + x]; }
};

Image to_planar_float(const RawImage &raw);
// Converts back to interleaved samples of `type`. Integer types clamp to [0, 1] and round to the
// nearest level; NaN becomes 0.
RawImage from_planar_float(const Image &image, SampleType type);

}  // namespace cascade
