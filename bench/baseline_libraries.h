#pragma once
// The baselines libraries (baselines/module_api.h), loaded once, on first use, by the bench.
#include <string>

#include "bench/baselines/module_api.h"

namespace cascade {

// Why a baseline cannot run here: its note's first words ("unavailable": not on this device or
// machine; "not built": not in this build, or its library is missing or did not load) and why.
struct BaselineAbsence {
    std::string kind, reason;
    std::string note() const { return kind + ": " + reason; }
};

// The library's table, or null with `*absence` (where given) set. Looked for beside the executable (the build
// tree's `cascade`, a folder of binaries copied to a server), then in the install's
// CASCADE_BASELINES_INSTALL_DIR relative to it, then in the build tree's folder (the tests).
const baselines::OpenCvBaselines *opencv_baselines(BaselineAbsence *absence = nullptr);
const baselines::CudaBaselines *cuda_baselines(BaselineAbsence *absence = nullptr);

}  // namespace cascade
