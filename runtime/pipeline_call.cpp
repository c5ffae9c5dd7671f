#include "pipeline_call.h"

#include <cfloat>
#include <cmath>
#include <mutex>
#include <vector>

#include "cascade/error.h"
#include "cascade/planes.h"

// Present when the build links Halide's CUDA runtime; null otherwise.
extern "C" const halide_device_interface_t *halide_cuda_device_interface() __attribute__((weak));

namespace cascade {

namespace {

// Halide reports failures through a process-wide handler; keep the last message of this thread
// so the failing call can throw it instead of Halide printing it.
thread_local std::string last_halide_error;

void capture_halide_error(void *, const char *message) {
    std::string text = message ? message : "unknown Halide error";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    for (char &ch : text)
        if (ch == '\n') ch = ' ';
    last_halide_error = text;
}

void install_error_handler() {
    static std::once_flag once;
    std::call_once(once, [] { halide_set_error_handler(capture_halide_error); });
}

}  // namespace

PipelineCall &PipelineCall::buffer(const std::string &name, halide_buffer_t *buffer) {
    buffers_[name] = buffer;
    return *this;
}

PipelineCall &PipelineCall::scalar(const std::string &name, double value) {
    scalars_[name] = value;
    return *this;
}

void PipelineCall::run(const Variant &variant) {
    install_error_handler();
    const halide_filter_metadata_t *meta = variant.metadata();
    std::vector<void *> args;
    std::vector<halide_scalar_value_t> values(meta->num_arguments);
    for (int n = 0; n < meta->num_arguments; n++) {
        const halide_filter_argument_t &arg = meta->arguments[n];
        const std::string name = arg.name;
        if (arg.kind == halide_argument_kind_input_scalar) {
            auto it = scalars_.find(name);
            if (it == scalars_.end()) throw Error(std::string(meta->name) + ": no value for '" + name + "'");
            halide_scalar_value_t &value = values[n];
            if (arg.type.code == halide_type_float && arg.type.bits == 32) {
                value.u.f32 = float(it->second);
            } else if (arg.type.code == halide_type_float && arg.type.bits == 64) {
                value.u.f64 = it->second;
            } else if (arg.type.code == halide_type_int && arg.type.bits == 32) {
                value.u.i32 = int32_t(it->second);
            } else if (arg.type.code == halide_type_uint && arg.type.bits == 1) {
                value.u.b = it->second != 0;
            } else {
                throw Error(std::string(meta->name) + ": '" + name +
                            "' has a scalar type the runtime does not pass");
            }
            args.push_back(&value);
        } else {
            auto it = buffers_.find(name);
            if (it == buffers_.end()) throw Error(std::string(meta->name) + ": no buffer for '" + name + "'");
            args.push_back(it->second);
        }
    }
    last_halide_error.clear();
    const int status = variant.call(args.data());
    if (status == 0) return;
    // Memory is the one failure a user can act on (a smaller image, another device): say it first.
    const char *cause = status == halide_error_code_device_malloc_failed ? "out of device memory: "
                        : status == halide_error_code_out_of_memory      ? "out of host memory: "
                                                                         : "";
    throw Error(std::string(device_name(variant.device)) + " pipeline failed: " + cause +
                (last_halide_error.empty() ? "no message" : last_halide_error));
}

void run_shared(const Variant &variant, PipelineCall &call, std::mutex &first_run, std::atomic<bool> &warm) {
    if (warm.load(std::memory_order_acquire)) return call.run(variant);
    std::lock_guard<std::mutex> lock(first_run);
    call.run(variant);
    warm.store(true, std::memory_order_release);
}

SampleType float_samples(const halide_buffer_t *buffer, const std::string &what) {
    const halide_type_t t = buffer->type;
    if (t == halide_type_of<float>()) return SampleType::f32;
    if (t == halide_type_of<double>()) return SampleType::f64;
    const char *code = t.code == halide_type_int ? "int" : t.code == halide_type_uint ? "uint" : "float";
    throw Error(what + " filters float32 or float64 samples, not " + code + std::to_string(t.bits));
}

void require_same_planes(const halide_buffer_t *input, const halide_buffer_t *output, SampleType samples,
                         const std::string &what, int shorter) {
    if (!input || !output) throw Error(what + " needs an input and an output buffer");
    const halide_type_t type = halide_type(samples);
    for (const halide_buffer_t *b : {input, output}) {
        if (b->dimensions != 3) throw Error(what + " filters W x H x C buffers");
        if (b->type != type)
            throw Error("this " + what + " plan filters " + sample_name(samples) + " samples");
    }
    const auto shape = [](const halide_buffer_t *b) {
        return std::to_string(b->dim[0].extent) + "x" + std::to_string(b->dim[1].extent) + "x" +
               std::to_string(b->dim[2].extent);
    };
    for (int d = 0; d < 3; d++)
        if (d == shorter ? output->dim[d].extent > input->dim[d].extent
                         : input->dim[d].extent != output->dim[d].extent)
            throw Error("the " + what + " output is " + shape(output) + ", the input " + shape(input));
}

void run_plan(const Variant &variant, PipelineCall &call, halide_buffer_t *input, halide_buffer_t *output,
              std::mutex &first_run, std::atomic<bool> &warm, bool host) {
    if (input->number_of_elements() == 0) return;
    if (!host) return run_shared(variant, call, first_run, warm);
    run_on_host(variant.device, [&] { run_shared(variant, call, first_run, warm); }, {input}, {output});
}

void require_addressable(const std::string &what, double width, double height, double channels,
                         int sample_bytes) {
    if (width * height * channels * sample_bytes < 2147483648.0) return;
    throw Error(what + " of " + std::to_string(int64_t(width)) + "x" + std::to_string(int64_t(height)) + "x" +
                std::to_string(int64_t(channels)) + " samples of " + std::to_string(sample_bytes) +
                " bytes exceeds the 2 GiB a pipeline buffer can address");
}

void run_on_host(const Variant &variant, PipelineCall &call, const std::vector<halide_buffer_t *> &inputs,
                 const std::vector<halide_buffer_t *> &outputs) {
    run_on_host(
        variant.device, [&] { call.run(variant); }, inputs, outputs);
}

void run_on_host(Device device, const std::function<void()> &steps,
                 const std::vector<halide_buffer_t *> &inputs, const std::vector<halide_buffer_t *> &outputs,
                 const std::vector<halide_buffer_t *> &temporaries) {
    if (device == Device::cpu) {
        steps();
        return;
    }
    for (halide_buffer_t *b : inputs) b->set_host_dirty(true);
    std::string failure;
    try {
        steps();
    } catch (const Error &e) {
        failure = e.what();
    }
    for (halide_buffer_t *b : outputs)
        if (failure.empty() && b->device && halide_copy_to_host(nullptr, b) != 0)
            failure = "copying the result from the CUDA device failed: " + last_halide_error;
    for (const auto *list : {&inputs, &outputs, &temporaries})
        for (halide_buffer_t *b : *list)
            if (b->device) halide_device_free(nullptr, b);
    if (!failure.empty()) throw Error(failure);
}

void add_filter_scalars(std::map<std::string, double> &scalars, const std::vector<RecursiveFilter> &sections,
                        const std::string &gain, const std::string &feedback) {
    scalars[gain] = sections[0].gain;
    size_t k = 0;
    for (const RecursiveFilter &s : sections)
        for (double a : s.feedback) scalars[feedback + std::to_string(k++)] = a;
}

Halide::Runtime::Buffer<> table_buffer(const std::vector<double> &values, int columns, int rows,
                                       halide_type_t type, const std::string &what) {
    Halide::Runtime::Buffer<> table(type, columns, rows);
    if (type == halide_type_of<double>()) {
        Halide::Runtime::Buffer<double> t(table);
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < columns; k++) t(k, r) = values[size_t(r) * columns + k];
    } else {
        Halide::Runtime::Buffer<float> t(table);
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < columns; k++) {
                const double v = values[size_t(r) * columns + k];
                if (!(std::abs(v) <= FLT_MAX))
                    throw Error(what +
                                " needs tables past float32's range for this filter (a gain or pole too "
                                "extreme for a float32 pipeline)");
                t(k, r) = float(v);
            }
    }
    table.set_host_dirty(true);
    return table;
}

Halide::Runtime::Buffer<float> intermediate_image(int width, int height, int channels, Device device) {
    if (device == Device::cpu) return Halide::Runtime::Buffer<float>(width, height, channels);
    const halide_device_interface_t *cuda =
        halide_cuda_device_interface ? halide_cuda_device_interface() : nullptr;
    if (!cuda) throw Error("this build has no CUDA runtime");
    Halide::Runtime::Buffer<float> buffer(nullptr, width, height, channels);
    if (buffer.device_malloc(cuda) != 0)
        throw Error("could not allocate an intermediate image on the CUDA device: " + last_halide_error);
    return buffer;
}

}  // namespace cascade
