// The `cascade` command line: one subcommand per filter family (cli.cpp).
#include "cli.h"

int main(int argc, char **argv) { return cascade::cli::run_cli(argc, argv); }
