#include "fir.h"

#include <algorithm>
#include <cmath>

#include "cascade/error.h"
#include "cascade/planes.h"

namespace cascade {

namespace {

int radius_of(const std::vector<double> &taps) {
    if (taps.empty() || taps.size() % 2 == 0)
        throw Error("an FIR needs an odd number of taps, got " + std::to_string(taps.size()));
    for (double t : taps)
        if (!std::isfinite(t)) throw Error("an FIR tap is not a finite number");
    return int(taps.size() / 2);
}

// The taps centred in 2·radius+1 slots, as the pipeline reads them.
std::vector<float> padded(const std::vector<double> &taps, int radius) {
    std::vector<float> out(2 * radius + 1, 0.0f);
    const int offset = radius - int(taps.size() / 2);
    for (size_t k = 0; k < taps.size(); k++) out[offset + k] = float(taps[k]);
    return out;
}

}  // namespace

FirPlan::FirPlan(const SeparableFir &fir, Device device, Boundary extension, FirEdges edges) {
    const int radius = std::max(radius_of(fir.vertical), radius_of(fir.horizontal));
    VariantKey key;
    key.family = Family::fir;
    if (edges == FirEdges::margin) {
        key.kind = "margin";
    } else if (extension == Boundary::periodic || extension == Boundary::reflect ||
               extension == Boundary::mirror) {
        key.kind = boundary_name(extension);
    } else if (extension != Boundary::none) {
        throw Error(std::string("the FIR extends the image by none, periodic, reflect or mirror, not ") +
                    boundary_name(extension));
    }
    variant_ = &find_variant(wanted(key, radius, device));
    vertical_ = padded(fir.vertical, variant_->key.order);
    horizontal_ = padded(fir.horizontal, variant_->key.order);
    vertical_buffer_ = Halide::Runtime::Buffer<float>(vertical_.data(), int(vertical_.size()));
    horizontal_buffer_ = Halide::Runtime::Buffer<float>(horizontal_.data(), int(horizontal_.size()));
    // A CUDA pipeline copies an input to the device only when it is marked host-dirty.
    vertical_buffer_.set_host_dirty(true);
    horizontal_buffer_.set_host_dirty(true);
}

PipelineCall FirPlan::call(halide_buffer_t *input, halide_buffer_t *output) const {
    PipelineCall call;
    call.buffer("input", input)
        .buffer("output", output)
        .buffer("taps_y", vertical_buffer_.raw_buffer())
        .buffer("taps_x", horizontal_buffer_.raw_buffer());
    return call;
}

void FirPlan::run(halide_buffer_t *input, halide_buffer_t *output) { call(input, output).run(*variant_); }

Image fir_2d(const Image &input, const SeparableFir &fir, DeviceChoice device) {
    if (input.width < 1 || input.height < 1 || input.channels < 1) throw Error("the input image is empty");
    Halide::Runtime::Buffer<float> in = planes_of(input);
    FirPlan plan(fir, resolve_device(device));
    Image output(input.width, input.height, input.channels);
    Halide::Runtime::Buffer<float> out = planes_of(output);
    PipelineCall call = plan.call(in.raw_buffer(), out.raw_buffer());
    run_on_host(plan.variant(), call, {in.raw_buffer()}, {out.raw_buffer()});
    return output;
}

}  // namespace cascade
