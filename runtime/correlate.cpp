#include "cascade/correlate.h"

#include <cmath>
#include <string>

#include "cascade/error.h"
#include "cascade/planes.h"
#include "pipeline_call.h"
#include "variants.h"

namespace cascade {

CorrelatePlan::CorrelatePlan(const std::vector<double> &taps, int center, LineAxis axis, Boundary boundary,
                             Device device, SampleType samples)
    : samples_(samples), center_(center), axis_(axis) {
    if (taps.empty()) throw Error("correlate1d needs at least one tap");
    for (double t : taps)
        if (!std::isfinite(t)) throw Error("a correlate1d tap is not a finite number");
    if (taps.size() > size_t(INT32_MAX)) throw Error("correlate1d takes at most 2^31 - 1 taps");
    if (center < 0 || size_t(center) >= taps.size())
        throw Error("the correlate1d center " + std::to_string(center) + " is not a tap of the " +
                    std::to_string(taps.size()));
    if (samples != SampleType::f32 && samples != SampleType::f64)
        throw Error(std::string("correlate1d filters float32 or float64 samples, not ") +
                    sample_name(samples));
    // The pipelines number the extensions as Boundary does; a line filtered with no feedback
    // has nothing for `none` to mean but zeros past its ends.
    extension_ = int(boundary == Boundary::none ? Boundary::zero : boundary);
    VariantKey key;
    key.family = Family::correlate;
    key.passes = axis == LineAxis::columns ? "columns" : "rows";
    key.samples = sample_key(samples);
    variant_ = &find_variant(wanted(key, 0, device));
    const int count = int(taps.size());
    if (samples == SampleType::f64) {
        Halide::Runtime::Buffer<double> b(count);
        for (int j = 0; j < count; j++) b(j) = taps[j];
        taps_ = b;
    } else {
        Halide::Runtime::Buffer<float> b(count);
        for (int j = 0; j < count; j++) b(j) = float(taps[j]);
        taps_ = b;
    }
    // A CUDA pipeline copies an input to the device only when it is marked host-dirty.
    taps_.set_host_dirty(true);
}

CorrelatePlan::~CorrelatePlan() = default;

PipelineCall CorrelatePlan::call(halide_buffer_t *input, halide_buffer_t *output) const {
    require_same_planes(input, output, samples_, "correlate1d", axis_ == LineAxis::rows ? 0 : 1);
    PipelineCall call;
    call.buffer("input", input)
        .buffer("output", output)
        .buffer("taps", taps_.raw_buffer())
        .scalar("center", center_)
        .scalar("extension", extension_);
    return call;
}

void CorrelatePlan::run(halide_buffer_t *input, halide_buffer_t *output) {
    PipelineCall pipeline = call(input, output);
    run_plan(*variant_, pipeline, input, output, first_run_, warm_, false);
}

void CorrelatePlan::run_host(halide_buffer_t *input, halide_buffer_t *output) {
    PipelineCall pipeline = call(input, output);
    run_plan(*variant_, pipeline, input, output, first_run_, warm_, true);
}

void correlate1d(halide_buffer_t *input, halide_buffer_t *output, const std::vector<double> &taps, int center,
                 LineAxis axis, Boundary boundary, DeviceChoice device) {
    if (!input || !output) throw Error("correlate1d needs an input and an output buffer");
    CorrelatePlan plan(taps, center, axis, boundary, resolve_device(device),
                       float_samples(input, "correlate1d"));
    plan.run_host(input, output);
}

Image correlate1d(const Image &input, const std::vector<double> &taps, int center, LineAxis axis,
                  Boundary boundary, DeviceChoice device) {
    Image output(input.width, input.height, input.channels);
    Halide::Runtime::Buffer<float> in = planes_of(input), out = planes_of(output);
    correlate1d(in.raw_buffer(), out.raw_buffer(), taps, center, axis, boundary, device);
    return output;
}

}  // namespace cascade
