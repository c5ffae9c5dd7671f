// The native half of the Python package (python/cascade/__init__.py holds the scipy.ndimage-style
// API): plans of Cascade::runtime run on arrays handed over as DLPack capsules, (N, H, W) with
// x contiguous, on the host or on a CUDA device in place, on the caller's stream. Small on
// purpose: it compiles against an installed Cascade with only pybind11 and dlpack.h beside it
// (docs/python.md).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "dlpack_buffers.h"

void bind_correlate(pybind11::module_ &m);  // correlate_binding.cpp
void bind_fir2d(pybind11::module_ &m);      // fir2d_binding.cpp
void bind_carries(pybind11::module_ &m);    // carries_binding.cpp

namespace cascade_python {

namespace {
// Never destroyed: plans hold device memory, which must go before the CUDA driver does at exit
// (release(), from Python's atexit), not in a static destructor after it.
struct Kept {
    std::shared_ptr<void> plan;
    int device;  // the CUDA device of its memory, -1: the host
};
std::mutex cache_mutex;
std::map<std::string, Kept> &cache = *new std::map<std::string, Kept>;
constexpr size_t kCacheSize = 64;

// Each plan let go in its own device's context: Halide frees its device memory, or keeps it for
// reuse, in the context current then, and memory of one device kept in another's context would be
// handed to that device's next pipeline (an illegal address where chunks alternate GPUs). Device
// 0's plans were made in Halide's own context (Call sets none there), the others' in their
// device's primary context.
void let_go_all() {
    for (auto &[key, kept] : cache) {
        std::unique_ptr<cascade::cuda::Scope> on;
        if (kept.device >= 0)
            on = std::make_unique<cascade::cuda::Scope>(
                nullptr, kept.device ? cascade::cuda::primary_context(kept.device) : nullptr);
        kept.plan.reset();
    }
    cache.clear();
}
}  // namespace

std::shared_ptr<void> cached_plan(const std::string &key, int device, std::shared_ptr<void> (*make)(void *),
                                  void *context) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second.plan;
    if (cache.size() >= kCacheSize) let_go_all();
    return (cache[key] = Kept{make(context), device}).plan;
}

void drop_plans() {
    std::lock_guard<std::mutex> lock(cache_mutex);
    let_go_all();
}

}  // namespace cascade_python

namespace {

using namespace cascade_python;

// The sample type the Python side names: "uint8", "uint16", else float32 (it checked the name).
cascade::SampleType sample_type_named(const std::string &dtype) {
    return dtype == "uint8"    ? cascade::SampleType::u8
           : dtype == "uint16" ? cascade::SampleType::u16
                               : cascade::SampleType::f32;
}

void run_iir(const py::capsule &input, const py::capsule &output, const std::vector<double> &feedback_y,
             double gain_y, const std::vector<double> &feedback_x, double gain_x, const std::string &boundary,
             uintptr_t stream) {
    Call call(input, output, stream);
    const cascade::Filter2D filter{{gain_y, feedback_y}, {gain_x, feedback_x}};
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    auto iir = cached<cascade::IirPlan>("iir:" + key_of(feedback_y) + key_of({gain_y}) + key_of(feedback_x) +
                                            key_of({gain_x}) + boundary + ":" + call.shape_key(),
                                        call.memory_device(), [&] {
                                            return std::make_unique<cascade::IirPlan>(
                                                filter, call.in.buffer.width(), call.in.buffer.height(),
                                                cascade::IirOptions{b, cascade::choice_of(call.device)},
                                                sample_type(call.in.buffer));
                                        });
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) { iir->run(in, out); });
}

void run_gaussian(const py::capsule &input, const py::capsule &output, double sigma_y, double sigma_x,
                  const std::string &method, const std::string &boundary, uintptr_t stream) {
    Call call(input, output, stream);
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    const cascade::GaussianMethod m = cascade::parse_gaussian_method(method);
    auto gaussian = cached<cascade::GaussianPlan>(
        "gaussian:" + key_of({sigma_y, sigma_x}) + method + ":" + boundary + ":" + call.shape_key(),
        call.memory_device(), [&] {
            return std::make_unique<cascade::GaussianPlan>(
                cascade::design_gaussian(sigma_y, sigma_x, m), call.in.buffer.width(),
                call.in.buffer.height(), call.in.buffer.channels(),
                cascade::IirOptions{b, cascade::choice_of(call.device)}, sample_type(call.in.buffer));
        });
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) { gaussian->run(in, out); });
}

void run_sat(const py::capsule &input, const py::capsule &output, uintptr_t stream) {
    Call call(input, output, stream);
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) {
        cascade::summed_area_table(in, out, cascade::SatAlgorithm::automatic, call.device);
    });
}

// The box mean of host float32 planes (cascade/box.h works on images in host memory).
void run_box(const py::capsule &input, const py::capsule &output, int radius, const std::string &boundary) {
    Tensor in = tensor_of(input), out = tensor_of(output);
    if (in.cuda || out.cuda)
        throw Error("uniform_filter runs on host arrays: Cascade's box filter has no CUDA path yet");
    const Halide::Runtime::Buffer<float> src(in.buffer), dst(out.buffer);
    cascade::Image image(src.width(), src.height(), src.channels());
    py::gil_scoped_release release;
    for (int c = 0; c < image.channels; c++)
        for (int y = 0; y < image.height; y++)
            for (int x = 0; x < image.width; x++) image.at(x, y, c) = src(x, y, c);
    const cascade::Image mean =
        cascade::box_mean(image, radius, cascade::parse_boundary(boundary), cascade::DeviceChoice::cpu);
    Halide::Runtime::Buffer<float> target(dst);
    for (int c = 0; c < image.channels; c++)
        for (int y = 0; y < image.height; y++)
            for (int x = 0; x < image.width; x++) target(x, y, c) = mean.at(x, y, c);
}

// Drops the cached plans and the device memory Halide keeps for reuse.
void release() {
    drop_plans();
    halide_reuse_device_allocations(nullptr, false);
}

}  // namespace

PYBIND11_MODULE(_cascade, m) {
    m.doc() = "Cascade's native module: use the functions of the `cascade` package.";
    // Repeated calls keep their intermediates' device memory instead of allocating and freeing it
    // (cuMemFree synchronises the device) on every call, as `cascade bench` does.
    halide_reuse_device_allocations(nullptr, true);
    // pybind11 finds NumPy's C API on its first array, by an import inside a C++ static's
    // initialisation: made there by two threads at once (a Dask worker's first two tasks), one
    // waits on the static holding the GIL while the other's import waits for the GIL. Here, once.
    (void)py::array_t<double>(1);
    m.def("release", &release);
    py::register_exception<Error>(m, "Error", PyExc_ValueError);
    bind_correlate(m);
    bind_fir2d(m);
    bind_carries(m);
    m.def("iir", &run_iir);
    // `with SerialCalls():` the CPU pipelines this thread calls run on it alone (cascade/device.h).
    struct Serial {
        std::optional<cascade::SerialCalls> scope;
    };
    py::class_<Serial>(m, "SerialCalls")
        .def(py::init<>())
        .def("__enter__", [](Serial &s) { s.scope.emplace(); })
        .def("__exit__", [](Serial &s, const py::args &) { s.scope.reset(); });
    m.def("gaussian", &run_gaussian);
    m.def("summed_area_table", &run_sat);
    m.def("bspline_prefilter", [](int degree) {
        const cascade::RecursiveFilter f = cascade::bspline_prefilter(degree);
        return py::make_tuple(f.gain, f.feedback);
    });
    m.def("van_vliet_gaussian", [](double sigma) {
        const cascade::RecursiveFilter f = cascade::van_vliet_gaussian(sigma);
        return py::make_tuple(f.gain, f.feedback);
    });
    m.def("require_stable", [](double gain, const std::vector<double> &feedback) {
        cascade::require_stable({gain, feedback});
    });
    m.def("sat_output_type", [](const std::string &dtype, int64_t height, int64_t width) {
        cascade::RawImage probe;
        probe.height = size_t(height);
        probe.width = size_t(width);
        probe.channels = 1;
        probe.type = sample_type_named(dtype);
        return std::string(cascade::sample_name(cascade::sat_output_type(probe)));
    });
    m.def("cuda_devices", [] { return cascade::cuda_info().devices; });
    m.def("box_mean", &run_box);
    // The array types the recursive filters take natively (the rest Python converts).
    m.def("sample_types", [] {
        std::vector<std::string> names;
        const cascade::RecursiveFilter smoothing{0.5, {-0.5}};
        for (cascade::SampleType t : {cascade::SampleType::f32, cascade::SampleType::f64,
                                      cascade::SampleType::u8, cascade::SampleType::u16})
            if (cascade::converts_samples({smoothing, smoothing}, {}, t, cascade::Device::cpu))
                names.push_back(cascade::sample_name(t));
        return names;
    });
    // Deriche's 4th-order Gaussian in cascade form at any sigma, (taps, gain, feedback): the
    // package runs it in float64 past the float32 range of deriche4_gaussian.
    m.def("deriche4_cascade", [](double sigma) {
        const cascade::FirIirGaussian g = cascade::deriche4_gaussian_unchecked(sigma);
        return py::make_tuple(g.taps, g.pass.gain, g.pass.feedback);
    });
    m.def("gaussian_method_names", &cascade::gaussian_method_names);
}
