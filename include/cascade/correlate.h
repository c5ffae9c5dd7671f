#pragma once
// One axis's FIR with run-time taps of any length (scipy.ndimage.correlate1d): along every line
// of one axis of a W×H×C image of float32 or float64 samples,
//
//     out[i] = Σ_j taps[j]·ext[i + j − center],   j ∈ [0, taps.size()),
//
// ext the line extended by a boundary (boundary.h; none is zero). A filter longer than the line
// reads the extension folded as often as it takes, as scipy does. The sums are in the samples'
// type: float64 images are filtered in float64 throughout.
//
// The output may be shorter than the input along the filtered axis: it holds out[0..m) of the
// input's line. With center 0 and m = n − taps.size() + 1 that is the correlation of the samples
// alone, no extension read ("valid"): a piece of a longer line filtered with a halo of its
// neighbours' samples (docs/dask.md), no sample computed twice.
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

// The lines filtered: `columns` down the height (numpy's axis −2 of an (N, H, W) array), `rows`
// along the width (axis −1).
enum class LineAxis { columns, rows };

// Taps, center and extension bound to the variant that runs them for one axis, sample type and
// device; any image size. Throws cascade::Error for empty or non-finite taps, a center outside
// [0, taps.size()), samples other than float32 and float64, or a build without the variant.
//
// Threads: run() and run_host() may be called on one plan from several threads at once. A CUDA
// plan's first call uploads its taps, alone; later calls only read them, in the CUDA context of
// that first call (cascade/cuda.h).
class CorrelatePlan {
public:
    CorrelatePlan(const std::vector<double> &taps, int center, LineAxis axis, Boundary boundary,
                  Device device, SampleType samples = SampleType::f32);
    ~CorrelatePlan();
    CorrelatePlan(const CorrelatePlan &) = delete;
    CorrelatePlan &operator=(const CorrelatePlan &) = delete;

    // On W×H×C buffers of the plan's sample type, the output of the input's shape (or shorter along
    // the filtered axis, above), where the caller
    // keeps them (host, or device for a CUDA plan): results stay where the pipeline leaves them.
    // Throws cascade::Error on other buffers or when the pipeline fails.
    void run(halide_buffer_t *input, halide_buffer_t *output);
    // On host buffers: for a CUDA plan, copied to the device and back.
    void run_host(halide_buffer_t *input, halide_buffer_t *output);

    SampleType samples() const { return samples_; }
    // The AOT pipeline it calls (internal).
    const Variant &variant() const { return *variant_; }

private:
    PipelineCall call(halide_buffer_t *input, halide_buffer_t *output) const;

    const Variant *variant_;
    SampleType samples_;
    int center_, extension_;
    LineAxis axis_;
    // Mutable: the pipeline call takes it non-const, and a CUDA call attaches its device copy.
    mutable Halide::Runtime::Buffer<> taps_;
    std::mutex first_run_;
    std::atomic<bool> warm_{false};
};

// The same on host W×H×C buffers of float32 or float64 (both of one type and shape), on the device
// chosen; throws cascade::Error.
void correlate1d(halide_buffer_t *input, halide_buffer_t *output, const std::vector<double> &taps, int center,
                 LineAxis axis, Boundary boundary, DeviceChoice device = DeviceChoice::automatic);
Image correlate1d(const Image &input, const std::vector<double> &taps, int center, LineAxis axis,
                  Boundary boundary, DeviceChoice device = DeviceChoice::automatic);

}  // namespace cascade
