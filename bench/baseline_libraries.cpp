#include "baseline_libraries.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <vector>

namespace cascade {

namespace {

// The running program's folder, or "" where /proc does not say.
std::string executable_folder() {
    char path[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof(path));
    if (n <= 0 || size_t(n) >= sizeof(path)) return "";
    const std::string file(path, size_t(n));
    return file.substr(0, file.rfind('/'));
}

std::vector<std::string> folders() {
    std::vector<std::string> found;
    const std::string here = executable_folder();
    if (!here.empty()) found = {here, here + "/" CASCADE_BASELINES_INSTALL_DIR};
    found.push_back(CASCADE_BASELINES_BUILD_DIR);
    return found;
}

struct Loaded {
    const void *table = nullptr;
    BaselineAbsence absence;
};

// `what` names the library in notes ("the OpenCV baselines library").
template <class Table>
Loaded load(const std::string &file, const char *entry, const std::string &what) {
    const auto absent = [](const std::string &why) { return Loaded{nullptr, {"not built", why}}; };
    for (const std::string &folder : folders()) {
        const std::string path = folder + "/" + file;
        if (access(path.c_str(), F_OK) != 0) continue;
        // Never closed: baselines it made may live until the process exits.
        void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            // dlerror names the file itself where it is at fault, else only the missing dependency.
            const char *error = dlerror();
            const std::string why = error ? error : "no reason given";
            return absent(what + " did not load: " + (why.rfind(path, 0) == 0 ? why : path + ": " + why));
        }
        auto make = reinterpret_cast<const Table *(*)()>(dlsym(library, entry));
        if (!make) return absent(what + " " + path + " has no " + entry);
        const Table *table = make();
        if (table->version != baselines::kModuleApiVersion)
            return absent(what + " " + path + " is of another build (interface " +
                          std::to_string(table->version) + ", not " +
                          std::to_string(baselines::kModuleApiVersion) + ")");
        return {table, {}};
    }
    return absent(what + " (" + file + ") is neither beside the executable nor in " +
                  CASCADE_BASELINES_INSTALL_DIR " from it");
}

}  // namespace

const baselines::OpenCvBaselines *opencv_baselines(BaselineAbsence *absence) {
    static const Loaded loaded = load<baselines::OpenCvBaselines>(
        "libcascade_opencv_baselines.so", CASCADE_OPENCV_BASELINES_ENTRY, "the OpenCV baselines library");
    if (absence) *absence = loaded.absence;
    return static_cast<const baselines::OpenCvBaselines *>(loaded.table);
}

const baselines::CudaBaselines *cuda_baselines(BaselineAbsence *absence) {
    static const Loaded loaded = load<baselines::CudaBaselines>(
        "libcascade_cuda_baselines.so", CASCADE_CUDA_BASELINES_ENTRY, "the CUDA baselines library");
    if (absence) *absence = loaded.absence;
    return static_cast<const baselines::CudaBaselines *>(loaded.table);
}

}  // namespace cascade
