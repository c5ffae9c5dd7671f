// The entry point of libcascade_cuda_baselines.so (module_api.h): the CUB SAT, and the cuFFT
// Gaussian where the build had cufft.h.
#include <memory>
#include <stdexcept>
#include <string>

#include "cub_sat.h"
#include "module_api.h"
#ifdef CASCADE_HAVE_CUFFT
#include "cufft_gaussian.h"
#endif

namespace cascade::baselines {

namespace {

// A baseline class with run(input, output) behind the library's interface.
template <class Impl>
class Adapted final : public Baseline {
public:
    template <class... Args>
    explicit Adapted(Args... args) : impl_(args...) {}
    void run(const float *input, float *output) override { impl_.run(input, output); }

private:
    Impl impl_;
};

#ifdef CASCADE_HAVE_CUFFT
std::string fft_unavailable_reason() { return cufft_unavailable_reason(); }
int fft_version() { return cufft_version(); }
std::unique_ptr<Baseline> fft_gaussian(int width, int height, double sigma) {
    return std::make_unique<Adapted<CufftGaussian>>(width, height, sigma);
}
double fft_self_check(double sigma) { return cufft_gaussian_self_check(sigma); }
#else
constexpr const char *kNoCufft =
    "this build has no cuFFT baseline (no cufft.h at configure time: cmake/CascadeCudaBaselines.cmake)";
std::string fft_unavailable_reason() { return kNoCufft; }
int fft_version() { throw std::runtime_error(kNoCufft); }
std::unique_ptr<Baseline> fft_gaussian(int, int, double) { throw std::runtime_error(kNoCufft); }
double fft_self_check(double) { throw std::runtime_error(kNoCufft); }
#endif

const CudaBaselines table = {
    kModuleApiVersion,
    [](int width, int height) -> std::unique_ptr<Baseline> {
        return std::make_unique<Adapted<CubSat>>(width, height);
    },
    cub_sat_self_check,
    fft_unavailable_reason,
    fft_version,
    fft_gaussian,
    fft_self_check,
};

}  // namespace

}  // namespace cascade::baselines

const cascade::baselines::CudaBaselines *cascade_cuda_baselines() { return &cascade::baselines::table; }
