#pragma once
// Recursive filtering of long 1D signals (1×N or N×1, N up to 2^28 samples, several channels),
// block-parallel along the signal: Nehab et al. 2011's algorithm 1 (the causal pass) and 3 (the
// causal, then the anticausal pass), algebra/iir_line.h. Boundary `none` (zero feedbacks).
#include <HalideRuntime.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/filter.h"
#include "variants.h"

namespace cascade {

// The table of contract/line_layout.h for a signal of `length` samples in blocks of b, the
// carry completion in chunks of `chunk` over `levels` levels: Mc of a full block and of the last
// one (runtime/design/tile_matrices.h), and the powers of Mf and Mr, multiplied in double and rounded
// once. `sections` as the variant runs them (one order for all, the gain on the first).
std::vector<float> line_table(const std::vector<RecursiveFilter> &sections, int b, int chunk, int levels,
                              int64_t length);

// How a plan runs its passes. `blocks`: Nehab et al.'s algorithms 1 and 3, exact, two reads of the
// signal and a carry completion between them. `strips`: overlapped segments (generators/
// line_strips.h), one read and one write, for filters whose response decays below float32's
// rounding (runtime/strips.h's bound, as for the CPU's 2D strips) within the build's largest
// overlap. `automatic`: on CUDA the strips where they fit, else (and on the CPU) the blocks.
enum class LineMethod { automatic, blocks, strips };

// A filter bound to the variant that runs it on signals of one length, its coefficients and
// table computed once. `algorithm`: 1 (causal) or 3 (causal, then anticausal), by either method.
// Order 1 runs in direct form, higher orders as sections of order 2 (float32-accurate at any
// order, up to the build's section counts). A boundary other than none runs by strips, both
// passes (algorithm 3), on either device: the windows read the extension past the signal's ends.
// Throws cascade::Error for an unstable filter, a bad algorithm, length or boundary, or a missing
// variant (for the strips: none whose overlap fits the filter).
class LinePlan {
public:
    LinePlan(const RecursiveFilter &filter, int64_t length, int algorithm, Device device,
             LineMethod method = LineMethod::automatic, Boundary boundary = Boundary::none);
    ~LinePlan();
    LinePlan(const LinePlan &) = delete;
    LinePlan &operator=(const LinePlan &) = delete;

    // On (length × channels) float32 buffers where the caller keeps them (host, or the device
    // for a CUDA plan): results stay where the pipeline leaves them.
    void run(halide_buffer_t *input, halide_buffer_t *output);
    // On host buffers: for a CUDA plan, copied to the device and back.
    void run_host(halide_buffer_t *input, halide_buffer_t *output);

    const Variant &variant() const { return *variant_; }
    bool strips() const { return strips_; }

private:
    struct Call;
    const Variant *variant_;
    bool strips_ = false;
    Boundary boundary_ = Boundary::none;
    int64_t length_;
    std::unique_ptr<Call> call_;
};

// Filters each of `channels` planar channels of `length` samples (channel c at input + c·length)
// into `output` (the same layout, not overlapping `input`). Channels are split over several pipeline
// calls where one buffer would exceed the 2 GiB a pipeline can address.
void iir_line(const float *input, float *output, int64_t length, int channels, const RecursiveFilter &filter,
              int algorithm = 3, DeviceChoice device = DeviceChoice::automatic,
              LineMethod method = LineMethod::automatic, Boundary boundary = Boundary::none);

// Whether the build has a strips variant for `filter` under `boundary` (both passes) on `device`.
bool line_strips_fit(const RecursiveFilter &filter, Boundary boundary, Device device);

}  // namespace cascade
