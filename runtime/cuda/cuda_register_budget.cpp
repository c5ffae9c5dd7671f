#include "cuda_register_budget.h"

#include <cstring>
#include <stdexcept>

#include "contract/register_budget.h"

namespace cascade {

std::string apply_register_budgets(std::string_view ptx) {
    static constexpr std::string_view kEntry = ".entry ";
    const std::string_view mark = kRegisterBudgetMark;
    std::string out;
    out.reserve(ptx.size() + 256);
    size_t copied = 0;
    for (size_t at = ptx.find(kEntry); at != std::string_view::npos; at = ptx.find(kEntry, at + 1)) {
        const size_t name = at + kEntry.size();
        const size_t open = ptx.find('(', name), close = ptx.find(')', name);
        if (open == std::string_view::npos || close == std::string_view::npos) break;
        const std::string_view kernel = ptx.substr(name, open - name);
        const size_t m = kernel.find(mark);
        if (m == std::string_view::npos) continue;
        size_t digits = m + mark.size(), end = digits;
        while (end < kernel.size() && kernel[end] >= '0' && kernel[end] <= '9') end++;
        if (end == digits || end - digits > 3)
            throw std::invalid_argument("kernel " + std::string(kernel) +
                                        ": a register mark without a budget of 1 to 3 digits");
        const int budget = std::stoi(std::string(kernel.substr(digits, end - digits)));
        if (budget < 16 || budget > 255)
            throw std::invalid_argument("kernel " + std::string(kernel) +
                                        ": a register budget outside [16, 255]");
        out.append(ptx.substr(copied, close + 1 - copied));
        out.append("\n.maxnreg " + std::to_string(budget));
        copied = close + 1;
    }
    out.append(ptx.substr(copied));
    return out;
}

}  // namespace cascade

#ifdef CASCADE_HAVE_CUDA_VARIANTS
#include <HalideRuntime.h>

#include <mutex>
#include <unordered_map>

// Halide's runtime's own; the link's --wrap routes every pipeline's call to the wrapper below.
extern "C" int __real_halide_cuda_initialize_kernels(void *user_context, void **state_ptr, const char *src,
                                                     int size);

extern "C" int __wrap_halide_cuda_initialize_kernels(void *user_context, void **state_ptr, const char *src,
                                                     int size) {
    // Halide calls this at every run of a pipeline (its module cache answers the later ones), so
    // each pipeline's PTX, a static array of its object, is rewritten once and kept.
    // (Never destroyed: a pipeline may run from another static's destructor.)
    static std::mutex lock;
    static auto &budgeted = *new std::unordered_map<const char *, std::string>;
    const char *ptx = nullptr;
    {
        std::lock_guard<std::mutex> guard(lock);
        auto found = budgeted.find(src);
        if (found == budgeted.end()) {
            try {
                // The driver reads the PTX up to its NUL; Halide's size counts it.
                std::string text =
                    cascade::apply_register_budgets(std::string_view(src, strnlen(src, size_t(size))));
                found = budgeted.emplace(src, std::move(text)).first;
            } catch (const std::exception &e) {
                halide_error(user_context, e.what());
                return halide_error_code_generic_error;
            }
        }
        ptx = found->second.c_str();
        size = int(found->second.size() + 1);
    }
    return __real_halide_cuda_initialize_kernels(user_context, state_ptr, ptx, size);
}
#endif
