// correlate1d for the Python package: scipy.ndimage.correlate1d's sums (cascade/correlate.h) on
// (N, H, W) float32 or float64 arrays, host or CUDA, the taps, center and extension as given.
#include <cascade/correlate.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "dlpack_buffers.h"

namespace cascade_python {
namespace {

void run_correlate1d(const py::capsule &input, const py::capsule &output, const std::vector<double> &taps,
                     int center, int axis, const std::string &boundary, uintptr_t stream) {
    Call call(input, output, stream);
    if (axis != 0 && axis != 1) throw Error("internal: correlate1d's axis is 0 (down H) or 1 (along W)");
    const halide_type_t type = call.in.buffer.type();
    const bool f64 = type == halide_type_of<double>();
    if (!f64 && type != halide_type_of<float>()) throw Error("correlate1d filters float32 or float64 arrays");
    if (call.out.buffer.type() != type)
        throw Error("internal: correlate1d's input and output differ in type");
    // "none" is what the scipy side passes for mode='constant' with cval 0: zeros past both ends.
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    const cascade::LineAxis line = axis == 0 ? cascade::LineAxis::columns : cascade::LineAxis::rows;
    // A plan holds no size: one serves every shape of its type and device.
    auto plan = cached<cascade::CorrelatePlan>(
        "correlate1d:" + key_of(taps) + std::to_string(center) + ":" + std::to_string(axis) + ":" + boundary +
            ":" + call.device_key() + (f64 ? ":f64" : ":f32"),
        call.memory_device(), [&] {
            return std::make_unique<cascade::CorrelatePlan>(
                taps, center, line, b, call.device,
                f64 ? cascade::SampleType::f64 : cascade::SampleType::f32);
        });
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) { plan->run(in, out); });
}

}  // namespace
}  // namespace cascade_python

void bind_correlate(pybind11::module_ &m) { m.def("correlate1d", &cascade_python::run_correlate1d); }
