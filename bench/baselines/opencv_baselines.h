#pragma once
// OpenCV's CPU Gaussian and integral image, timed beside Cascade's CPU pipelines (`cascade bench
// --op cv-gaussian,cv-integral`). Built only where CMake finds OpenCV (bench/CMakeLists.txt), into
// libcascade_opencv_baselines.so, the one binary that links OpenCV (module_api.h).
#include <memory>
#include <string>

namespace cascade::baselines {

// The OpenCV version the bench was built against, and the threads its parallel loops use.
std::string opencv_description();

// cv::GaussianBlur of a W×H float32 image at σ (OpenCV's own kernel size for float images, the odd
// size nearest 8σ + 1, and its default border, reflect-101), into a W×H float32 image.
class OpenCvGaussian {
public:
    OpenCvGaussian(int width, int height, double sigma);
    ~OpenCvGaussian();
    void run(const float *input, float *output);

private:
    struct State;
    std::unique_ptr<State> state_;
};

// cv::integral float32 → float32: OpenCV's (W+1)×(H+1) table with a zero first row and column,
// into a table the object holds (made once); `output` gets its W×H inclusive part, copied outside
// the timed call by `inclusive`.
class OpenCvIntegral {
public:
    OpenCvIntegral(int width, int height);
    ~OpenCvIntegral();
    void run(const float *input);
    void inclusive(float *output) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// max |output − reference| ÷ max |reference| on a 67×45 random image: cv::GaussianBlur against
// the same sampled kernel in double (reflect-101), and cv::integral against a double SAT.
double opencv_gaussian_self_check(double sigma);
double opencv_integral_self_check();

}  // namespace cascade::baselines
