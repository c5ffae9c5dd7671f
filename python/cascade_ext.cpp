// The native half of the Python package (python/cascade/__init__.py holds the scipy.ndimage-style
// API): plans of Cascade::runtime run on arrays handed over as DLPack capsules, (N, H, W) with
// x contiguous, on the host or on a CUDA device in place, on the caller's stream. Small on
// purpose: it compiles against an installed Cascade with only pybind11 and dlpack.h beside it
// (docs/python.md).
#include <cascade/cascade.h>
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace py = pybind11;

namespace {

using cascade::Error;

// A capsule's tensor as the W×H×N buffer the pipelines take (no copy), and where it lives.
struct Tensor {
    Halide::Runtime::Buffer<> buffer;
    bool cuda = false;
};

Tensor tensor_of(const py::capsule &capsule) {
    if (std::string(capsule.name() ? capsule.name() : "") != "dltensor")
        throw Error("expected a DLPack capsule that was not used before");
    const DLTensor &t = static_cast<DLManagedTensor *>(capsule.get_pointer())->dl_tensor;
    if (t.ndim != 3) throw Error("internal: the arrays reach the native module as (N, H, W)");
    halide_type_t type;
    if (t.dtype.code == kDLFloat && t.dtype.bits == 32) {
        type = halide_type_of<float>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 8) {
        type = halide_type_of<uint8_t>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 16) {
        type = halide_type_of<uint16_t>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 32) {
        type = halide_type_of<uint32_t>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 64) {
        type = halide_type_of<uint64_t>();
    } else {
        throw Error("unsupported sample type (float32, uint8 and uint16 are)");
    }
    const int64_t n = t.shape[0], h = t.shape[1], w = t.shape[2];
    const int64_t sn = t.strides ? t.strides[0] : h * w, sh = t.strides ? t.strides[1] : w,
                  sw = t.strides ? t.strides[2] : 1;
    if (sw != 1 && w > 1) throw Error("internal: rows must be contiguous");
    if (n > INT32_MAX || h > INT32_MAX || w > INT32_MAX || sh > INT32_MAX || sn > INT32_MAX)
        throw Error("the array is larger than a pipeline can address");
    char *data = static_cast<char *>(t.data) + t.byte_offset;
    Tensor result;
    if (t.device.device_type == kDLCPU) {
        halide_dimension_t shape[3] = {
            {0, int32_t(w), 1, 0}, {0, int32_t(h), int32_t(sh), 0}, {0, int32_t(n), int32_t(sn), 0}};
        result.buffer = Halide::Runtime::Buffer<>(type, data, 3, shape);
    } else if (t.device.device_type == kDLCUDA) {
        if (t.device.device_id != 0)
            throw Error("the array is on CUDA device " + std::to_string(t.device.device_id) +
                        "; Cascade runs on device 0");
        result.buffer = cascade::cuda::wrap(type, data, int(w), int(h), int(n), sh, sn);
        result.cuda = true;
    } else {
        throw Error("arrays on the CPU or on a CUDA device are supported");
    }
    return result;
}

// The sample type the Python side names: "uint8", "uint16", else float32 (it checked the name).
cascade::SampleType sample_type_named(const std::string &dtype) {
    return dtype == "uint8"    ? cascade::SampleType::u8
           : dtype == "uint16" ? cascade::SampleType::u16
                               : cascade::SampleType::f32;
}

cascade::SampleType sample_type(const Halide::Runtime::Buffer<> &b) {
    return cascade::sample_type_of(b.raw_buffer());
}

// Plans made once per filter, size, type and device, kept for later calls on the same shape.
using Plan = std::variant<std::unique_ptr<cascade::IirPlan>, std::unique_ptr<cascade::GaussianPlan>>;
std::mutex cache_mutex;
// Never destroyed: plans hold device memory, which must go before the CUDA driver does at exit
// (release(), from Python's atexit), not in a static destructor after it.
std::map<std::string, std::shared_ptr<Plan>> &cache = *new std::map<std::string, std::shared_ptr<Plan>>;
constexpr size_t kCacheSize = 64;

template <typename Make>
std::shared_ptr<Plan> cached(const std::string &key, Make make) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    if (cache.size() >= kCacheSize) cache.clear();
    return cache[key] = std::make_shared<Plan>(make());
}

std::string key_of(const std::vector<double> &values) {
    std::string key;
    for (double v : values) key += std::to_string(v) + ",";
    return key;
}

// Both tensors on one device, of one shape; the run on the caller's stream where CUDA.
struct Call {
    Tensor in, out;
    cascade::Device device;
    uintptr_t stream;

    Call(const py::capsule &input, const py::capsule &output, uintptr_t stream_)
        : in(tensor_of(input)), out(tensor_of(output)), stream(stream_) {
        if (in.cuda != out.cuda) throw Error("internal: input and output on different devices");
        device = in.cuda ? cascade::Device::cuda : cascade::Device::cpu;
    }
    std::string shape_key() const {
        return std::to_string(in.buffer.width()) + "x" + std::to_string(in.buffer.height()) + "x" +
               std::to_string(in.buffer.channels()) + ":" + cascade::device_name(device) + ":" +
               cascade::sample_name(sample_type(in.buffer));
    }
    template <typename F>
    void run(F f) {
        py::gil_scoped_release release;
        cascade::cuda::Scope on(reinterpret_cast<void *>(stream));
        f(in.buffer.raw_buffer(), out.buffer.raw_buffer());
    }
};

void run_iir(const py::capsule &input, const py::capsule &output, const std::vector<double> &feedback_y,
             double gain_y, const std::vector<double> &feedback_x, double gain_x, const std::string &boundary,
             uintptr_t stream) {
    Call call(input, output, stream);
    const cascade::Filter2D filter{{gain_y, feedback_y}, {gain_x, feedback_x}};
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    auto plan =
        cached("iir:" + key_of(feedback_y) + key_of({gain_y}) + key_of(feedback_x) + key_of({gain_x}) +
                   boundary + ":" + call.shape_key(),
               [&] {
                   return Plan(std::make_unique<cascade::IirPlan>(
                       filter, call.in.buffer.width(), call.in.buffer.height(), cascade::Form::automatic,
                       cascade::Algorithm::automatic, call.device, b, sample_type(call.in.buffer)));
               });
    auto &iir = *std::get<std::unique_ptr<cascade::IirPlan>>(*plan);
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) { iir.run(in, out); });
}

// Whether this build filters `dtype` inside the pipeline for the filter (else Python converts).
bool converts(const std::vector<double> &feedback_y, double gain_y, const std::vector<double> &feedback_x,
              double gain_x, const std::string &boundary, const std::string &dtype, bool cuda) {
    cascade::IirOptions options;
    options.boundary = cascade::parse_boundary(boundary);
    return cascade::converts_samples({{gain_y, feedback_y}, {gain_x, feedback_x}}, options,
                                     sample_type_named(dtype),
                                     cuda ? cascade::Device::cuda : cascade::Device::cpu);
}

void run_gaussian(const py::capsule &input, const py::capsule &output, double sigma,
                  const std::string &method, const std::string &boundary, uintptr_t stream) {
    Call call(input, output, stream);
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    const cascade::GaussianMethod m = cascade::parse_gaussian_method(method);
    auto plan = cached("gaussian:" + key_of({sigma}) + method + ":" + boundary + ":" + call.shape_key(), [&] {
        return Plan(std::make_unique<cascade::GaussianPlan>(
            cascade::design_gaussian(sigma, m), call.in.buffer.width(), call.in.buffer.height(),
            call.in.buffer.channels(), cascade::Form::automatic, cascade::Algorithm::automatic, call.device,
            b, sample_type(call.in.buffer)));
    });
    auto &gaussian = *std::get<std::unique_ptr<cascade::GaussianPlan>>(*plan);
    call.run([&](halide_buffer_t *in, halide_buffer_t *out) { gaussian.run(in, out); });
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
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        cache.clear();
    }
    halide_reuse_device_allocations(nullptr, false);
}

}  // namespace

PYBIND11_MODULE(_cascade, m) {
    m.doc() = "Cascade's native module: use the functions of the `cascade` package.";
    // Repeated calls keep their intermediates' device memory instead of allocating and freeing it
    // (cuMemFree synchronises the device) on every call, as `cascade bench` does.
    halide_reuse_device_allocations(nullptr, true);
    m.def("release", &release);
    py::register_exception<Error>(m, "Error", PyExc_ValueError);
    m.def("iir", &run_iir);
    m.def("gaussian", &run_gaussian);
    m.def("summed_area_table", &run_sat);
    m.def("converts", &converts);
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
}
