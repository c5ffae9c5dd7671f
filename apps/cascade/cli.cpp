#include "cli.h"

#include <cstdio>
#include <exception>

#include "commands.h"

namespace cascade::cli {

int run_cli(int argc, char **argv) {
    CLI::App app{
        "cascade: exact recursive (IIR) image filters, compiled ahead of time with Halide for CUDA "
        "and the CPU.\nRun 'cascade <command> --help' for a command's options."};
    app.require_subcommand(1);
    app.failure_message([](const CLI::App *, const CLI::Error &e) {
        return std::string("cascade: usage error: ") + e.what() + " (see --help)\n";
    });
    const std::vector<Command> commands = {
        add_iir_command(app), add_gaussian_command(app), add_bspline_command(app), add_sat_command(app),
        add_box_command(app), add_bench_command(app),    add_tune_command(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        // Help prints and succeeds; every other parse failure is a usage error: status 2.
        int status = app.exit(e);
        return status == 0 ? 0 : 2;
    }
    try {
        for (const auto &command : commands)
            if (command.app->parsed()) command.run();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cascade: error: %s\n", e.what());
        return 1;
    }
    return 0;
}

}  // namespace cascade::cli
