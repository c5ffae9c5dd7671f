// `cascade sat`: the summed-area table of an image, exact for integer samples.
#include <memory>

#include "cascade/error.h"
#include "cascade/sat.h"
#include "commands.h"
#include "common.h"
#include "io/image_io.h"

namespace cascade::cli {

namespace {

struct SatArgs {
    std::string input, output, algorithm = "auto", device = "auto";
    bool exclusive = false;
};

void run(const SatArgs &args) {
    if (!is_supported_image_path(args.output))
        throw Error("cannot write '" + args.output + "': unknown extension (use .npy or .tif for tables)");
    SatOptions options{parse_sat_algorithm(args.algorithm), args.exclusive, parse_device_choice(args.device)};
    resolve_device(options.device);
    RawImage input = read_image(args.input);
    require_finite_samples(input, args.input);
    write_image(args.output, summed_area_table(input, options));
}

}  // namespace

Command add_sat_command(CLI::App &app) {
    auto args = std::make_shared<SatArgs>();
    CLI::App *cmd = app.add_subcommand("sat", "Compute the summed-area table of an image");
    cmd->footer(
        "V(x,y) = sum of every sample at or above and left of (x,y), channel by channel.\n"
        "Samples keep their values (no [0,1] scaling): uint8/uint16 inputs give exact uint32 tables, or\n"
        "uint64 where H*W*max would not fit in 32 bits; float inputs give float32 tables. Tables hold\n"
        "values PNG cannot: write .npy or .tif. --exclusive gives the (H+1)x(W+1) table with a zero\n"
        "first row and column (OpenCV, NPP).\n"
        "Algorithms: overlapped (Nehab et al. 2011), 2r1w, 1r1w and 1r1w-split ((1+r)R1W, Kasagi et\n"
        "al. 2014), naive (two scans), strips (CPU only: strips of rows); auto picks the fastest:\n"
        "strips on the CPU, 2r1w on the GPU (docs/performance.md).");
    cmd->add_option("IN", args->input, "Input image: .png .tif/.tiff .pfm .npy")->required();
    cmd->add_option("OUT", args->output, "Output table: .npy or .tif (written whole or not at all)")
        ->required();
    cmd->add_option("--algorithm", args->algorithm,
                    "auto, overlapped, 2r1w, 1r1w, 1r1w-split, naive or strips")
        ->check(CLI::IsMember(sat_algorithm_names()))
        ->capture_default_str();
    cmd->add_flag("--exclusive", args->exclusive,
                  "Exclusive (H+1)x(W+1) table with a zero first row and column");
    add_device_option(*cmd, args->device);
    return {cmd, [args] { report_memory(args->input, [&] { run(*args); }); }};
}

}  // namespace cascade::cli
