#pragma once
// Pieces every `cascade` subcommand shares: reading the input, writing the output, the options
// that mean the same everywhere.
#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cascade/device.h"
#include "cascade/filter.h"
#include "cascade/iir.h"
#include "cascade/image.h"

namespace cascade::cli {

// Options common to the filtering subcommands.
struct IoOptions {
    std::string input, output;
    std::string device = "auto";
    std::string output_type = "auto";
    std::vector<std::string> files;  // batch commands: IN OUT, or with --out-dir IN...
    std::string out_dir;
};

// Adds --device (auto, cpu or cuda; default auto) to `command`.
void add_device_option(CLI::App &command, std::string &device);

// How the recursive filters run: --boundary (the initial feedbacks; default none) and
// --algorithm (auto, rt, 4, 5, 6; default auto).
struct FilterOptions {
    std::string boundary = "none";
    std::string algorithm = "auto";
};
void add_filter_options(CLI::App &command, FilterOptions &options);

// Reads IN (or every input of a batch), applies `filter` as `how` says on the --device chosen,
// writes OUT (or each output). A batch goes through one pipeline call: its images must share
// width and height, and are stacked as channels.
void filter_image(const IoOptions &options, const FilterOptions &how, const Filter2D &filter);
// The same with any whole-image filter in place of iir_2d. When the inputs are 8- or 16-bit and
// written as such, `samples` is tried first: it filters host planes of that type converted inside
// the pipeline (include/cascade/planes.h), or returns false where the build cannot, and the images then
// go through floats.
using ImageFilter = std::function<Image(const Image &, const IirOptions &)>;
using SampleFilter = std::function<bool(halide_buffer_t *, halide_buffer_t *, const IirOptions &)>;
void filter_image(const IoOptions &options, const FilterOptions &how, const ImageFilter &filter,
                  const SampleFilter &samples = nullptr);

// Adds IN, OUT, --device and --output-type to `command`.
void add_io_options(CLI::App &command, IoOptions &options);
// The same with a batch: FILES is IN OUT, or with --out-dir DIR any number of inputs, each
// written to DIR under its own name.
void add_batch_io_options(CLI::App &command, IoOptions &options);

// Reads IN as planar floats and checks every sample is finite.
Image load_input(const IoOptions &options);

// The command line's policy on NaN and Inf (the library's is in cascade/iir.h): an input holding
// any, or float64 samples past float32's range (the filters' working type, where they would become
// Inf), is refused before any work, with how many there are and where the first is. Read from `path`.
void require_finite_samples(const RawImage &image, const std::string &path);

// Runs a command's work; a host allocation that fails (std::bad_alloc, whose own text names no
// cause) becomes an Error saying so, naming `input`.
void report_memory(const std::string &input, const std::function<void()> &work);
// IN, or the first input of a batch, for messages.
std::string first_input(const IoOptions &options);

// Writes `image` to OUT in the format of its extension, converted to --output-type; checks the
// extension before any work is done when called with `check_only`.
void save_output(const IoOptions &options, const Image &image);
void check_output_path(const IoOptions &options);

// The timing commands' (bench, tune) sizes: "N" for N×N, or "WxH". Throws cascade::Error.
std::pair<int, int> parse_size(const std::string &text);

// The device a timing command runs on: --device cpu or cuda as given; auto takes CUDA where this
// build has CUDA variants and the bench can use the device.
Device timing_device(const std::string &choice);

// The command line exactly as the process received it, quoted for a POSIX shell.
std::string command_line();

// A pass from --feedback a1,...,ar and an optional --gain (default: unit DC gain, 1 + Σ a_k).
// Throws cascade::Error on a malformed list.
RecursiveFilter pass_filter(const std::string &feedback, std::optional<double> gain);

}  // namespace cascade::cli
