// `cascade gaussian`: a recursive Gaussian blur whose cost does not depend on sigma.
#include <memory>

#include "commands.h"
#include "common.h"
#include "gaussian.h"

namespace cascade::cli {

namespace {

struct GaussianArgs {
    IoOptions io;
    double sigma = 0;
    std::string method = "vanvliet";
    FilterOptions how;
};

void run(const GaussianArgs &args) {
    RecursiveFilter pass = van_vliet_gaussian(args.sigma);
    filter_image(args.io, args.how, Filter2D{pass, pass});
}

}  // namespace

Command add_gaussian_command(CLI::App &app) {
    auto args = std::make_shared<GaussianArgs>();
    CLI::App *cmd = app.add_subcommand("gaussian", "Blur an image with a recursive Gaussian of any sigma");
    cmd->footer(
        "vanvliet: the 3rd-order recursive fit of van Vliet, Young & Verbeek (1998), scaled so the\n"
        "impulse response has variance exactly sigma^2 and unit DC gain; one causal and one anticausal\n"
        "pass per dimension, so the cost is the same for every sigma. With --boundary none the passes\n"
        "start from zero, which darkens a band of about 2*sigma along the edges.");
    add_batch_io_options(*cmd, args->io);
    cmd->add_option("--sigma", args->sigma, "Standard deviation in pixels, 0.5 to 2000")->required();
    cmd->add_option("--method", args->method, "Recursive approximation: vanvliet")
        ->check(CLI::IsMember({"vanvliet"}))
        ->capture_default_str();
    add_filter_options(*cmd, args->how);
    return {cmd, [args] { run(*args); }};
}

}  // namespace cascade::cli
