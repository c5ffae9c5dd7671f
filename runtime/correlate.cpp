#include "cascade/correlate.h"

#include <cmath>
#include <string>

#include "cascade/error.h"
#include "cascade/planes.h"
#include "pipeline_call.h"
#include "variants.h"

namespace cascade {

namespace {

SampleType float_samples(const halide_buffer_t *buffer) {
    const halide_type_t t = buffer->type;
    if (t == halide_type_of<float>()) return SampleType::f32;
    if (t == halide_type_of<double>()) return SampleType::f64;
    const char *code = t.code == halide_type_int ? "int" : t.code == halide_type_uint ? "uint" : "float";
    throw Error(std::string("correlate1d filters float32 or float64 samples, not ") + code +
                std::to_string(t.bits));
}

}  // namespace

CorrelatePlan::CorrelatePlan(const std::vector<double> &taps, int center, LineAxis axis, Boundary boundary,
                             Device device, SampleType samples)
    : samples_(samples), center_(center) {
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
    if (!input || !output) throw Error("correlate1d needs an input and an output buffer");
    const halide_type_t type = halide_type(samples_);
    for (const halide_buffer_t *b : {input, output}) {
        if (b->dimensions != 3) throw Error("correlate1d filters W x H x C buffers");
        if (b->type != type)
            throw Error(std::string("this correlate1d plan filters ") + sample_name(samples_) + " samples");
    }
    for (int d = 0; d < 3; d++)
        if (input->dim[d].extent != output->dim[d].extent)
            throw Error("the correlate1d output is " + std::to_string(output->dim[0].extent) + "x" +
                        std::to_string(output->dim[1].extent) + "x" + std::to_string(output->dim[2].extent) +
                        ", the input " + std::to_string(input->dim[0].extent) + "x" +
                        std::to_string(input->dim[1].extent) + "x" + std::to_string(input->dim[2].extent));
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
    if (input->number_of_elements() == 0) return;
    run_shared(*variant_, pipeline, first_run_, warm_);
}

void CorrelatePlan::run_host(halide_buffer_t *input, halide_buffer_t *output) {
    PipelineCall pipeline = call(input, output);
    if (input->number_of_elements() == 0) return;
    run_on_host(variant_->device, [&] { run_shared(*variant_, pipeline, first_run_, warm_); }, {input},
                {output});
}

void correlate1d(halide_buffer_t *input, halide_buffer_t *output, const std::vector<double> &taps, int center,
                 LineAxis axis, Boundary boundary, DeviceChoice device) {
    if (!input || !output) throw Error("correlate1d needs an input and an output buffer");
    CorrelatePlan plan(taps, center, axis, boundary, resolve_device(device), float_samples(input));
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
