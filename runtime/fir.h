#pragma once
// Separable FIR filtering with run-time taps, the image zero outside (boundary `none`) or extended
// periodically, by `reflect` or by `mirror` (runtime/design/boundary_tables.h): the numerator pass of the
// Gaussians in cascade form (include/cascade/deriche.h).
#include <HalideBuffer.h>

#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/image.h"
#include "pipeline_call.h"
#include "variants.h"

namespace cascade {

// Taps of odd length 2R+1, tap R at the centre: out(y) = Σ_k taps[k]·in(y + k − R) down the
// columns, then the same along the rows with the horizontal taps.
struct SeparableFir {
    std::vector<double> vertical, horizontal;
};

// How the FIR sees past the image's edges: extended by a boundary (none: zeros), or read from a
// margin the input holds (its buffer's min at −radius(): IirPlan's margin).
enum class FirEdges { extended, margin };

// The taps bound to the variant that runs them (the smallest radius ≥ theirs, zero-padded).
// Throws cascade::Error for even or empty tap lists, non-finite taps, or when the build has no
// variant that wide, or for an extension other than none, periodic, reflect and mirror.
class FirPlan {
public:
    FirPlan(const SeparableFir &fir, Device device, Boundary extension = Boundary::none,
            FirEdges edges = FirEdges::extended);

    // How far past the edges it reads: the variant's radius.
    int radius() const { return variant_->key.order; }

    // On W×H×C float32 buffers where the caller keeps them (host, or device for a CUDA plan):
    // results stay where the pipeline leaves them.
    void run(halide_buffer_t *input, halide_buffer_t *output);

    // The variant's call on these buffers, every argument bound.
    PipelineCall call(halide_buffer_t *input, halide_buffer_t *output) const;

    const Variant &variant() const { return *variant_; }

private:
    const Variant *variant_;
    std::vector<float> vertical_, horizontal_;
    // Mutable: the pipeline call takes them non-const, and a CUDA call attaches their device copy.
    mutable Halide::Runtime::Buffer<float> vertical_buffer_, horizontal_buffer_;
};

// Applies `fir` to every channel of `input` on the device chosen; throws cascade::Error.
Image fir_2d(const Image &input, const SeparableFir &fir, DeviceChoice device = DeviceChoice::automatic);

}  // namespace cascade
