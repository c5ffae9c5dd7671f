#pragma once
// What the baselines libraries give `cascade bench`. OpenCV's baselines and the CUDA ones (CUB,
// cuFFT) are shared libraries of their own, loaded with dlopen only when a bench case needs them
// (bench/baseline_libraries.h), so that the command line starts on machines without OpenCV and
// links nothing the filters do not need. Each library exports one C function that returns its
// table; everything else in it is hidden. Both sides are built by the same compiler from this
// header, so the tables may hold C++ types; the version guards against a library of another build.
#include <memory>
#include <string>

namespace cascade::baselines {

// Changed whenever a table below or Baseline changes.
inline constexpr int kModuleApiVersion = 1;

// One baseline made for one W×H float32 image (row-major, x fastest). Destroyed through this
// interface, so the library that made it must stay loaded (it is never unloaded).
class Baseline {
public:
    virtual ~Baseline() = default;
    // The timed call: `input` to `output`, host memory for OpenCV's, device memory for CUDA's
    // (enqueued on the legacy default stream, cuda_support.h).
    virtual void run(const float *input, float *output) = 0;
    // Copies the last run's result into `output` where run kept it elsewhere (OpenCV's integral
    // writes its own (W+1)×(H+1) table); untimed. Others leave `output` as run wrote it.
    virtual void result(float *output) const { (void)output; }
};

// libcascade_opencv_baselines.so: bench/baselines/opencv_baselines.h says what each does.
struct OpenCvBaselines {
    int version;  // kModuleApiVersion; first, so that any build can read it
    std::string (*description)();
    std::unique_ptr<Baseline> (*gaussian)(int width, int height, double sigma);
    std::unique_ptr<Baseline> (*integral)(int width, int height);
    double (*gaussian_self_check)(double sigma);
    double (*integral_self_check)();
};

// libcascade_cuda_baselines.so: cub_sat.h and cufft_gaussian.h say what each does.
struct CudaBaselines {
    int version;  // kModuleApiVersion; first, so that any build can read it
    std::unique_ptr<Baseline> (*cub_sat)(int width, int height);
    double (*cub_sat_self_check)();
    // Empty when the cuFFT Gaussian can run: the library was built with it and cuFFT loads.
    std::string (*cufft_unavailable_reason)();
    int (*cufft_version)();
    std::unique_ptr<Baseline> (*cufft_gaussian)(int width, int height, double sigma);
    double (*cufft_gaussian_self_check)(double sigma);
};

}  // namespace cascade::baselines

// The libraries' entry points, by these names; the only symbols they export.
#define CASCADE_OPENCV_BASELINES_ENTRY "cascade_opencv_baselines"
#define CASCADE_CUDA_BASELINES_ENTRY "cascade_cuda_baselines"
extern "C" {
__attribute__((visibility("default"))) const cascade::baselines::OpenCvBaselines *cascade_opencv_baselines();
__attribute__((visibility("default"))) const cascade::baselines::CudaBaselines *cascade_cuda_baselines();
}
