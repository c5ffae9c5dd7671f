// fir2d for the Python package: scipy.ndimage's separable FIRs (correlate1d down H, then along W,
// with exact taps: gaussian_filter and uniform_filter at small sizes) in one pass over (N, H, W)
// float32 or float64 arrays, host or CUDA (cascade/fir2d.h).
#include <cascade/fir2d.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "dlpack_buffers.h"

namespace cascade_python {
namespace {

void run_fir2d(const py::capsule &input, const py::capsule &output, const std::vector<double> &taps_y,
               int center_y, const std::vector<double> &taps_x, int center_x, const std::string &boundary,
               uintptr_t stream) {
    Call call(input, output, stream);
    const halide_type_t type = call.in.buffer.type();
    const bool f64 = type == halide_type_of<double>();
    if (!f64 && type != halide_type_of<float>()) throw Error("fir2d filters float32 or float64 arrays");
    if (call.out.buffer.type() != type) throw Error("internal: fir2d's input and output differ in type");
    // "none" is what the scipy side passes for mode='constant' with cval 0: zeros past the edges.
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    // A plan holds no size: one serves every shape of its type and device.
    auto plan = cached<cascade::Fir2dPlan>("fir2d:" + key_of(taps_y) + std::to_string(center_y) + ":" +
                                               key_of(taps_x) + std::to_string(center_x) + ":" + boundary +
                                               ":" + call.device_key() + (f64 ? ":f64" : ":f32"),
                                           call.memory_device(), [&] {
                                               return std::make_unique<cascade::Fir2dPlan>(
                                                   taps_y, center_y, taps_x, center_x, b, call.device,
                                                   f64 ? cascade::SampleType::f64 : cascade::SampleType::f32);
                                           });
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) { plan->run(in, out); });
}

}  // namespace
}  // namespace cascade_python

void bind_fir2d(pybind11::module_ &m) {
    m.def("fir2d", &cascade_python::run_fir2d);
    m.def("fir2d_largest_radius", [](bool cuda, const std::string &dtype) {
        return cascade::fir2d_largest_radius(
            cuda ? cascade::Device::cuda : cascade::Device::cpu,
            dtype == "float64" ? cascade::SampleType::f64 : cascade::SampleType::f32);
    });
}
