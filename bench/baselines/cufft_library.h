#pragma once
// cuFFT, loaded at run time with dlopen instead of linked. Linking would tie the CUDA baselines
// library, the CUB baseline's too, to cuFFT: statically it adds a library the size of libcufft.so
// (about 280 MB), past what a binary may weigh to travel to a GPU server (docs/gpu.md);
// dynamically the library would not load on a server that has only the driver. Loaded, a missing
// cuFFT makes the `cufft-gaussian` case report itself unavailable, nothing more.
#include <cufft.h>

#include <string>

namespace cascade::baselines {

// The cuFFT functions the Gaussian baseline calls, with cuFFT's own signatures.
struct CufftApi {
    decltype(&cufftPlan2d) plan_2d;
    decltype(&cufftExecR2C) exec_r2c;
    decltype(&cufftExecC2R) exec_c2r;
    decltype(&cufftDestroy) destroy;
    decltype(&cufftGetVersion) get_version;
};

// Loads cuFFT once: the file named by the environment variable CASCADE_CUFFT_LIBRARY if set, else
// libcufft.so.<the major version of the cufft.h built against> through the dynamic loader's search
// (LD_LIBRARY_PATH, the ld.so cache). Returns null and sets `why` when it cannot be loaded.
const CufftApi *load_cufft(std::string &why);

}  // namespace cascade::baselines
