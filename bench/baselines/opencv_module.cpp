// The entry point of libcascade_opencv_baselines.so (module_api.h).
#include <memory>

#include "module_api.h"
#include "opencv_baselines.h"

namespace cascade::baselines {

namespace {

class Gaussian final : public Baseline {
public:
    Gaussian(int width, int height, double sigma) : blur_(width, height, sigma) {}
    void run(const float *input, float *output) override { blur_.run(input, output); }

private:
    OpenCvGaussian blur_;
};

class Integral final : public Baseline {
public:
    Integral(int width, int height) : table_(width, height) {}
    void run(const float *input, float *) override { table_.run(input); }
    void result(float *output) const override { table_.inclusive(output); }

private:
    OpenCvIntegral table_;
};

const OpenCvBaselines table = {
    kModuleApiVersion,
    opencv_description,
    [](int width, int height, double sigma) -> std::unique_ptr<Baseline> {
        return std::make_unique<Gaussian>(width, height, sigma);
    },
    [](int width, int height) -> std::unique_ptr<Baseline> {
        return std::make_unique<Integral>(width, height);
    },
    opencv_gaussian_self_check,
    opencv_integral_self_check,
};

}  // namespace

}  // namespace cascade::baselines

const cascade::baselines::OpenCvBaselines *cascade_opencv_baselines() { return &cascade::baselines::table; }
