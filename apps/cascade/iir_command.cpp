// `cascade iir`: a user-given recursive filter, causal and anticausal, down the columns and
// along the rows.
#include <memory>

#include "cascade/error.h"
#include "commands.h"
#include "common.h"

namespace cascade::cli {

namespace {

struct IirArgs {
    IoOptions io;
    std::string feedback, feedback_x, feedback_y;
    std::optional<double> gain, gain_x, gain_y;
    FilterOptions how;
    std::string axes = "xy";
    std::string passes = "all";
};

void run(const IirArgs &args) {
    const std::string &fy = args.feedback_y.empty() ? args.feedback : args.feedback_y;
    const std::string &fx = args.feedback_x.empty() ? args.feedback : args.feedback_x;
    if (fy.empty() || fx.empty())
        throw Error("--feedback is required (or both --feedback-x and --feedback-y)");
    Filter2D filter{pass_filter(fy, args.gain_y ? args.gain_y : args.gain),
                    pass_filter(fx, args.gain_x ? args.gain_x : args.gain)};
    // An axis left out gets the identity pass (y = x): a 1×N or N×1 signal is then a 1D filter.
    const RecursiveFilter identity = RecursiveFilter::identity();
    if (args.axes == "x") filter.vertical = identity;
    if (args.axes == "y") filter.horizontal = identity;
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    const Passes passes = parse_passes(args.passes);
    const auto with_passes = [passes](IirOptions iir) {
        iir.passes = passes;
        return iir;
    };
    filter_image(
        args.io, args.how,
        [&](const Image &image, const IirOptions &iir) { return iir_2d(image, filter, with_passes(iir)); },
        [&](halide_buffer_t *in, halide_buffer_t *out, const IirOptions &iir) {
            return iir_2d(in, out, filter, with_passes(iir));
        });
}

}  // namespace

Command add_iir_command(CLI::App &app) {
    auto args = std::make_shared<IirArgs>();
    CLI::App *cmd = app.add_subcommand("iir", "Apply a recursive (IIR) filter of any order to an image");
    cmd->footer(
        "Each pass, in this order: causal then anticausal down every column, then along every row:\n"
        "  causal      y[i] = b0*x[i] - sum_{k=1..r} a_k*y[i-k]\n"
        "  anticausal  z[i] = b0*y[i] - sum_{k=1..r} a_k*z[i+k]\n"
        "Channels are filtered independently. Integer images are read as [0,1] floats; float results\n"
        "written to PNG are clamped to [0,1] and quantized (8-bit, or 16-bit with --output-type uint16).\n"
        "Every pole must lie strictly inside the unit circle. Exit status: 0 on success, 1 on an error\n"
        "(no output file is left behind), 2 on a usage error.");
    add_batch_io_options(*cmd, args->io);
    cmd->add_option("--feedback", args->feedback,
                    "Feedback coefficients a1,...,ar of every pass (e.g. -0.5)");
    cmd->add_option("--feedback-y", args->feedback_y, "Feedback coefficients of the column passes only");
    cmd->add_option("--feedback-x", args->feedback_x, "Feedback coefficients of the row passes only");
    cmd->add_option("--gain", args->gain,
                    "Feed-forward gain b0 of every pass (default: 1 + sum a_k, unit DC gain)");
    cmd->add_option("--gain-y", args->gain_y, "Gain b0 of the column passes only");
    cmd->add_option("--gain-x", args->gain_x, "Gain b0 of the row passes only");
    add_filter_options(*cmd, args->how);
    cmd->add_option("--axes", args->axes,
                    "Filter along x (the rows), y (the columns) or both (xy); a one-row or one-column image "
                    "is a 1D signal with --algorithm auto: filtered by overlapped segments where the filter "
                    "fits them (CUDA; any --boundary other than none on either device), else block-parallel "
                    "along it (algorithm 3, --boundary none)")
        ->check(CLI::IsMember({"x", "y", "xy"}))
        ->capture_default_str();
    cmd->add_option("--passes", args->passes,
                    "Run part of the filter: columns (down and up), rows (right and left), causal (down and "
                    "right) or anticausal (up and left, boundary none); parts run on algorithm rt, from "
                    "variants a tuning manifest builds (docs/tuning.md)")
        ->check(CLI::IsMember(passes_names()))
        ->capture_default_str();
    return {cmd, [args] { report_memory(first_input(args->io), [&] { run(*args); }); }};
}

}  // namespace cascade::cli
