// camera_pipe IN OUT.png [--device cpu|cuda] [--runs N] [--mosaic MOSAIC.png] [--compression C] [--sharpen S]
//                        [--blur recursive|fir]
//
// The camera-pipeline demo's driver (apps/camera_pipe/README.md). It turns an 8-bit sRGB photo
// into what a sensor behind an RGGB Bayer filter would have recorded (linear light, the red and
// blue channels seen through the sensor's own colour response, 12 bits, a little read noise),
// then runs the camera_pipe generator's pipeline on it (the CPU's, or CUDA's) to get a photo
// back: demosaic, white balance, local tone mapping on a Cascade Gaussian base layer, gamma,
// unsharp mask. Prints the pipeline's median time; with --device cuda it also runs the CPU
// pipeline and prints how far the two outputs are apart.
#include <HalideBuffer.h>
#include <HalideRuntime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "camera_pipe_cpu.h"
#include "camera_pipe_fir_cpu.h"
#include "cascade/device.h"
#include "cascade/error.h"
#include "cascade/image.h"
#include "io/image_io.h"
#ifdef CAMERA_PIPE_HAVE_CUDA
#include "camera_pipe_cuda.h"
#include "camera_pipe_fir_cuda.h"
#endif

namespace {

using cascade::Error;
using Halide::Runtime::Buffer;

// What the simulated sensor sees of each channel relative to green (its colour response under
// the scene's light); the pipeline's white balance multiplies them back.
constexpr float kSensorRed = 0.5f, kSensorBlue = 0.65f;
constexpr float kWhite = 4095.0f;   // 12-bit sensor levels
constexpr float kReadNoise = 1.0f;  // standard deviation, in sensor levels
constexpr int kMinimumSide = 32;    // the pipeline's tiles and demosaicking kernels need room
[[maybe_unused]] constexpr int kMaximumDifference = 2;  // CUDA against the CPU, in 8-bit levels

const char *const kUsage =
    "usage: camera_pipe IN OUT.png [--device cpu|cuda] [--runs N] [--mosaic MOSAIC.png] [--compression C] "
    "[--sharpen S] [--blur recursive|fir]";

struct Options {
    std::string input, output, mosaic;
    std::string device = "cpu";
    int runs = 10;
    float compression = 0.7f;
    float sharpen = 1.0f;
    bool fir = false;  // the Gaussians as 3σ FIRs, the comparison (camera_pipe_generator.cpp)
};

double parse_number(const std::string &option, const std::string &text, double low, double high) {
    char *end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(value) || value < low || value > high) {
        char range[96];
        std::snprintf(range, sizeof(range), "a number from %g to %g", low, high);
        throw Error(option + " takes " + range + ", not '" + text + "'");
    }
    return value;
}

Options parse(int argc, char **argv) {
    Options o;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::printf("%s\n", kUsage);
            std::exit(0);
        }
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            positional.push_back(arg);
            continue;
        }
        if (i + 1 >= argc) throw Error(arg + " needs a value");
        const std::string value = argv[++i];
        if (arg == "--device") {
            if (value != "cpu" && value != "cuda")
                throw Error("--device takes cpu or cuda, not '" + value + "'");
            o.device = value;
        } else if (arg == "--runs") {
            const double runs = parse_number(arg, value, 1, 10000);
            if (runs != std::floor(runs)) throw Error("--runs takes a whole number, not '" + value + "'");
            o.runs = int(runs);
        } else if (arg == "--mosaic") {
            o.mosaic = value;
        } else if (arg == "--compression") {
            o.compression = float(parse_number(arg, value, 0, 2));
        } else if (arg == "--sharpen") {
            o.sharpen = float(parse_number(arg, value, 0, 10));
        } else if (arg == "--blur") {
            if (value != "recursive" && value != "fir")
                throw Error("--blur takes recursive or fir, not '" + value + "'");
            o.fir = value == "fir";
        } else {
            throw Error("unknown option " + arg + " (" + kUsage + ")");
        }
    }
    if (positional.size() != 2) throw Error(std::string("expected IN and OUT (") + kUsage + ")");
    o.input = positional[0];
    o.output = positional[1];
    for (const std::string *path : {&o.output, &o.mosaic})
        if (!path->empty() && !cascade::is_supported_image_path(*path))
            throw Error("cannot write '" + *path + "': unknown extension (use .png)");
    return o;
}

float srgb_to_linear(float v) {
    v = std::min(std::max(v, 0.0f), 1.0f);
    return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
}

// A deterministic standard normal sample for sensor site (x, y): Box–Muller over a hash.
float read_noise(int x, int y) {
    auto mix = [](uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    const uint64_t h = mix((uint64_t(uint32_t(y)) << 32 | uint32_t(x)) + 0x9e3779b97f4a7c15ull);
    const double u1 = (double(h >> 40) + 0.5) / double(1ull << 24);
    const double u2 = double((h >> 16) & 0xffffff) / double(1ull << 24);
    return float(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
}

// The RGGB mosaic a 12-bit linear sensor would have recorded of the photo `rgb` (planar, sRGB
// in [0, 1]). The light is blurred a little first, [1 2 1]/4 across and down, as a sensor's
// optical low-pass filter does: a photo's one-pixel edges sampled as they are alias into colour
// zippers that no demosaicking removes (the pipeline's unsharp mask restores the crispness).
Buffer<uint16_t> make_mosaic(const cascade::Image &rgb) {
    const int w = rgb.width, h = rgb.height;
    cascade::Image linear(w, h, 3), across(w, h, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) linear.at(x, y, c) = srgb_to_linear(rgb.at(x, y, c));
    auto at = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };  // whole-sample mirror
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                across.at(x, y, c) = 0.25f * linear.at(at(x - 1, w), y, c) + 0.5f * linear.at(x, y, c) +
                                     0.25f * linear.at(at(x + 1, w), y, c);
    Buffer<uint16_t> raw(w, h);
    const float response[3] = {kSensorRed, 1.0f, kSensorBlue};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const int c = (x % 2 == 0 && y % 2 == 0) ? 0 : (x % 2 == 1 && y % 2 == 1) ? 2 : 1;
            const float light = 0.25f * across.at(x, at(y - 1, h), c) + 0.5f * across.at(x, y, c) +
                                0.25f * across.at(x, at(y + 1, h), c);
            const float level = light * response[c] * kWhite + kReadNoise * read_noise(x, y);
            raw(x, y) = uint16_t(std::lround(std::min(std::max(level, 0.0f), kWhite)));
        }
    return raw;
}

// The photo as three planes of sRGB samples in [0, 1], whatever its channels.
cascade::Image read_rgb(const std::string &path) {
    const cascade::RawImage file = cascade::read_image(path);
    const cascade::Image planes = cascade::to_planar_float(file);
    if (planes.width < kMinimumSide || planes.height < kMinimumSide)
        throw Error("'" + path + "' is " + std::to_string(planes.width) + "x" +
                    std::to_string(planes.height) + "; the demo needs at least " +
                    std::to_string(kMinimumSide) + "x" + std::to_string(kMinimumSide));
    cascade::Image rgb(planes.width, planes.height, 3);
    for (int c = 0; c < 3; c++) {
        // gray (+ alpha): one plane for all three; RGB (+ alpha): its own; alpha is ignored
        const int from = planes.channels < 3 ? 0 : c;
        for (int y = 0; y < rgb.height; y++)
            for (int x = 0; x < rgb.width; x++)
                rgb.at(x, y, c) = std::min(std::max(planes.at(x, y, from), 0.0f), 1.0f);
    }
    return rgb;
}

// An 8-bit interleaved image of this shape, its samples to be written.
cascade::RawImage u8_image(int width, int height, int channels) {
    cascade::RawImage image;
    image.width = size_t(width);
    image.height = size_t(height);
    image.channels = size_t(channels);
    image.type = cascade::SampleType::u8;
    image.bytes.resize(image.samples());
    return image;
}

// The mosaic as a raw converter's preview shows it: 8-bit gray, gamma 2.2, no white balance.
cascade::RawImage mosaic_preview(const Buffer<uint16_t> &raw) {
    cascade::RawImage image = u8_image(raw.width(), raw.height(), 1);
    for (int y = 0; y < raw.height(); y++)
        for (int x = 0; x < raw.width(); x++)
            image.bytes[size_t(y) * image.width + x] =
                uint8_t(std::lround(255.0 * std::pow(raw(x, y) / double(kWhite), 1.0 / 2.2)));
    return image;
}

cascade::RawImage to_raw_image(const Buffer<uint8_t> &rgb) {
    cascade::RawImage image = u8_image(rgb.width(), rgb.height(), 3);
    for (int y = 0; y < rgb.height(); y++)
        for (int x = 0; x < rgb.width(); x++)
            for (int c = 0; c < 3; c++) image.bytes[(size_t(y) * image.width + x) * 3 + c] = rgb(x, y, c);
    return image;
}

// Halide's error messages, caught instead of printed, so that each failure is one line.
std::string halide_message;
void capture_halide_error(void *, const char *message) {
    halide_message = message;
    while (!halide_message.empty() && (halide_message.back() == '\n' || halide_message.back() == ' '))
        halide_message.pop_back();
}

using PipelineFn = int (*)(halide_buffer_t *, float, float, float, float, halide_buffer_t *);

struct Timing {
    double median_ms;
};

// Runs `pipeline` once to warm up (CUDA: module load and PTX compilation, the input's upload),
// then `runs` times, each waited for; returns the median.
Timing run(PipelineFn pipeline, const char *device, Buffer<uint16_t> &raw, const Options &o,
           Buffer<uint8_t> &out) {
    const float red_gain = 1.0f / kSensorRed, blue_gain = 1.0f / kSensorBlue;
    auto once = [&] {
        halide_message.clear();
        if (int status = pipeline(raw, red_gain, blue_gain, o.compression, o.sharpen, out); status != 0)
            throw Error(std::string("the ") + device + " pipeline failed (Halide error " +
                        std::to_string(status) + (halide_message.empty() ? "" : ": " + halide_message) + ")");
        if (int status = out.device_sync(); status != 0)
            throw Error(std::string("the ") + device + " pipeline failed to finish (Halide error " +
                        std::to_string(status) + ")");
    };
    once();
    std::vector<double> ms;
    for (int i = 0; i < o.runs; i++) {
        const auto start = std::chrono::steady_clock::now();
        once();
        const auto end = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::sort(ms.begin(), ms.end());
    const size_t n = ms.size();
    return {n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2])};
}

void report(const char *device, const Buffer<uint8_t> &out, const Options &o, Timing t) {
    const double megapixels = double(out.width()) * out.height() / 1e6;
    std::printf("camera_pipe: %s%s, %dx%d, median of %d run%s: %.3f ms (%.1f MP/s)\n", device,
                o.fir ? " (FIR Gaussians)" : "", out.width(), out.height(), o.runs, o.runs == 1 ? "" : "s",
                t.median_ms, megapixels / (t.median_ms / 1e3));
}

int main_checked(int argc, char **argv) {
    const Options o = parse(argc, argv);
#ifndef CAMERA_PIPE_HAVE_CUDA
    if (o.device == "cuda")
        throw Error("--device cuda: this build has no CUDA pipeline (configured with CASCADE_CUDA=OFF)");
#endif
    if (o.device == "cuda" && cascade::cuda_info().devices == 0)
        throw Error("--device cuda: no CUDA device available: " + cascade::cuda_info().reason);
    halide_set_error_handler(capture_halide_error);

    const cascade::Image photo = read_rgb(o.input);
    Buffer<uint16_t> raw = make_mosaic(photo);
    // Interleaved, as the PNG stores it.
    Buffer<uint8_t> out = Buffer<uint8_t>::make_interleaved(photo.width, photo.height, 3);
    const PipelineFn cpu_pipeline = o.fir ? camera_pipe_fir_cpu : camera_pipe_cpu;

    if (o.device == "cpu") {
        report("cpu", out, o, run(cpu_pipeline, "cpu", raw, o, out));
    } else {
#ifdef CAMERA_PIPE_HAVE_CUDA
        const Timing t = run(o.fir ? camera_pipe_fir_cuda : camera_pipe_cuda, "cuda", raw, o, out);
        if (out.copy_to_host() != 0)
            throw Error("copying the CUDA pipeline's output to the host failed" +
                        (halide_message.empty() ? std::string() : ": " + halide_message));
        report("cuda", out, o, t);
        Buffer<uint8_t> reference = Buffer<uint8_t>::make_interleaved(photo.width, photo.height, 3);
        Options once = o;
        once.runs = 1;
        run(cpu_pipeline, "cpu", raw, once, reference);
        int largest = 0;
        out.for_each_element([&](int x, int y, int c) {
            largest = std::max(largest, std::abs(int(out(x, y, c)) - int(reference(x, y, c))));
        });
        std::printf("camera_pipe: cuda (%s) against cpu: largest difference %d of 255 levels\n",
                    cascade::cuda_info().name.c_str(), largest);
        if (largest > kMaximumDifference)
            throw Error("the CUDA and CPU outputs differ by " + std::to_string(largest) +
                        " levels (more than " + std::to_string(kMaximumDifference) + ")");
#endif
    }

    cascade::write_image(o.output, to_raw_image(out));
    std::printf("camera_pipe: wrote %s\n", o.output.c_str());
    if (!o.mosaic.empty()) {
        cascade::write_image(o.mosaic, mosaic_preview(raw));
        std::printf("camera_pipe: wrote %s (the RGGB mosaic, 12-bit linear, shown with gamma 2.2)\n",
                    o.mosaic.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return main_checked(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "camera_pipe: error: %s\n", e.what());
        return 1;
    }
}
