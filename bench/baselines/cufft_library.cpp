#include "cufft_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <type_traits>

namespace cascade::baselines {

namespace {

#define CASCADE_STRINGIFY(x) #x
#define CASCADE_SONAME(major) "libcufft.so." CASCADE_STRINGIFY(major)

struct Loaded {
    CufftApi api{};
    std::string why;  // empty when api is complete
};

Loaded load() {
    Loaded loaded;
    const char *chosen = std::getenv("CASCADE_CUFFT_LIBRARY");
    const std::string name = chosen && *chosen ? chosen : CASCADE_SONAME(CUFFT_VER_MAJOR);
    // Never closed: plans made through it may live until the process exits.
    void *library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *error = dlerror();
        loaded.why = "cuFFT could not be loaded (" + std::string(error ? error : name) +
                     "); put its folder on LD_LIBRARY_PATH or name the file in CASCADE_CUFFT_LIBRARY";
        return loaded;
    }
    auto find = [&](auto &function, const char *symbol) {
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, symbol));
        if (!function && loaded.why.empty()) loaded.why = name + " has no " + symbol;
    };
    find(loaded.api.plan_2d, "cufftPlan2d");
    find(loaded.api.exec_r2c, "cufftExecR2C");
    find(loaded.api.exec_c2r, "cufftExecC2R");
    find(loaded.api.destroy, "cufftDestroy");
    find(loaded.api.get_version, "cufftGetVersion");
    return loaded;
}

}  // namespace

const CufftApi *load_cufft(std::string &why) {
    static const Loaded loaded = load();
    why = loaded.why;
    return why.empty() ? &loaded.api : nullptr;
}

}  // namespace cascade::baselines
