#pragma once
// What every binding of the native module shares: DLPack capsules as the (no-copy) W×H×N buffers
// the pipelines take, the caller's stream, and the plans kept between calls.
#include <cascade/cascade.h>
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cascade_python {

namespace py = pybind11;
using cascade::Error;

// A capsule's tensor as the W×H×N buffer the pipelines take (no copy), and where it lives.
struct Tensor {
    Halide::Runtime::Buffer<> buffer;
    bool cuda = false;
    int device_id = 0;  // the CUDA device
};

inline Tensor tensor_of(const py::capsule &capsule) {
    if (std::string(capsule.name() ? capsule.name() : "") != "dltensor")
        throw Error("expected a DLPack capsule that was not used before");
    const DLTensor &t = static_cast<DLManagedTensor *>(capsule.get_pointer())->dl_tensor;
    if (t.ndim != 3) throw Error("internal: the arrays reach the native module as (N, H, W)");
    halide_type_t type;
    if (t.dtype.code == kDLFloat && t.dtype.bits == 32) {
        type = halide_type_of<float>();
    } else if (t.dtype.code == kDLFloat && t.dtype.bits == 64) {
        type = halide_type_of<double>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 8) {
        type = halide_type_of<uint8_t>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 16) {
        type = halide_type_of<uint16_t>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 32) {
        type = halide_type_of<uint32_t>();
    } else if (t.dtype.code == kDLUInt && t.dtype.bits == 64) {
        type = halide_type_of<uint64_t>();
    } else {
        throw Error("unsupported sample type (float32, float64, uint8 and uint16 are)");
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
        result.buffer = cascade::cuda::wrap(type, data, int(w), int(h), int(n), sh, sn);
        result.cuda = true;
        result.device_id = int(t.device.device_id);
    } else {
        throw Error("arrays on the CPU or on a CUDA device are supported");
    }
    return result;
}

inline cascade::SampleType sample_type(const Halide::Runtime::Buffer<> &b) {
    return cascade::sample_type_of(b.raw_buffer());
}

// Plans made once per filter, size, type and device, kept for later calls on the same shape:
// `make()` returns a std::unique_ptr<P>; keys start with what P is ("iir:", "gaussian:", ...).
// `device`: the CUDA device whose memory the plan holds (Call::memory_device()).
void drop_plans();
std::shared_ptr<void> cached_plan(const std::string &key, int device, std::shared_ptr<void> (*make)(void *),
                                  void *context);

template <typename P, typename Make>
std::shared_ptr<P> cached(const std::string &key, int device, Make make) {
    const auto made = [](void *m) -> std::shared_ptr<void> {
        return std::shared_ptr<P>((*static_cast<Make *>(m))());
    };
    return std::static_pointer_cast<P>(cached_plan(key, device, made, &make));
}

// Every value's exact bits: plans of coefficients that differ in the last place are different plans.
inline std::string key_of(const std::vector<double> &values) {
    std::string key;
    char text[32];
    for (double v : values) {
        std::snprintf(text, sizeof text, "%a,", v);
        key += text;
    }
    return key;
}

// Both tensors on one device, of one shape; the run on the caller's stream where CUDA. A call
// on a CUDA device other than 0 runs, plans made and kept included, in that device's primary
// context (the plans of each device are kept apart by shape_key()).
struct Call {
    Tensor in, out;
    cascade::Device device;
    uintptr_t stream;
    std::unique_ptr<cascade::cuda::Scope> on_device;

    Call(const py::capsule &input, const py::capsule &output, uintptr_t stream_)
        : in(tensor_of(input)), out(tensor_of(output)), stream(stream_) {
        if (in.cuda != out.cuda || in.device_id != out.device_id)
            throw Error("internal: input and output on different devices");
        device = in.cuda ? cascade::Device::cuda : cascade::Device::cpu;
        if (in.cuda && in.device_id != 0)
            on_device = std::make_unique<cascade::cuda::Scope>(reinterpret_cast<void *>(stream),
                                                               cascade::cuda::primary_context(in.device_id));
    }
    // The CUDA device the call's memory is on, -1 for the host's.
    int memory_device() const { return in.cuda ? in.device_id : -1; }
    std::string device_key() const {
        return cascade::device_name(device) + (in.device_id ? std::to_string(in.device_id) : "");
    }
    std::string shape_key() const {
        return std::to_string(in.buffer.width()) + "x" + std::to_string(in.buffer.height()) + "x" +
               std::to_string(in.buffer.channels()) + ":" + device_key() + ":" +
               cascade::sample_name(sample_type(in.buffer));
    }
    template <typename F>
    void run(F f) {
        py::gil_scoped_release release;
        cascade::cuda::Scope on(reinterpret_cast<void *>(stream),
                                in.device_id ? cascade::cuda::primary_context(in.device_id) : nullptr);
        f(in.buffer.raw_buffer(), out.buffer.raw_buffer());
    }
};

}  // namespace cascade_python
