#pragma once
// A GPU kernel's register budget. Halide 14's CUDA runtime has the driver compile every kernel
// with at most 64 registers a thread (HL_CUDA_JIT_MAX_REGISTERS): the right cap for the passes
// over the image, which hide memory latency with warps, but kernels of few threads and much
// state (the carries' chunk scans) spill under it. Such a kernel's schedule names its outermost
// GPU block variable with register_budget_name(); the library (runtime/cuda/cuda_register_budget.h)
// finds the mark in the kernel's name in the PTX and gives that kernel a `.maxnreg` directive,
// which the driver's JIT honours over its cap. (H100, CUDA 13 driver: a kernel marked 128 gets 128
// registers and no local memory under the cap of 64, by cuFuncGetAttribute.) Plain C++, so that
// both sides include it.
#include <string>

namespace cascade {

// What follows the variable's name in a marked kernel's name, then the budget's digits.
inline constexpr const char *kRegisterBudgetMark = "_maxreg";

// The budget of a kernel a carry's chunk scans spill in: the most a thread may have (PTX's 255).
inline constexpr int kUncappedRegisters = 255;

inline std::string register_budget_name(const std::string &var, int registers) {
    return var + kRegisterBudgetMark + std::to_string(registers);
}

}  // namespace cascade
