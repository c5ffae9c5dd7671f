#pragma once
// The `cascade` command line as a function, so that tests and the fuzzer run it in-process: it
// parses `argv`, runs the chosen subcommand and returns the exit status (0 done, 1 error, 2 usage
// error; --help prints and returns 0). It never calls exit().
namespace cascade::cli {

int run_cli(int argc, char **argv);

}  // namespace cascade::cli
