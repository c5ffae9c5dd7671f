#include "common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <sstream>

#include "bench/bench.h"
#include "cascade/error.h"
#include "cascade/iir.h"
#include "cascade/planes.h"
#include "io/image_io.h"
#include "pipeline_call.h"

namespace cascade::cli {

namespace {

SampleType output_type(const IoOptions &options) {
    const std::string &t = options.output_type;
    if (t == "auto") return default_output_type(options.output);
    if (t == "uint8") return SampleType::u8;
    if (t == "uint16") return SampleType::u16;
    if (t == "float32") return SampleType::f32;
    if (t == "float64") return SampleType::f64;
    throw Error("unknown output type '" + t + "'");
}

}  // namespace

void add_device_option(CLI::App &command, std::string &device) {
    command.add_option("--device", device, "Where to run: auto (CUDA when present), cpu or cuda")
        ->check(CLI::IsMember(device_choice_names()))
        ->capture_default_str();
}

void add_filter_options(CLI::App &command, FilterOptions &options) {
    command
        .add_option("--boundary", options.boundary,
                    "How the image continues past its edges: none (zero feedbacks), zero, clamp, periodic, "
                    "reflect (d c b a | a b c d) or mirror (d c b | a b c d); docs/boundaries.md")
        ->check(CLI::IsMember(boundary_names()))
        ->capture_default_str();
    command
        .add_option(
            "--algorithm", options.algorithm,
            "How the image is traversed: rt (sequential scans, the baseline), 4, 5 or 6 (block-parallel, "
            "overlapped: Nehab et al.; docs/algorithms.md), 2 (block-parallel, not overlapped: the "
            "comparison "
            "point, boundary none), strips (the CPU's row strips with overlapped column windows, boundary "
            "none); auto picks strips on the CPU where they apply, else 6")
        ->check(CLI::IsMember(algorithm_names()))
        ->capture_default_str();
}

namespace {

// One IoOptions per (input, output) pair of a batch command's FILES; without --out-dir, parsing
// (add_batch_io_options) has made sure they are IN OUT.
std::vector<IoOptions> jobs_of(const IoOptions &options) {
    std::vector<IoOptions> jobs;
    if (options.out_dir.empty()) {
        IoOptions job = options;
        job.input = options.files[0];
        job.output = options.files[1];
        jobs.push_back(job);
        return jobs;
    }
    for (const std::string &file : options.files) {
        IoOptions job = options;
        job.input = file;
        job.output =
            (std::filesystem::path(options.out_dir) / std::filesystem::path(file).filename()).string();
        for (const IoOptions &earlier : jobs)
            if (earlier.output == job.output) throw Error("two inputs would both write '" + job.output + "'");
        jobs.push_back(job);
    }
    return jobs;
}

}  // namespace

void filter_image(const IoOptions &options, const FilterOptions &how, const Filter2D &filter) {
    filter_image(
        options, how,
        [&filter](const Image &image, const IirOptions &iir) { return iir_2d(image, filter, iir); },
        [&filter](halide_buffer_t *in, halide_buffer_t *out, const IirOptions &iir) {
            return iir_2d(in, out, filter, iir);
        });
}

namespace {

// The batch's integer sample type when every input holds it and every output is written as it:
// then the pipeline can convert inside its passes. f32 otherwise.
SampleType shared_integer_type(const std::vector<IoOptions> &jobs, const std::vector<RawImage> &raws) {
    const SampleType type = raws.front().type;
    if (type != SampleType::u8 && type != SampleType::u16) return SampleType::f32;
    for (size_t n = 0; n < jobs.size(); n++)
        if (raws[n].type != type || output_type(jobs[n]) != type) return SampleType::f32;
    return type;
}

}  // namespace

void filter_image(const IoOptions &options, const FilterOptions &how, const ImageFilter &filter,
                  const SampleFilter &samples) {
    IirOptions iir{parse_boundary(how.boundary), parse_device_choice(options.device)};
    iir.algorithm = parse_algorithm(how.algorithm);
    const std::vector<IoOptions> jobs =
        options.files.empty() ? std::vector<IoOptions>{options} : jobs_of(options);
    for (const IoOptions &job : jobs) check_output_path(job);
    resolve_device(iir.device);
    std::vector<RawImage> raws;
    for (const IoOptions &job : jobs) {
        raws.push_back(read_image(job.input));
        require_finite_samples(raws.back(), job.input);
        const RawImage &first = raws.front(), &last = raws.back();
        if (last.width != first.width || last.height != first.height)
            throw Error("batch images differ in size: " + jobs.front().input + " is " +
                        std::to_string(first.width) + "x" + std::to_string(first.height) + ", " + job.input +
                        " is " + std::to_string(last.width) + "x" + std::to_string(last.height));
    }
    // Only once everything has succeeded: a failed batch leaves no folder behind either.
    auto make_out_dir = [&] {
        if (!options.out_dir.empty()) std::filesystem::create_directories(options.out_dir);
    };
    // The batch as channels of one image: one pipeline call for every image.
    if (samples && shared_integer_type(jobs, raws) != SampleType::f32) {
        std::vector<const RawImage *> parts;
        for (const RawImage &raw : raws) parts.push_back(&raw);
        require_addressable("image", double(raws[0].width), double(raws[0].height),
                            double(raws.size()) * double(raws[0].channels), int(sample_size(raws[0].type)));
        Halide::Runtime::Buffer<> in = stack_planes(parts);
        Halide::Runtime::Buffer<> out(in.type(), in.dim(0).extent(), in.dim(1).extent(), in.dim(2).extent());
        if (samples(in.raw_buffer(), out.raw_buffer(), iir)) {
            make_out_dir();
            int channel = 0;
            for (size_t n = 0; n < jobs.size(); n++) {
                write_image(jobs[n].output, unstack_planes(out, channel, int(raws[n].channels)));
                channel += int(raws[n].channels);
            }
            return;
        }
    }
    std::vector<Image> inputs;
    int channels = 0;
    for (const RawImage &raw : raws) {
        inputs.push_back(to_planar_float(raw));
        channels += inputs.back().channels;
    }
    raws.clear();
    Image batch(inputs[0].width, inputs[0].height, channels);
    size_t offset = 0;
    for (const Image &image : inputs) {
        std::copy(image.data.begin(), image.data.end(), batch.data.begin() + offset);
        offset += image.data.size();
    }
    Image filtered = filter(batch, iir);
    make_out_dir();
    offset = 0;
    for (size_t n = 0; n < jobs.size(); n++) {
        Image out(inputs[n].width, inputs[n].height, inputs[n].channels);
        std::copy(filtered.data.begin() + offset, filtered.data.begin() + offset + out.data.size(),
                  out.data.begin());
        offset += out.data.size();
        save_output(jobs[n], out);
    }
}

namespace {

void add_device_and_type_options(CLI::App &command, IoOptions &options) {
    add_device_option(command, options.device);
    command
        .add_option("--output-type", options.output_type,
                    "Sample type written: auto (uint8 for PNG, float32 otherwise), uint8, uint16, float32, "
                    "float64. Integer outputs clamp to [0,1] and quantize to 255 or 65535 levels.")
        ->check(CLI::IsMember({"auto", "uint8", "uint16", "float32", "float64"}))
        ->capture_default_str();
}

}  // namespace

void add_io_options(CLI::App &command, IoOptions &options) {
    command.add_option("IN", options.input, "Input image: .png .tif/.tiff .pfm .npy")->required();
    command
        .add_option("OUT", options.output,
                    "Output image; its extension picks the format. Written whole or not at all.")
        ->required();
    add_device_and_type_options(command, options);
}

void add_batch_io_options(CLI::App &command, IoOptions &options) {
    command
        .add_option(
            "FILES", options.files,
            "IN OUT: input image (.png .tif/.tiff .pfm .npy) and output image, whose extension picks the "
            "format, written whole or not at all; with --out-dir, any number of inputs IN...")
        ->expected(1, CLI::detail::expected_max_vector_size)
        ->required();
    command.add_option(
        "--out-dir", options.out_dir,
        "Filter every input in one pipeline call (same width and height) and write each to this "
        "folder under its own name");
    // One file is a batch of one with --out-dir, and a usage error without.
    command.parse_complete_callback([&options] {
        if (options.out_dir.empty() && options.files.size() != 2)
            throw CLI::ValidationError("FILES",
                                       "expected IN OUT (or --out-dir DIR with any number of inputs), got " +
                                           std::to_string(options.files.size()) + " files");
    });
    add_device_and_type_options(command, options);
}

void check_output_path(const IoOptions &options) {
    if (!is_supported_image_path(options.output))
        throw Error("cannot write '" + options.output +
                    "': unknown extension (use .png .tif .tiff .pfm .npy)");
    output_type(options);
}

Image load_input(const IoOptions &options) {
    const RawImage raw = read_image(options.input);
    require_finite_samples(raw, options.input);
    return to_planar_float(raw);
}

void require_finite_samples(const RawImage &image, const std::string &path) {
    if (image.type != SampleType::f32 && image.type != SampleType::f64) return;
    const double largest = std::numeric_limits<float>::max();
    size_t non_finite = 0, past_float = 0, first = image.samples();
    for (size_t n = 0; n < image.samples(); n++) {
        const double v = raw_sample(image, n);
        if (std::isfinite(v) && std::abs(v) <= largest) continue;
        (std::isfinite(v) ? past_float : non_finite)++;
        first = std::min(first, n);
    }
    if (first == image.samples()) return;
    const auto count = [](size_t n, const char *what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    std::ostringstream message;
    message << "'" << path << "' holds ";
    if (non_finite) message << count(non_finite, "non-finite sample") << (past_float ? " and " : "");
    if (past_float) message << count(past_float, "sample") << " past float32's range";
    const size_t pixel = first / image.channels;
    message << "; the first (" << raw_sample(image, first) << ") at x=" << pixel % image.width
            << " y=" << pixel / image.width << " channel " << first % image.channels
            << " (inputs must be finite float32 values)";
    throw Error(message.str());
}

std::string first_input(const IoOptions &options) {
    return options.files.empty() ? options.input : options.files.front();
}

void report_memory(const std::string &input, const std::function<void()> &work) {
    try {
        work();
    } catch (const std::bad_alloc &) {
        throw Error("out of host memory working on '" + input + "'");
    }
}

void save_output(const IoOptions &options, const Image &image) {
    write_image(options.output, from_planar_float(image, output_type(options)));
}

// "N" for N×N, or "WxH".
std::pair<int, int> parse_size(const std::string &text) {
    auto number = [&](const std::string &digits) {
        // Up to 2^31 − 1 a side: a 1D signal's sizes, 1x268435456, are long.
        if (digits.empty() || digits.size() > 10 ||
            digits.find_first_not_of("0123456789") != std::string::npos || std::stoll(digits) < 1 ||
            std::stoll(digits) > INT32_MAX)
            throw Error("bad size '" + text + "' (expected N or WxH, e.g. 4096 or 5000x3001)");
        return int(std::stoll(digits));
    };
    const size_t x = text.find('x');
    if (x == std::string::npos) return {number(text), number(text)};
    return {number(text.substr(0, x)), number(text.substr(x + 1))};
}

Device timing_device(const std::string &choice) {
    if (choice == "cpu") return Device::cpu;
    if (choice == "cuda") return Device::cuda;
    return has_variants(Device::cuda) && bench_cuda_unavailable_reason().empty() ? Device::cuda : Device::cpu;
}

// The command line exactly as the process received it, quoted for a POSIX shell.
std::string command_line() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string line, arg;
    for (char ch : raw) {
        if (ch != '\0') {
            arg += ch;
            continue;
        }
        const bool plain = !arg.empty() && arg.find_first_not_of(
                                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                               "0123456789-_=+,./:@%") == std::string::npos;
        std::string quoted = "'";
        for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += (line.empty() ? "" : " ") + (plain ? arg : quoted + "'");
        arg.clear();
    }
    return line.empty() ? "cascade bench (command line unavailable)" : line;
}

RecursiveFilter pass_filter(const std::string &feedback, std::optional<double> gain) {
    RecursiveFilter f;
    f.feedback = parse_coefficients(feedback);
    f.gain = gain ? *gain : unit_dc_gain(f.feedback);
    return f;
}

}  // namespace cascade::cli
