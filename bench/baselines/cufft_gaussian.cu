#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "cuda_support.h"
#include "cufft_gaussian.h"
#include "cufft_library.h"
#include "self_check.h"

namespace cascade::baselines {

namespace {

using baselines::check;  // the CUDA runtime's, beside cuFFT's below

void check(cufftResult status, const char *what) {
    // The numbers are cufftResult's, listed in cufft.h.
    if (status != CUFFT_SUCCESS)
        throw std::runtime_error(std::string(what) + ": cufftResult " + std::to_string(status));
}

const CufftApi &cufft() {
    std::string why;
    const CufftApi *api = load_cufft(why);
    if (!api) throw std::runtime_error(why);
    return *api;
}

// exp(−k²/2σ²) for k = 0..⌈4σ⌉, normalised so that the taps of −r..r sum to 1.
std::vector<double> gaussian_taps(double sigma) {
    if (!(sigma > 0 && sigma <= 1000)) throw std::runtime_error("CufftGaussian: sigma must be in (0, 1000]");
    std::vector<double> taps(size_t(std::ceil(4 * sigma)) + 1);
    double sum = 0;
    for (size_t k = 0; k < taps.size(); k++) {
        taps[k] = std::exp(-0.5 * double(k * k) / (sigma * sigma));
        sum += k ? 2 * taps[k] : taps[k];
    }
    for (double &t : taps) t /= sum;
    return taps;
}

// The smallest even 2^a·3^b·5^c·7^d ≥ n: cuFFT's fast radices.
int fast_size(int n) {
    for (int m = std::max(n + (n & 1), 2);; m += 2) {
        int rest = m;
        for (int p : {2, 3, 5, 7})
            while (rest % p == 0) rest /= p;
        if (rest == 1) return m;
    }
}

// The DFT of the cyclic kernel of `period` cells holding the taps at ±k, for frequencies
// 0..count−1, times `scale`. Real, because the kernel is even.
std::vector<float> axis_spectrum(const std::vector<double> &taps, int period, int count, double scale) {
    std::vector<float> factor(count);
    const double step = 2 * 3.141592653589793238 / period;
    for (int u = 0; u < count; u++) {
        double sum = taps[0];
        // u·k reduced modulo the period first: the cosine's argument stays below 2π.
        for (size_t k = 1; k < taps.size(); k++)
            sum += 2 * taps[k] * std::cos(step * double((long(u) * long(k)) % period));
        factor[u] = float(sum * scale);
    }
    return factor;
}

// Sets `data` before copying, so a failed copy leaves the allocation to the caller's release().
void device_floats(float *&data, const std::vector<float> &host) {
    check(cudaMalloc(&data, host.size() * sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(data, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy to the device");
}

// Coefficient (u, v) of the half spectrum times factor_x[u]·factor_y[v]. A block row of threads
// walks along u (coalesced); blocks stride over v, since grids have at most 65535 rows.
__global__ void multiply_spectrum(float2 *__restrict__ spectrum, const float *__restrict__ factor_x,
                                  const float *__restrict__ factor_y, int columns, int rows) {
    const int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= columns) return;
    const float fx = factor_x[u];
    for (int v = blockIdx.y; v < rows; v += gridDim.y) {
        const float s = fx * factor_y[v];
        float2 &c = spectrum[size_t(v) * columns + u];
        c.x *= s;
        c.y *= s;
    }
}

}  // namespace

std::string cufft_unavailable_reason() {
    std::string why;
    load_cufft(why);
    return why;
}

int cufft_version() {
    int version = 0;
    check(cufft().get_version(&version), "cufftGetVersion");
    return version;
}

CufftGaussian::CufftGaussian(int width, int height, double sigma) : width_(width), height_(height) {
    const std::vector<double> taps = gaussian_taps(sigma);
    const int r = int(taps.size()) - 1;
    if (width < 1 || height < 1 || width > (1 << 28) || height > (1 << 28))
        throw std::runtime_error("CufftGaussian: each side must be 1 to 2^28 pixels");
    padded_width_ = fast_size(width + r);
    padded_height_ = fast_size(height + r);
    const size_t columns = padded_width_ / 2 + 1, cells = size_t(padded_width_) * padded_height_;
    if (double(columns) * 2 * padded_height_ > 2147483647.0)
        throw std::runtime_error("CufftGaussian: the padded image must hold fewer than 2^31 values");
    const CufftApi &api = cufft();
    try {
        check(cudaMalloc(&padded_, cells * sizeof(float)), "cudaMalloc");
        // The zeros around the image are written once: no call writes outside its corner.
        check(cudaMemset(padded_, 0, cells * sizeof(float)), "cudaMemset");
        check(cudaMalloc(&spectrum_, columns * padded_height_ * sizeof(float2)), "cudaMalloc");
        device_floats(factor_x_, axis_spectrum(taps, padded_width_, int(columns), 1.0));
        // The inverse FFT is unnormalised: its 1/N rides on the y factor.
        device_floats(factor_y_, axis_spectrum(taps, padded_height_, padded_height_, 1.0 / double(cells)));
        // cufftPlan2d takes the slowest axis first.
        check(api.plan_2d(&forward_, padded_height_, padded_width_, CUFFT_R2C), "cufftPlan2d (R2C)");
        check(api.plan_2d(&inverse_, padded_height_, padded_width_, CUFFT_C2R), "cufftPlan2d (C2R)");
    } catch (...) {
        release();
        throw;
    }
}

CufftGaussian::~CufftGaussian() { release(); }

void CufftGaussian::release() {
    std::string why;
    if (const CufftApi *api = load_cufft(why)) {
        if (forward_) api->destroy(forward_);
        if (inverse_) api->destroy(inverse_);
    }
    forward_ = inverse_ = 0;
    for (void *p : {static_cast<void *>(padded_), spectrum_, static_cast<void *>(factor_x_),
                    static_cast<void *>(factor_y_)})
        cudaFree(p);
    padded_ = factor_x_ = factor_y_ = nullptr;
    spectrum_ = nullptr;
}

void CufftGaussian::run(const float *input, float *output) {
    const CufftApi &api = cufft();
    const size_t row = size_t(width_) * sizeof(float);
    const int columns = padded_width_ / 2 + 1;
    check(cudaMemcpy2DAsync(padded_, size_t(padded_width_) * sizeof(float), input, row, row, height_,
                            cudaMemcpyDeviceToDevice, 0),
          "cudaMemcpy2DAsync (pad)");
    auto *spectrum = static_cast<cufftComplex *>(spectrum_);
    check(api.exec_r2c(forward_, padded_, spectrum), "cufftExecR2C");
    const dim3 block(256), grid((columns + 255) / 256, std::min(padded_height_, 65535));
    multiply_spectrum<<<grid, block>>>(spectrum, factor_x_, factor_y_, columns, padded_height_);
    check(cudaGetLastError(), "launching the spectrum multiply");
    // In place, the real result's rows are 2·(Px/2+1) floats apart (cuFFT's padded layout).
    auto *result = reinterpret_cast<cufftReal *>(spectrum);
    check(api.exec_c2r(inverse_, spectrum, result), "cufftExecC2R");
    check(cudaMemcpy2DAsync(output, row, result, 2 * size_t(columns) * sizeof(float), row, height_,
                            cudaMemcpyDeviceToDevice, 0),
          "cudaMemcpy2DAsync (crop)");
}

double cufft_gaussian_self_check(double sigma) {
    // Odd sizes, padded (at σ = 4) to 84×64: the axes differ in size and in their factors.
    const int w = 67, h = 45;
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> input(size_t(w) * h), other(input.size()), output(input.size());
    for (float &v : input) v = uniform(rng);
    for (float &v : other) v = uniform(rng) + 1.0f;
    // Separable direct convolution in double, zero outside the image: columns, then rows.
    const std::vector<double> taps = gaussian_taps(sigma);
    const int r = int(taps.size()) - 1;
    std::vector<double> columns(input.size()), reference(input.size());
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int k = -r; k <= r; k++)
                if (y + k >= 0 && y + k < h)
                    columns[size_t(y) * w + x] += taps[std::abs(k)] * input[size_t(y + k) * w + x];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int k = -r; k <= r; k++)
                if (x + k >= 0 && x + k < w)
                    reference[size_t(y) * w + x] += taps[std::abs(k)] * columns[size_t(y) * w + x + k];
    DeviceArray in(input.size() * sizeof(float)), out(input.size() * sizeof(float));
    CufftGaussian blur(w, h, sigma);
    auto run = [&](const std::vector<float> &image) {
        in.upload(image.data());
        blur.run(static_cast<const float *>(in.data()), static_cast<float *>(out.data()));
    };
    run(other);
    run(input);
    out.download(output.data());
    return max_relative_error(output, reference);
}

}  // namespace cascade::baselines
