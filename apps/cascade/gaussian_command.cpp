// `cascade gaussian`: a recursive Gaussian blur whose cost does not depend on sigma.
#include <memory>

#include "cascade/gaussian_blur.h"
#include "commands.h"
#include "common.h"

namespace cascade::cli {

namespace {

struct GaussianArgs {
    IoOptions io;
    double sigma = 0;
    std::string method = "vanvliet";
    FilterOptions how;
};

void run(const GaussianArgs &args) {
    // Designed before any file is read, so a sigma the method refuses fails first.
    const GaussianDesign design = design_gaussian(args.sigma, parse_gaussian_method(args.method));
    filter_image(
        args.io, args.how,
        [&design](const Image &image, const IirOptions &options) {
            return gaussian_blur(image, design, options);
        },
        [&design](halide_buffer_t *in, halide_buffer_t *out, const IirOptions &options) {
            return gaussian_blur(in, out, design, options);
        });
}

}  // namespace

Command add_gaussian_command(CLI::App &app) {
    auto args = std::make_shared<GaussianArgs>();
    CLI::App *cmd = app.add_subcommand("gaussian", "Blur an image with a recursive Gaussian of any sigma");
    cmd->footer(
        "vanvliet: the 3rd-order recursive fit of van Vliet, Young & Verbeek (1998), scaled so the\n"
        "impulse response has variance exactly sigma^2 and unit DC gain; one causal and one anticausal\n"
        "pass per dimension, so the cost is the same for every sigma.\n"
        "deriche2: Deriche's 2nd-order smoothing kernel (1 + a|n|)exp(-a|n|), a chosen so the variance is\n"
        "sigma^2; deriche4: Deriche's 4th-order Gaussian fit (1993), sigma 0.5 to 4 (float32 cannot hold\n"
        "it beyond). Both run a 3- or 7-tap FIR (the numerator) and then the all-pole passes: one more\n"
        "read and write of the image than vanvliet. All have unit DC gain.\n"
        "twoway: Lee et al. (2014): vanvliet's passes with each line cut at its centre, the halves\n"
        "filtered at once and joined through the centre pixel's direct Gaussian; approximate near the\n"
        "centre lines, by design. It has its own traversal (no --algorithm).\n"
        "With --boundary none the passes start from zero, which darkens a band of about 2*sigma along\n"
        "the edges; zero, clamp, periodic, reflect and mirror are exact with every method (twoway:\n"
        "its passes from the edges and its centre pixels read the extension; docs/boundaries.md).\n"
        "Accuracy of each method: docs/gaussian.md.");
    add_batch_io_options(*cmd, args->io);
    cmd->add_option("--sigma", args->sigma, "Standard deviation in pixels, 0.5 to 2000 (deriche4: to 4)")
        ->required();
    cmd->add_option("--method", args->method,
                    "Recursive approximation: vanvliet, deriche2, deriche4 or twoway")
        ->check(CLI::IsMember(gaussian_method_names()))
        ->capture_default_str();
    add_filter_options(*cmd, args->how);
    return {cmd, [args] { report_memory(first_input(args->io), [&] { run(*args); }); }};
}

}  // namespace cascade::cli
