// The command line's argument and coefficient parsing, run in-process through run_cli: the first
// byte picks a subcommand (never `bench`, which times large images), the second the tiny real
// input and the output's format, and the rest, split at '\0' and '\n', become up to 16 more
// arguments, where "@in", "@in2", "@out" and "@dir" name real files and folders. Any exit status
// is fine; a crash, a hang, a temporary file left behind, or a failed run that leaves its output
// is not, nor a successful one whose output cannot be read back.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cascade/image.h"
#include "cli.h"
#include "fuzz_support.h"
#include "io/image_io.h"

namespace {

using namespace cascade;

constexpr size_t kMaxArguments = 16;
const char *const kCommands[] = {"iir", "gaussian", "bspline", "sat", "box"};
const char *const kInputs[] = {"in.png", "in.npy", "in.tif", "in16.png"};
const char *const kOutputs[] = {"out.png", "out.tif", "out.npy", "out.pfm"};

std::string in_folder() { return fuzz::scratch_path("in"); }
std::string out_folder() { return fuzz::scratch_path("out"); }
// The working folder of each run: relative paths the fuzzer makes up (an output named
// "@dir\xff…") land there and are removed, not in the folder libFuzzer was started from.
std::string work_folder() { return fuzz::scratch_path("work"); }

RawImage ramp(int width, int height, int channels, SampleType type) {
    Image planes(width, height, channels);
    for (size_t i = 0; i < planes.data.size(); i++) planes.data[i] = float(i % 11) / 10;
    return from_planar_float(planes, type);
}

// The inputs' bytes, made once by the project's writer and put back before every run (a run may
// write over its input, as users may).
struct Inputs {
    std::vector<std::string> paths, bytes;

    Inputs() {
        mkdir(in_folder().c_str(), 0700);
        const RawImage images[] = {ramp(7, 5, 1, SampleType::u8), ramp(7, 5, 2, SampleType::f32),
                                   ramp(7, 5, 3, SampleType::u16), ramp(7, 5, 4, SampleType::u16)};
        for (size_t i = 0; i < 4; i++) {
            paths.push_back(in_folder() + "/" + kInputs[i]);
            write_image(paths.back(), images[i]);
            FILE *file = std::fopen(paths.back().c_str(), "rb");
            std::string data;
            char buffer[4096];
            for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) data.append(buffer, n);
            std::fclose(file);
            bytes.push_back(data);
        }
    }

    void restore() const {
        for (size_t i = 0; i < paths.size(); i++)
            fuzz::write_file(paths[i], reinterpret_cast<const uint8_t *>(bytes[i].data()), bytes[i].size());
    }
};

std::vector<std::string> names_in(const std::string &folder) {
    std::vector<std::string> names;
    if (DIR *dir = opendir(folder.c_str())) {
        while (const dirent *entry = readdir(dir))
            if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
                names.push_back(entry->d_name);
        closedir(dir);
    }
    return names;
}

void empty(const std::string &folder) {
    std::error_code ignored;
    for (const std::string &name : names_in(folder))
        std::filesystem::remove_all(folder + "/" + name, ignored);
    mkdir(folder.c_str(), 0700);
}

std::vector<std::string> arguments(const uint8_t *data, size_t size, const std::string &input,
                                   const std::string &output) {
    std::vector<std::string> args;
    std::string current;
    for (size_t i = 0; i <= size && args.size() < kMaxArguments; i++) {
        if (i < size && data[i] != '\0' && data[i] != '\n') {
            current += char(data[i]);
            continue;
        }
        if (current == "@in")
            current = input;
        else if (current == "@in2")
            current = in_folder() + "/" + kInputs[1];
        else if (current == "@out")
            current = output;
        else if (current == "@dir")
            current = out_folder();
        args.push_back(current);
        current.clear();
    }
    return args;
}

void check_outputs(int status, const std::string &output) {
    for (const std::string &folder : {in_folder(), out_folder(), work_folder()})
        for (const std::string &name : names_in(folder))
            FUZZ_CHECK(name.find(".tmp-") == std::string::npos, "a temporary file was left: " + name);
    if (status != 0) {
        FUZZ_CHECK(!fuzz::file_exists(output), "a failed run left its output " + output);
        return;
    }
    // Every image file below it: `--out-dir` may name a new folder, even one called "out.png"
    // (found by fuzz_cli: a folder is no unreadable image).
    std::error_code ignored;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(out_folder(), ignored)) {
        const std::string path = entry.path().string();
        if (!entry.is_regular_file() || !is_supported_image_path(path)) continue;
        try {
            read_image(path);
        } catch (const std::exception &e) {
            fuzz::fail(std::string("a successful run wrote an unreadable ") + path + ": " + e.what());
        }
    }
}

// Back in the starting folder after the run, so libFuzzer's relative paths (the corpus) keep
// their meaning. A crash inside the run leaves libFuzzer in the work folder: scripts/fuzz.sh
// gives it an absolute -artifact_prefix, which a run by hand needs too.
int run_in_work_folder(std::vector<char *> &argv) {
    const int back = open(".", O_RDONLY | O_DIRECTORY);
    if (back < 0 || chdir(work_folder().c_str()) != 0) fuzz::fail("cannot enter " + work_folder());
    const int status = cli::run_cli(int(argv.size()) - 1, argv.data());
    if (fchdir(back) != 0) fuzz::fail("cannot return to the starting folder");
    close(back);
    return status;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const Inputs inputs;
    if (size < 2) return 0;
    const std::string command = kCommands[data[0] % 5];
    const std::string input = inputs.paths[data[1] & 3];
    const std::string output = out_folder() + "/" + kOutputs[(data[1] >> 2) & 3];
    const bool positional = !(data[1] & 0x10);
    std::vector<std::string> args = {"cascade", command};
    if (positional) args.insert(args.end(), {input, output});
    for (const std::string &arg : arguments(data + 2, size - 2, input, output)) {
        if (arg == "bench") return -1;  // never a second subcommand that times large images
        args.push_back(arg);
    }
    inputs.restore();
    empty(out_folder());
    empty(work_folder());

    std::vector<char *> argv;
    for (std::string &arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int status = run_in_work_folder(argv);
    FUZZ_CHECK(status == 0 || status == 1 || status == 2, "exit status " + std::to_string(status));
    check_outputs(status, output);
    fuzz::report("status " + std::to_string(status));
    return 0;
}
