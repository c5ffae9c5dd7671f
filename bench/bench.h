#pragma once
// Throughput of the pipelines and baselines against the machine's copy rate (`cascade bench`).
#include <functional>
#include <string>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/image.h"
#include "variants.h"

namespace cascade {

// σ of the bench's Gaussians: the recursive ones (iir ALG-order3, gaussian) and the FFT one
// (cufft-gaussian).
inline constexpr double kBenchGaussianSigma = 4.0;

struct BenchCase {
    // "copy", "sat", "cub-sat" (CUDA only), "iir", "gaussian", "cufft-gaussian" (CUDA only),
    // "cv-gaussian" or "cv-integral" (OpenCV on the CPU, where the build found it)
    std::string op;
    // sat: a parse_sat_algorithm name; iir: "<rt|4|5|6>-<order1|order3>"; gaussian: a
    // parse_gaussian_method name (vanvliet, deriche2, deriche4, twoway); else "". iir and
    // gaussian variants take a boundary other than none as a suffix: "rt-order1-clamp", and
    // before it 8/16-bit samples, converted inside the pipeline: "6-order1-u8", "vanvliet-u16-mirror".
    std::string variant;
    int width = 0, height = 0;
    Device device = Device::cpu;
    // op "realisation" (cascade tune): makes the timed call on the case's input and output
    // buffers (where the bench keeps them: on the device for CUDA); `variant` names it. 12 B/px.
    std::function<std::function<void()>(halide_buffer_t *input, halide_buffer_t *output)> make = nullptr;
};

struct BenchOptions {
    int warmup = 3;        // untimed calls first (a CUDA pipeline's first call costs 0.2–0.5 s)
    int repetitions = 30;  // timed calls; the median is reported
    // Above 1: each size's cases and its copy are timed in turn, repetitions / rounds calls each a
    // round, so that a drift of the machine's speed (this 2-core machine's: up to 30% within the
    // hour) reaches every case alike; their medians are then comparable.
    int rounds = 1;
    unsigned seed = 1;   // of the random input
    bool check = false;  // compare copy, sat, cub-sat and gaussian results with a double reference
};

struct BenchResult {
    BenchCase c;
    double median_ms;        // NaN when the case did not run (the note says why)
    double gips;             // W·H / 2^30 / median seconds
    double floor_fraction;   // gips ÷ the copy-rate floor: copy bytes/s ÷ bytes_per_pixel ÷ 2^30
    double bytes_per_pixel;  // the op's traffic model: bytes read + written per pixel
    std::string note;        // why it did not run ("unavailable: …", "not built: …", "failed: …"),
                             // or what else was seen (self-check, --check errors)
};

// True when the case ran and was timed.
bool measured(const BenchResult &result);

// Runs every case in this process. Cases of one size and device share their buffers (random
// values, on the device before timing) and one copy measurement, taken first, that sets the
// floor. A case that cannot run yields a result with a note, never an exception; invalid options
// throw cascade::Error.
std::vector<BenchResult> run_benchmark(const std::vector<BenchCase> &cases, const BenchOptions &options);

// The ops in their default order, and each op's variants (one empty name for ops with none).
const std::vector<std::string> &bench_ops();
std::vector<std::string> bench_variants(const std::string &op);
// copy, sat, cub-sat, cufft-gaussian, cv-gaussian, cv-integral: 8; iir, gaussian: 12, or for 8/16-bit samples
// 3 and 6.
double bench_bytes_per_pixel(const std::string &op, const std::string &variant = "");

// An iir or gaussian variant split into its name and suffixes: the samples' type ("-u8",
// "-u16"; float32 without) and then the boundary (none without one): "6-order1-u8-clamp".
struct BoundedVariant {
    std::string name;
    Boundary boundary = Boundary::none;
    SampleType samples = SampleType::f32;
};
BoundedVariant split_variant(const std::string &variant);

// Empty when CUDA cases can run here; otherwise why not.
std::string bench_cuda_unavailable_reason();

// Empty when the cufft-gaussian case can run here: CUDA cases can, the CUDA baselines library
// loads (baseline_libraries.h) and has the cuFFT baseline, and cuFFT loads
// (bench/baselines/cufft_library.h); otherwise why not.
std::string bench_cufft_unavailable_reason();

// Empty when the OpenCV baselines (cv-gaussian, cv-integral) can run on `device`: the CPU, in a
// build that found OpenCV, with their library loaded (baseline_libraries.h); otherwise why not.
std::string bench_opencv_unavailable_reason(Device device);

// An OpenCV baseline's self-check (op cv-gaussian or cv-integral) on a 67×45 random image: max
// |error| ÷ max |reference| against the same operation in double. Throws cascade::Error when it
// cannot run here.
double opencv_self_check_error(const std::string &op);

// The CUB baseline's self-check on a 67×45 random image: max |error| ÷ max |reference| against a
// double SAT. Throws cascade::Error, saying why, when it cannot run here.
double cub_sat_self_check_error();

// The cuFFT Gaussian's self-check on a 67×45 random image, σ = kBenchGaussianSigma: max |error| ÷
// max |reference| against a direct convolution in double with the same sampled kernel. Throws
// cascade::Error, saying why, when it cannot run here.
double cufft_gaussian_self_check_error();

}  // namespace cascade
