// By default Halide's CUDA runtime creates a context of its own. Work in it is invisible to CUDA
// events, CUB calls and cudaMalloc'ed memory, which use the device's primary context. Halide
// declares its context and stream hooks weak; the strong definitions below replace them in the
// runtime library, so that every pipeline runs in the primary context on the legacy default
// stream, or in what a cascade::cuda::Scope (cascade/cuda.h) names on the calling thread.
#include "cuda_context.h"

#include <HalideRuntime.h>
#include <dlfcn.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "cascade/cuda.h"
#include "cascade/error.h"

namespace cascade {

namespace {

// Trivially destructible: Halide's exit-time cleanup calls the hooks after static destructors.
struct PrimaryContext {
    void *context = nullptr;
    const char *error = nullptr;
};

PrimaryContext retain_primary_context(int ordinal) {
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
    if (get(&device, ordinal) != 0) return {nullptr, "the CUDA driver sees no such device"};
    if (retain(&context, device) != 0 || !context) return {nullptr, "cuDevicePrimaryCtxRetain failed"};
    return {context, nullptr};  // kept for the life of the process, as the runtime API keeps it
}

std::atomic<bool> retained{false};

const PrimaryContext &primary_context() {
    static const PrimaryContext primary = retain_primary_context(0);
    retained = true;
    return primary;
}

// The calling thread's Scope, if any: pipelines run synchronously on the thread that calls them,
// so the hooks below see the caller's choice.
struct ThreadChoice {
    bool set = false;
    void *stream = nullptr, *context = nullptr;
};
thread_local ThreadChoice chosen;

}  // namespace

std::string share_cuda_context_with_halide() {
    const PrimaryContext &primary = primary_context();
    return primary.error ? primary.error : "";
}

namespace cuda {

void *primary_context(int device) {
    if (device == 0) {
        const PrimaryContext &primary = cascade::primary_context();
        if (primary.error) throw Error(primary.error);
        return primary.context;
    }
    static std::mutex mutex;
    static std::map<int, void *> &contexts = *new std::map<int, void *>;  // never destroyed: see above
    std::lock_guard<std::mutex> lock(mutex);
    auto it = contexts.find(device);
    if (it != contexts.end()) return it->second;
    const PrimaryContext primary = retain_primary_context(device);
    if (primary.error) throw Error(std::string(primary.error) + " (device " + std::to_string(device) + ")");
    return contexts[device] = primary.context;
}

Scope::Scope(void *stream, void *context)
    : previous_stream_(chosen.stream), previous_context_(chosen.context), previous_set_(chosen.set) {
    chosen = {true, stream, context};
}

Scope::~Scope() { chosen = {previous_set_, previous_stream_, previous_context_}; }

}  // namespace cuda

}  // namespace cascade

extern "C" {

// `create` is false only when Halide releases its device state (at exit): nothing to hand back
// then unless the context was retained already.
int halide_cuda_acquire_context(void *user_context, void **context, bool create) {
    if (cascade::chosen.set && cascade::chosen.context) {
        *context = cascade::chosen.context;
        return 0;
    }
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

// The contexts are the caller's or the shared, thread-safe primary one: nothing to release.
int halide_cuda_release_context(void *) { return 0; }

// The Scope's stream, else the legacy default stream: the stream of cudaEventRecord(e, 0),
// cudaMemcpyAsync(..., 0) and CUB's default.
int halide_cuda_get_stream(void *, void *, void **stream) {
    *stream = cascade::chosen.set ? cascade::chosen.stream : nullptr;
    return 0;
}

}  // extern "C"
