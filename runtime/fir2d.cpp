#include "cascade/fir2d.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "cascade/error.h"
#include "cascade/planes.h"
#include "pipeline_call.h"
#include "variants.h"

namespace cascade {

namespace {

// How far from its centre an axis's taps reach, the larger side; throws for bad taps.
int reach(const std::vector<double> &taps, int center, const char *axis) {
    if (taps.empty()) throw Error(std::string("fir2d needs at least one tap along ") + axis);
    for (double t : taps)
        if (!std::isfinite(t))
            throw Error(std::string("a fir2d tap along ") + axis + " is not a finite number");
    if (taps.size() > size_t(INT32_MAX)) throw Error("fir2d takes at most 2^31 - 1 taps an axis");
    if (center < 0 || size_t(center) >= taps.size())
        throw Error(std::string("the fir2d center along ") + axis + " " + std::to_string(center) +
                    " is not a tap of the " + std::to_string(taps.size()));
    return std::max(center, int(taps.size()) - 1 - center);
}

// The taps in the 2R + 1 slots the pipeline reads, the centre at slot R.
template <typename T>
Halide::Runtime::Buffer<> padded(const std::vector<double> &taps, int center, int radius) {
    Halide::Runtime::Buffer<T> b(2 * radius + 1);
    b.fill(T(0));
    for (size_t j = 0; j < taps.size(); j++) b(radius + int(j) - center) = T(taps[j]);
    // A CUDA pipeline copies an input to the device only when it is marked host-dirty.
    b.set_host_dirty(true);
    return b;
}

}  // namespace

int fir2d_largest_radius(Device device, SampleType samples) {
    VariantKey key;
    key.family = Family::fir2d;
    key.samples = sample_key(samples);
    int largest = 0;
    for (const Variant &v : variants())
        if (v.key.same_filter(wanted(key, 0, device)) && !v.extra) largest = std::max(largest, v.key.order);
    return largest;
}

Fir2dPlan::Fir2dPlan(const std::vector<double> &taps_y, int center_y, const std::vector<double> &taps_x,
                     int center_x, Boundary boundary, Device device, SampleType samples)
    : samples_(samples) {
    const int r = std::max(reach(taps_y, center_y, "y"), reach(taps_x, center_x, "x"));
    if (samples != SampleType::f32 && samples != SampleType::f64)
        throw Error(std::string("fir2d filters float32 or float64 samples, not ") + sample_name(samples));
    // The pipelines number the extensions as Boundary does; a filter with no feedback has nothing
    // for `none` to mean but zeros past the edges.
    extension_ = int(boundary == Boundary::none ? Boundary::zero : boundary);
    VariantKey key;
    key.family = Family::fir2d;
    key.samples = sample_key(samples);
    variant_ = &find_variant(wanted(key, r, device));
    const int radius = variant_->key.order;
    if (samples == SampleType::f64) {
        taps_y_ = padded<double>(taps_y, center_y, radius);
        taps_x_ = padded<double>(taps_x, center_x, radius);
    } else {
        taps_y_ = padded<float>(taps_y, center_y, radius);
        taps_x_ = padded<float>(taps_x, center_x, radius);
    }
}

Fir2dPlan::~Fir2dPlan() = default;

int Fir2dPlan::radius() const { return variant_->key.order; }

PipelineCall Fir2dPlan::call(halide_buffer_t *input, halide_buffer_t *output) const {
    require_same_planes(input, output, samples_, "fir2d");
    // Every output reads inputs around it: in place, the tiles would read what others wrote.
    if ((input->host && input->host == output->host) || (input->device && input->device == output->device))
        throw Error("fir2d cannot filter in place: the output must not be the input's memory");
    PipelineCall call;
    call.buffer("input", input)
        .buffer("output", output)
        .buffer("taps_y", taps_y_.raw_buffer())
        .buffer("taps_x", taps_x_.raw_buffer())
        .scalar("extension", extension_);
    return call;
}

void Fir2dPlan::run(halide_buffer_t *input, halide_buffer_t *output) {
    PipelineCall pipeline = call(input, output);
    run_plan(*variant_, pipeline, input, output, first_run_, warm_, false);
}

void Fir2dPlan::run_host(halide_buffer_t *input, halide_buffer_t *output) {
    PipelineCall pipeline = call(input, output);
    run_plan(*variant_, pipeline, input, output, first_run_, warm_, true);
}

void fir2d(halide_buffer_t *input, halide_buffer_t *output, const std::vector<double> &taps_y, int center_y,
           const std::vector<double> &taps_x, int center_x, Boundary boundary, DeviceChoice device) {
    if (!input || !output) throw Error("fir2d needs an input and an output buffer");
    Fir2dPlan plan(taps_y, center_y, taps_x, center_x, boundary, resolve_device(device),
                   float_samples(input, "fir2d"));
    plan.run_host(input, output);
}

Image fir2d(const Image &input, const std::vector<double> &taps_y, int center_y,
            const std::vector<double> &taps_x, int center_x, Boundary boundary, DeviceChoice device) {
    Image output(input.width, input.height, input.channels);
    Halide::Runtime::Buffer<float> in = planes_of(input), out = planes_of(output);
    fir2d(in.raw_buffer(), out.raw_buffer(), taps_y, center_y, taps_x, center_x, boundary, device);
    return output;
}

}  // namespace cascade
