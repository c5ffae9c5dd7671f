// `cascade bspline`: B-spline interpolation coefficients of an image.
#include <memory>

#include "cascade/bspline.h"
#include "commands.h"
#include "common.h"

namespace cascade::cli {

namespace {

struct BSplineArgs {
    IoOptions io;
    int order = 3;
    FilterOptions how;
};

void run(const BSplineArgs &args) {
    const RecursiveFilter pass = bspline_prefilter(args.order);
    filter_image(args.io, args.how, Filter2D{pass, pass});
}

}  // namespace

Command add_bspline_command(CLI::App &app) {
    auto args = std::make_shared<BSplineArgs>();
    CLI::App *cmd =
        app.add_subcommand("bspline", "B-spline interpolation prefilter (coefficients of an image)");
    cmd->footer(
        "Computes the coefficients c of the B-spline of the given degree that interpolates the image:\n"
        "sampling sum_k c[k] beta(x - k) at the pixels gives the pixels back. The prefilter is a causal\n"
        "and an anticausal pass per pole in each dimension (poles from the sampled B-spline, e.g.\n"
        "sqrt(3)-2 for cubic). Coefficients overshoot [0,1]: write .tif, .pfm or .npy to keep them.\n"
        "With --boundary none the passes start from zero, which is exact only far from the edges;\n"
        "reflect, mirror and periodic match scipy.ndimage.spline_filter's modes reflect, mirror and\n"
        "grid-wrap (docs/boundaries.md).");
    add_batch_io_options(*cmd, args->io);
    cmd->add_option("--order", args->order, "Degree of the B-spline: 3 (cubic), 5 (quintic), 7 or 9")
        ->check(CLI::IsMember({3, 5, 7, 9}))
        ->capture_default_str();
    add_filter_options(*cmd, args->how);
    return {cmd, [args] { report_memory(first_input(args->io), [&] { run(*args); }); }};
}

}  // namespace cascade::cli
