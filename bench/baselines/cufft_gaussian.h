#pragma once
// A Gaussian blur by FFT convolution with cuFFT: the baseline `cascade bench` sets beside the
// recursive Gaussian (op cufft-gaussian, docs/bench.md). Runs on device 0's primary context and the
// legacy default stream, like the other baselines (cub_sat.h), so the bench's events time it.
// Plain C++ API: no CUDA header is needed to call it. Failures throw std::runtime_error.
#include <string>

namespace cascade::baselines {

// Empty when cuFFT can be loaded here (it is loaded at run time: cufft_library.h); else why not.
std::string cufft_unavailable_reason();

// The loaded cuFFT's version (cufftGetVersion, e.g. 12000); throws when it cannot be loaded.
int cufft_version();

// The W×H float32 image (row-major, x fastest) convolved along both axes with the sampled
// Gaussian, zero outside the image. Taps k = −r..r, r = ⌈4σ⌉, weights exp(−k²/2σ²) normalised to
// sum 1 (the weight beyond 4σ, left out, is about 6e-5 per axis). Per call: the image is copied into the
// top-left corner of a Px×Py buffer whose other cells stay zero; a real-to-complex FFT; each coefficient
// times the kernel's spectrum, 1/(Px·Py) folded in; an in-place complex-to-real FFT; the W×H corner copied
// out. Px ≥ W + r and Py ≥ H + r, so the cyclic convolution's wrap-around reads only zeros; each is the
// smallest even 2^a·3^b·5^c·7^d at least that, sizes cuFFT transforms fast. The spectrum is separable and
// real (the kernel is even): its two axis factors are computed in double, once.
class CufftGaussian {
public:
    CufftGaussian(int width, int height, double sigma);
    ~CufftGaussian();
    CufftGaussian(const CufftGaussian &) = delete;
    CufftGaussian &operator=(const CufftGaussian &) = delete;

    // Enqueues the blur of `input` into `output` (device pointers, W×H, not aliased) on the
    // default stream.
    void run(const float *input, float *output);

    int padded_width() const { return padded_width_; }
    int padded_height() const { return padded_height_; }

private:
    void release();  // frees what was made; safe on a partly made object

    int width_, height_, padded_width_, padded_height_;
    int forward_ = 0, inverse_ = 0;  // cufftHandle (an int): plans made once, here
    float *padded_ = nullptr;        // Px×Py real input: the image in its corner, zeros elsewhere
    void *spectrum_ = nullptr;       // Py×(Px/2+1) complex, then (in place) the real result
    float *factor_x_ = nullptr, *factor_y_ = nullptr;  // the spectrum's axis factors
};

// Blurs a seeded random 67×45 image with CufftGaussian (twice, after another image, so leftovers
// between calls would show) and compares with a direct convolution with the same taps in double
// on the host. Returns the maximum absolute error divided by the largest reference value.
double cufft_gaussian_self_check(double sigma);

}  // namespace cascade::baselines
