// Halide 14 gives every kernel its shared memory as dynamic shared memory, sized at launch, and
// never opts a kernel in above the driver's default limit of 48 KB a block: cuLaunchKernel refuses
// more (CUDA_ERROR_INVALID_VALUE) unless the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
// allows it. Halide's runtime finds the driver's entry points through halide_cuda_get_symbol,
// declared weak; the strong definition below resolves them from libcuda.so.1 as Halide's would,
// and gives cuLaunchKernel a wrapper that opts a kernel in before its first launch above the
// limit. That lets a tile of 128 × 128 floats (64 KB) stay in one block's shared memory.
#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <unordered_set>

namespace {

using LaunchFn = int (*)(void *function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                         unsigned block_y, unsigned block_z, unsigned shared_bytes, void *stream,
                         void **params, void **extra);
using SetAttributeFn = int (*)(void *function, int attribute, int value);

constexpr int kMaxDynamicSharedSizeBytes = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr unsigned kDefaultSharedLimit = 48 * 1024;
constexpr int kInvalidValue = 1;  // CUDA_ERROR_INVALID_VALUE

LaunchFn driver_launch = nullptr;
SetAttributeFn driver_set_attribute = nullptr;

void *cuda_driver() {
    static void *const lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return lib;
}

int opt_in(void *function, unsigned shared_bytes) {
    return driver_set_attribute(function, kMaxDynamicSharedSizeBytes, int(shared_bytes));
}

int launch_with_shared_opt_in(void *function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                              unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                              void *stream, void **params, void **extra) {
    auto launch = [&] {
        return driver_launch(function, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
                             stream, params, extra);
    };
    if (shared_bytes <= kDefaultSharedLimit || !driver_set_attribute) return launch();
    {
        // Never destroyed: a pipeline may run from another static's destructor.
        static std::mutex lock;
        static auto &opted_in = *new std::unordered_set<void *>;
        std::lock_guard<std::mutex> guard(lock);
        if (!opted_in.count(function)) {
            if (const int error = opt_in(function, shared_bytes)) return error;
            opted_in.insert(function);
        }
    }
    int error = launch();
    // A handle seen before may name a kernel of a module loaded since (Halide unloads its modules
    // only when its device state is released): opt it in and try once more.
    if (error == kInvalidValue && opt_in(function, shared_bytes) == 0) error = launch();
    return error;
}

}  // namespace

extern "C" void *halide_cuda_get_symbol(void *, const char *name) {
    void *lib = cuda_driver();
    if (!lib) return nullptr;
    void *symbol = dlsym(lib, name);
    if (symbol && std::strcmp(name, "cuLaunchKernel") == 0) {
        driver_launch = reinterpret_cast<LaunchFn>(symbol);
        driver_set_attribute = reinterpret_cast<SetAttributeFn>(dlsym(lib, "cuFuncSetAttribute"));
        return reinterpret_cast<void *>(&launch_with_shared_opt_in);
    }
    return symbol;
}
