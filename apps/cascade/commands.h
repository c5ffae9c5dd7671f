#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace cascade::cli {

// A subcommand registered on the top-level app, and what it does once parsed.
struct Command {
    CLI::App *app;
    std::function<void()> run;
};

Command add_iir_command(CLI::App &app);
Command add_gaussian_command(CLI::App &app);
Command add_bspline_command(CLI::App &app);
Command add_sat_command(CLI::App &app);
Command add_box_command(CLI::App &app);
Command add_bench_command(CLI::App &app);
Command add_tune_command(CLI::App &app);

}  // namespace cascade::cli
