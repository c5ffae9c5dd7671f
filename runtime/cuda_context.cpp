// By default Halide's CUDA runtime creates a context of its own. Work in it is invisible to CUDA
// events and CUB calls, which use the device's primary context, and device pointers do not cross
// over. Halide declares its context and stream hooks weak; the strong definitions below replace
// them in every binary that links this file (any that links the bench). The bench calls
// share_cuda_context_with_halide(), which pulls this object out of the static library.
#include "cuda_context.h"

#ifdef CASCADE_HAVE_CUDA_RUNTIME

#include <HalideRuntime.h>
#include <dlfcn.h>

#include <atomic>

namespace cascade {

namespace {

// Trivially destructible: Halide's exit-time cleanup calls the hooks after static destructors.
struct PrimaryContext {
    void *context = nullptr;
    const char *error = nullptr;
};

PrimaryContext retain_primary_context() {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return {nullptr, "no CUDA driver (libcuda.so.1 not found)"};
    using InitFn = int (*)(unsigned);
    using GetFn = int (*)(int *, int);
    using RetainFn = int (*)(void **, int);
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
    auto get = reinterpret_cast<GetFn>(dlsym(lib, "cuDeviceGet"));
    auto retain = reinterpret_cast<RetainFn>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
    if (!init || !get || !retain) return {nullptr, "the CUDA driver lacks cuDevicePrimaryCtxRetain"};
    int device = 0;
    void *context = nullptr;
    if (init(0) != 0) return {nullptr, "the CUDA driver failed to initialise"};
    if (get(&device, 0) != 0) return {nullptr, "the CUDA driver sees no device 0"};
    if (retain(&context, device) != 0 || !context)
        return {nullptr, "cuDevicePrimaryCtxRetain failed on device 0"};
    return {context, nullptr};  // kept for the life of the process, as the runtime API keeps it
}

std::atomic<bool> retained{false};

const PrimaryContext &primary_context() {
    static const PrimaryContext primary = retain_primary_context();
    retained = true;
    return primary;
}

}  // namespace

std::string share_cuda_context_with_halide() {
    const PrimaryContext &primary = primary_context();
    return primary.error ? primary.error : "";
}

}  // namespace cascade

extern "C" {

// `create` is false only when Halide releases its device state (at exit): nothing to hand back
// then unless the context was retained already.
int halide_cuda_acquire_context(void *user_context, void **context, bool create) {
    if (!create && !cascade::retained) {
        *context = nullptr;
        return 0;
    }
    const cascade::PrimaryContext &primary = cascade::primary_context();
    *context = primary.context;
    if (primary.error) {
        halide_error(user_context, primary.error);
        return halide_error_code_generic_error;
    }
    return 0;
}

// The primary context is shared and thread-safe: nothing to release, no lock to hold.
int halide_cuda_release_context(void *) { return 0; }

// The legacy default stream: the stream of cudaEventRecord(e, 0), cudaMemcpyAsync(..., 0) and
// CUB's default.
int halide_cuda_get_stream(void *, void *, void **stream) {
    *stream = nullptr;
    return 0;
}

}  // extern "C"

#else

namespace cascade {

std::string share_cuda_context_with_halide() {
    return "this build has no CUDA runtime (no CUDA compiler was found at configure time)";
}

}  // namespace cascade

#endif
