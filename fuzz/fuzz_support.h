#pragma once
// What every fuzz target shares: a scratch folder of its own process (so parallel workers never
// share files), whole-file writes, and the checks that turn a broken promise into a crash that
// libFuzzer records.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "cascade/error.h"

namespace cascade::fuzz {

// A folder only this process uses, under /dev/shm when it exists (files there never reach a disk)
// else $TMPDIR or /tmp; made on first use and removed at exit.
const std::string &scratch_folder();

// `name` inside scratch_folder().
std::string scratch_path(const std::string &name);

void write_file(const std::string &path, const uint8_t *data, size_t size);
bool file_exists(const std::string &path);

// Aborts, printing `what`, so libFuzzer saves the input as a crash.
[[noreturn]] void fail(const std::string &what);

// Whether FUZZ_VERBOSE is set: how to see what each seed of a corpus does.
bool verbose();

// Prints `what` when verbose().
void report(const std::string &what);

// A user-facing error message must be one non-empty line.
void check_message(const char *message);

// Runs `step`: true when it refused with a cascade::Error (its message checked), false when it
// returned. Any other exception is a finding.
template <typename Step>
bool refused(Step &&step) {
    try {
        step();
        return false;
    } catch (const Error &e) {
        check_message(e.what());
        report(std::string("refused: ") + e.what());
        return true;
    } catch (const std::exception &e) {
        fail(std::string("not a cascade::Error: ") + e.what());
    }
}

}  // namespace cascade::fuzz

#define FUZZ_CHECK(condition, what)                                                   \
    do {                                                                              \
        if (!(condition)) ::cascade::fuzz::fail(std::string(#condition ": ") + what); \
    } while (0)
