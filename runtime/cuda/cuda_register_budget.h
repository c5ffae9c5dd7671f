#pragma once
// The register budgets contract/register_budget.h marks, applied to a pipeline's PTX before
// Halide's CUDA runtime hands it to the driver: linked with -Wl,--wrap=halide_cuda_initialize_kernels
// (runtime/CMakeLists.txt, an option of the library and of what links it), every AOT pipeline's
// kernel setup passes through the wrapper in cuda_register_budget.cpp.
#include <string>
#include <string_view>

namespace cascade {

// `ptx` with a `.maxnreg N` directive after the parameter list of every entry whose name holds
// the mark and N; the rest unchanged. Throws std::invalid_argument on a mark without 1 to 3 digits or
// a budget outside [16, 255].
std::string apply_register_budgets(std::string_view ptx);

}  // namespace cascade
