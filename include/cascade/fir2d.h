#pragma once
// A separable 2D FIR with run-time taps (scipy.ndimage's gaussian_filter and uniform_filter at
// small sizes, correlate1d down the columns then along the rows) in one pass over a W×H×C image
// of float32 or float64 samples:
//
//     columns(x, y) = Σ_j taps_y[j]·ext(x, y + j − center_y),
//     out(x, y)     = Σ_j taps_x[j]·columns(x + j − center_x, y),
//
// ext the image extended by a boundary (boundary.h; none is zero), folded as often as it takes
// where a line is shorter than the filter, as scipy does. The sums are in the samples' type.
//
// The pipelines are built for a few radii R (8, 16, 32 in the default catalogue): a plan runs
// the smallest whose taps reach as far as its own on both sides of the centre on both axes,
// its taps zero-padded. Filters reaching further take cascade/correlate.h, an axis at a time.
#include <HalideBuffer.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/image.h"

namespace cascade {

struct Variant;  // runtime internals: the AOT pipeline a plan calls
class PipelineCall;

// Both axes' taps and centres and the extension bound to the variant that runs them for one
// sample type and device; any image size. Throws cascade::Error for empty or non-finite taps, a
// centre outside its taps, samples other than float32 and float64, or a reach (the larger of
// center and taps.size() − 1 − center, over both axes) beyond every radius this build holds.
//
// Threads: run() and run_host() may be called on one plan from several threads at once. A CUDA
// plan's first call uploads its taps, alone; later calls only read them, in the CUDA context of
// that first call (cascade/cuda.h).
class Fir2dPlan {
public:
    Fir2dPlan(const std::vector<double> &taps_y, int center_y, const std::vector<double> &taps_x,
              int center_x, Boundary boundary, Device device, SampleType samples = SampleType::f32);
    ~Fir2dPlan();
    Fir2dPlan(const Fir2dPlan &) = delete;
    Fir2dPlan &operator=(const Fir2dPlan &) = delete;

    // On W×H×C buffers of the plan's sample type, the output of the input's shape and not the
    // input's memory, where the caller keeps them (host, or device for a CUDA plan): results stay
    // where the pipeline leaves them. Throws cascade::Error on other buffers or when the pipeline
    // fails.
    void run(halide_buffer_t *input, halide_buffer_t *output);
    // On host buffers: for a CUDA plan, copied to the device and back.
    void run_host(halide_buffer_t *input, halide_buffer_t *output);

    // The radius of the variant it runs: how far past the edges its taps are padded to.
    int radius() const;
    SampleType samples() const { return samples_; }
    // The AOT pipeline it calls (internal).
    const Variant &variant() const { return *variant_; }

private:
    PipelineCall call(halide_buffer_t *input, halide_buffer_t *output) const;

    const Variant *variant_;
    SampleType samples_;
    int extension_;
    // Mutable: the pipeline call takes them non-const, and a CUDA call attaches their device copy.
    mutable Halide::Runtime::Buffer<> taps_y_, taps_x_;
    std::mutex first_run_;
    std::atomic<bool> warm_{false};
};

// The furthest reach a Fir2dPlan takes for `samples` on `device`: the largest radius this build
// holds (0: none).
int fir2d_largest_radius(Device device, SampleType samples);

// The same on host W×H×C buffers of float32 or float64 (both of one type and shape), on the device
// chosen; throws cascade::Error.
void fir2d(halide_buffer_t *input, halide_buffer_t *output, const std::vector<double> &taps_y, int center_y,
           const std::vector<double> &taps_x, int center_x, Boundary boundary,
           DeviceChoice device = DeviceChoice::automatic);
Image fir2d(const Image &input, const std::vector<double> &taps_y, int center_y,
            const std::vector<double> &taps_x, int center_x, Boundary boundary,
            DeviceChoice device = DeviceChoice::automatic);

}  // namespace cascade
