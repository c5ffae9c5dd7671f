// `cascade box`: the mean of the (2R+1)×(2R+1) window around every pixel, from summed-area
// tables.
#include <charconv>
#include <memory>

#include "cascade/box.h"
#include "cascade/error.h"
#include "commands.h"
#include "common.h"

namespace cascade::cli {

namespace {

struct BoxArgs {
    IoOptions io;
    std::string radius;
    std::string boundary = "reflect";
};

// Taken as text so that "2.5" is refused rather than truncated to 2.
int parse_radius(const std::string &text) {
    int radius = -1;
    const char *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, radius);
    if (ec == std::errc::result_out_of_range) throw Error("--radius " + text + " is too large");
    if (ec != std::errc() || ptr != end || radius < 0)
        throw Error("--radius must be a non-negative integer, got '" + text + "'");
    return radius;
}

void run(const BoxArgs &args) {
    check_output_path(args.io);
    const int radius = parse_radius(args.radius);
    const Boundary boundary = parse_boundary(args.boundary);
    const DeviceChoice device = parse_device_choice(args.io.device);
    resolve_device(device);
    Image input = load_input(args.io);
    save_output(args.io, box_mean(input, radius, boundary, device));
}

}  // namespace

Command add_box_command(CLI::App &app) {
    auto args = std::make_shared<BoxArgs>();
    CLI::App *cmd =
        app.add_subcommand("box", "Replace every pixel by the mean of the (2R+1)x(2R+1) box around it");
    cmd->footer(
        "Past the edges, the image continues as (for a row a b c d):\n"
        "  zero      0 0 | a b c d | 0 0   zeros; the mean still divides by (2R+1)^2 (none: the same)\n"
        "  clamp     a a | a b c d | d d   the edge sample repeated\n"
        "  reflect   b a | a b c d | d c   half-sample symmetric (the edge sample repeated once)\n"
        "  mirror    c b | a b c d | c b   whole-sample symmetric (the edge sample not repeated)\n"
        "  periodic  c d | a b c d | a b   the image tiled\n"
        "Any radius works, larger than the image too; the cost per pixel does not depend on it.\n"
        "Channels are filtered independently. Exit status: 0 on success, 1 on an error (no output file\n"
        "is left behind), 2 on a usage error.");
    add_io_options(*cmd, args->io);
    cmd->add_option("--radius", args->radius, "Box radius R >= 0, an integer: the box is (2R+1)x(2R+1)")
        ->required();
    cmd->add_option("--boundary", args->boundary, "How the image continues past its edges (see below)")
        ->check(CLI::IsMember(boundary_names()))
        ->capture_default_str();
    return {cmd, [args] { report_memory(args->io.input, [&] { run(*args); }); }};
}

}  // namespace cascade::cli
