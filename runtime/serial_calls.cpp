// SerialCalls (cascade/device.h): the Halide runtime's parallel loops, run in order on the calling
// thread where its scope asks, by the runtime's hook for them.
#include <HalideRuntime.h>

#include <mutex>

#include "cascade/device.h"

namespace cascade {

namespace {

thread_local bool serial = false;
halide_do_par_for_t pooled = nullptr;

int par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    if (!serial) return pooled(user_context, task, min, size, closure);
    for (int i = min; i < min + size; i++)
        if (int error = task(user_context, i, closure)) return error;
    return 0;
}

}  // namespace

SerialCalls::SerialCalls() : previous_(serial) {
    static std::once_flag installed;
    std::call_once(installed, [] { pooled = halide_set_custom_do_par_for(par_for); });
    serial = true;
}

SerialCalls::~SerialCalls() { serial = previous_; }

}  // namespace cascade
