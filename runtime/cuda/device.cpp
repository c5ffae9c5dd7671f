#include "cascade/device.h"

#include <dlfcn.h>

#include "variants.h"

namespace cascade {

namespace {

CudaInfo probe() {
    CudaInfo info;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        info.reason = "no CUDA driver (libcuda.so.1 not found)";
        return info;
    }
    using InitFn = int (*)(unsigned);
    using CountFn = int (*)(int *);
    using GetFn = int (*)(int *, int);
    using NameFn = int (*)(char *, int, int);
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
    auto count = reinterpret_cast<CountFn>(dlsym(lib, "cuDeviceGetCount"));
    auto get = reinterpret_cast<GetFn>(dlsym(lib, "cuDeviceGet"));
    auto name = reinterpret_cast<NameFn>(dlsym(lib, "cuDeviceGetName"));
    if (!init || !count || !get || !name) {
        info.reason = "the CUDA driver library lacks cuInit/cuDeviceGetCount";
        return info;
    }
    if (int err = init(0); err != 0) {
        info.reason = "the CUDA driver failed to initialise (CUresult " + std::to_string(err) + ")";
        return info;
    }
    int n = 0;
    if (count(&n) != 0 || n == 0) {
        info.reason = "the CUDA driver sees no device";
        return info;
    }
    int device = 0;
    char text[256] = {0};
    if (get(&device, 0) == 0 && name(text, sizeof(text) - 1, device) == 0) info.name = text;
    info.devices = n;
    // The library stays loaded: Halide's CUDA runtime will use it.
    return info;
}

}  // namespace

const CudaInfo &cuda_info() {
    static const CudaInfo info = probe();
    return info;
}

}  // namespace cascade

#include "cascade/error.h"
#include "names.h"

namespace cascade {

namespace {

constexpr Named<DeviceChoice> kDeviceChoices[] = {
    {DeviceChoice::automatic, "auto"}, {DeviceChoice::cpu, "cpu"}, {DeviceChoice::cuda, "cuda"}};

}  // namespace

DeviceChoice parse_device_choice(const std::string &text) {
    return parse_named(text, kDeviceChoices, "device");
}

std::vector<std::string> device_choice_names() { return names_of(kDeviceChoices); }

Device resolve_device(DeviceChoice choice) {
    if (choice == DeviceChoice::cpu) return Device::cpu;
    const bool built = has_variants(Device::cuda);
    const bool present = cuda_info().devices > 0;
    if (choice == DeviceChoice::automatic) return built && present ? Device::cuda : Device::cpu;
    if (!built)
        throw Error("--device cuda: this build has no CUDA variants (configured with CASCADE_CUDA=OFF)");
    if (!present) throw Error("--device cuda: no CUDA device available: " + cuda_info().reason);
    return Device::cuda;
}

Device plan_device(DeviceChoice choice) {
    if (choice == DeviceChoice::cuda && !has_variants(Device::cuda))
        throw Error("--device cuda: this build has no CUDA variants (configured with CASCADE_CUDA=OFF)");
    return choice == DeviceChoice::cuda ? Device::cuda : resolve_device(choice);
}

DeviceChoice choice_of(Device device) {
    return device == Device::cuda ? DeviceChoice::cuda : DeviceChoice::cpu;
}

}  // namespace cascade
