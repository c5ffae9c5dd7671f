#include "opencv_baselines.h"

#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <vector>

#include "self_check.h"

namespace cascade::baselines {

namespace {

constexpr int kCheckWidth = 67, kCheckHeight = 45;

std::vector<float> random_image(int width, int height) {
    std::mt19937 generator(7);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> image(size_t(width) * height);
    for (float &v : image) v = uniform(generator);
    return image;
}

// OpenCV's reflect-101: … 2 1 | 0 1 2 … n−1 | n−2 …
int reflect101(int i, int n) {
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
    return i;
}

}  // namespace

std::string opencv_description() {
    return std::string("OpenCV ") + CV_VERSION + ", " + std::to_string(cv::getNumThreads()) + " threads";
}

struct OpenCvGaussian::State {
    int width, height;
    double sigma;
};

OpenCvGaussian::OpenCvGaussian(int width, int height, double sigma)
    : state_(new State{width, height, sigma}) {}
OpenCvGaussian::~OpenCvGaussian() = default;

void OpenCvGaussian::run(const float *input, float *output) {
    const cv::Mat in(state_->height, state_->width, CV_32F, const_cast<float *>(input));
    cv::Mat out(state_->height, state_->width, CV_32F, output);
    cv::GaussianBlur(in, out, cv::Size(0, 0), state_->sigma, state_->sigma);
}

struct OpenCvIntegral::State {
    cv::Mat table;
};

OpenCvIntegral::OpenCvIntegral(int width, int height) : state_(new State) {
    state_->table.create(height + 1, width + 1, CV_32F);
}
OpenCvIntegral::~OpenCvIntegral() = default;

void OpenCvIntegral::run(const float *input) {
    const cv::Mat in(state_->table.rows - 1, state_->table.cols - 1, CV_32F, const_cast<float *>(input));
    cv::integral(in, state_->table, CV_32F);
}

void OpenCvIntegral::inclusive(float *output) const {
    const int width = state_->table.cols - 1, height = state_->table.rows - 1;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) output[size_t(y) * width + x] = state_->table.at<float>(y + 1, x + 1);
}

double opencv_gaussian_self_check(double sigma) {
    const int width = kCheckWidth, height = kCheckHeight;
    const std::vector<float> input = random_image(width, height);
    std::vector<float> output(input.size());
    OpenCvGaussian(width, height, sigma).run(input.data(), output.data());
    // The kernel cv::GaussianBlur makes for float images at ksize 0.
    const int size = cvRound(sigma * 4 * 2 + 1) | 1, radius = size / 2;
    std::vector<double> taps(size);
    double total = 0;
    for (int i = 0; i < size; i++)
        total += taps[i] = std::exp(-0.5 * (i - radius) * (i - radius) / (sigma * sigma));
    for (double &t : taps) t /= total;
    std::vector<double> rows(input.size()), reference(input.size());
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            double sum = 0;
            for (int i = 0; i < size; i++)
                sum += taps[i] * input[size_t(y) * width + reflect101(x + i - radius, width)];
            rows[size_t(y) * width + x] = sum;
        }
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            double sum = 0;
            for (int i = 0; i < size; i++)
                sum += taps[i] * rows[size_t(reflect101(y + i - radius, height)) * width + x];
            reference[size_t(y) * width + x] = sum;
        }
    return max_relative_error(output, reference);
}

double opencv_integral_self_check() {
    const int width = kCheckWidth, height = kCheckHeight;
    const std::vector<float> input = random_image(width, height);
    std::vector<float> output(input.size());
    OpenCvIntegral integral(width, height);
    integral.run(input.data());
    integral.inclusive(output.data());
    std::vector<double> reference(input.size()), above(width, 0.0);
    for (int y = 0; y < height; y++) {
        double row = 0;
        for (int x = 0; x < width; x++) {
            row += input[size_t(y) * width + x];
            reference[size_t(y) * width + x] = above[x] += row;
        }
    }
    return max_relative_error(output, reference);
}

}  // namespace cascade::baselines
