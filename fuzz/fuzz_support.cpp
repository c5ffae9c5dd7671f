#include "fuzz_support.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace cascade::fuzz {

namespace {

std::string make_scratch_folder() {
    const char *tmpdir = std::getenv("TMPDIR");
    std::string root = (tmpdir && *tmpdir) ? tmpdir : "/tmp";
    struct stat info;
    if (stat("/dev/shm", &info) == 0 && S_ISDIR(info.st_mode) && access("/dev/shm", W_OK) == 0)
        root = "/dev/shm";
    std::string folder = root + "/cascade-fuzz-XXXXXX";
    if (!mkdtemp(folder.data()))
        fail("cannot make a scratch folder under " + root + ": " + std::strerror(errno));
    return folder;
}

}  // namespace

const std::string &scratch_folder() {
    // Never destroyed, so the exit handler that removes the folder can still name it.
    static const std::string *folder = [] {
        auto *made = new std::string(make_scratch_folder());
        // libFuzzer ends a run with exit(), which runs this; a crash leaves the folder behind.
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(*folder, ignored);
        });
        return made;
    }();
    return *folder;
}

std::string scratch_path(const std::string &name) { return scratch_folder() + "/" + name; }

void write_file(const std::string &path, const uint8_t *data, size_t size) {
    FILE *file = std::fopen(path.c_str(), "wb");
    if (!file) fail("cannot create " + path + ": " + std::strerror(errno));
    const bool written = size == 0 || std::fwrite(data, 1, size, file) == size;
    if (std::fclose(file) != 0 || !written) fail("cannot write " + path);
}

bool file_exists(const std::string &path) {
    struct stat info;
    return stat(path.c_str(), &info) == 0;
}

void fail(const std::string &what) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

bool verbose() {
    static const bool set = std::getenv("FUZZ_VERBOSE") != nullptr;
    return set;
}

void report(const std::string &what) {
    if (verbose()) std::fprintf(stderr, "%s\n", what.c_str());
}

void check_message(const char *message) {
    const std::string text = message ? message : "";
    FUZZ_CHECK(!text.empty(), "empty error message");
    FUZZ_CHECK(text.find_first_of("\n\r") == std::string::npos, "message of several lines: " + text);
}

}  // namespace cascade::fuzz
