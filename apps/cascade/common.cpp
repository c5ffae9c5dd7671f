#include "common.h"

#include "error.h"
#include "iir.h"
#include "image_io.h"

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
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
}

void add_filter_options(CLI::App &command, FilterOptions &options) {
    command.add_option("--boundary", options.boundary, "Initial feedbacks at the edges: none (zero)")
        ->check(CLI::IsMember({"none"}))
        ->capture_default_str();
    command
        .add_option(
            "--algorithm", options.algorithm,
            "How the image is traversed: rt (sequential scans, the baseline), 4, 5 or 6 (block-parallel, "
            "Nehab et al.; docs/algorithms.md); auto picks 6")
        ->check(CLI::IsMember({"auto", "rt", "4", "5", "6"}))
        ->capture_default_str();
}

void filter_image(const IoOptions &options, const FilterOptions &how, const Filter2D &filter) {
    IirOptions iir{parse_boundary(how.boundary), parse_device_choice(options.device)};
    iir.algorithm = parse_algorithm(how.algorithm);
    resolve_device(iir.device);
    Image input = load_input(options);
    save_output(options, iir_2d(input, filter, iir));
}

void add_io_options(CLI::App &command, IoOptions &options) {
    command.add_option("IN", options.input, "Input image: .png .tif/.tiff .pfm .npy")->required();
    command
        .add_option("OUT", options.output,
                    "Output image; its extension picks the format. Written whole or not at all.")
        ->required();
    add_device_option(command, options.device);
    command
        .add_option("--output-type", options.output_type,
                    "Sample type written: auto (uint8 for PNG, float32 otherwise), uint8, uint16, float32, "
                    "float64. Integer outputs clamp to [0,1] and quantize to 255 or 65535 levels.")
        ->check(CLI::IsMember({"auto", "uint8", "uint16", "float32", "float64"}))
        ->capture_default_str();
}

void check_output_path(const IoOptions &options) {
    if (!is_supported_image_path(options.output))
        throw Error("cannot write '" + options.output +
                    "': unknown extension (use .png .tif .tiff .pfm .npy)");
    output_type(options);
}

Image load_input(const IoOptions &options) {
    Image image = to_planar_float(read_image(options.input));
    require_finite(image);
    return image;
}

void save_output(const IoOptions &options, const Image &image) {
    write_image(options.output, from_planar_float(image, output_type(options)));
}

}  // namespace cascade::cli
