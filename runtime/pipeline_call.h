#pragma once
// Calls an AOT variant through its argv entry point, matching arguments by the names in the
// variant's metadata, so one caller serves every generator whatever its arity.
#include <HalideBuffer.h>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cascade/filter.h"
#include "variants.h"

namespace cascade {

class PipelineCall {
public:
    PipelineCall &buffer(const std::string &name, halide_buffer_t *buffer);
    // Passed as the type the variant declares: float32, float64, int32 or bool (non-zero).
    PipelineCall &scalar(const std::string &name, double value);

    // Runs the variant; throws cascade::Error with Halide's message when the pipeline fails,
    // or when the metadata names an argument that was not given.
    void run(const Variant &variant);

private:
    std::map<std::string, halide_buffer_t *> buffers_;
    std::map<std::string, double> scalars_;
};

// Runs `call` for a plan that several threads may use at once: until one call has succeeded the
// calls run one at a time under `first_run`, since a CUDA pipeline's first call uploads the
// plan's tables (writing their buffers' device fields); later calls only read them.
void run_shared(const Variant &variant, PipelineCall &call, std::mutex &first_run, std::atomic<bool> &warm);

// A filter's run-time scalars as the generators name them: `gain` (the first section's), then
// `feedback`0, `feedback`1, … over the sections' coefficients in order.
void add_filter_scalars(std::map<std::string, double> &scalars, const std::vector<RecursiveFilter> &sections,
                        const std::string &gain, const std::string &feedback);

// A (columns × rows) table of `values` (row-major) as a buffer of the variant's working type
// (`type`: float32 or float64), marked host-dirty: a CUDA pipeline copies it to the device on its
// first call and keeps it there. Throws cascade::Error, naming `what`, where float32 cannot hold a
// value (a gain or pole too extreme for a float32 pipeline: Inf in the tables is NaN out of it).
Halide::Runtime::Buffer<> table_buffer(const std::vector<double> &values, int columns, int rows,
                                       halide_type_t type, const std::string &what);

// Throws cascade::Error when a W×H×C buffer of `sample_bytes`-byte samples is beyond what a
// pipeline can address (Halide indexes buffers with 32-bit offsets: 2 GiB), before anything
// that large is allocated. `what` names the buffer in the message.
void require_addressable(const std::string &what, double width, double height, double channels,
                         int sample_bytes);

// Runs `call` on buffers whose data live on the host: for a CUDA variant the inputs are marked
// host-dirty first, and the outputs are copied back and every device allocation released after.
void run_on_host(const Variant &variant, PipelineCall &call, const std::vector<halide_buffer_t *> &inputs,
                 const std::vector<halide_buffer_t *> &outputs);

// The same for a chain of calls on `device`: `steps` makes every call; `temporaries` carry results
// from one call to the next (on the device for CUDA, never copied back) and are released with the
// rest.
void run_on_host(Device device, const std::function<void()> &steps,
                 const std::vector<halide_buffer_t *> &inputs, const std::vector<halide_buffer_t *> &outputs,
                 const std::vector<halide_buffer_t *> &temporaries = {});

// The sample type of a float32 or float64 buffer; throws cascade::Error, naming the operation
// `what`, for any other.
SampleType float_samples(const halide_buffer_t *buffer, const std::string &what);

// Throws cascade::Error, naming the operation `what`, unless `input` and `output` are both W×H×C
// buffers of `samples`, of one shape; along dimension `shorter` (0 or 1, where given) the output may
// be shorter than the input.
void require_same_planes(const halide_buffer_t *input, const halide_buffer_t *output, SampleType samples,
                         const std::string &what, int shorter = -1);

// A plan's run of `call`: nothing on an empty image, the first call alone (run_shared), and with
// `host` the buffers' data on the host (run_on_host).
void run_plan(const Variant &variant, PipelineCall &call, halide_buffer_t *input, halide_buffer_t *output,
              std::mutex &first_run, std::atomic<bool> &warm, bool host);

// A W×H×C float image that passes results from one pipeline to the next, read by no one else: in
// host memory on the CPU, in device memory alone on CUDA (never copied back), allocated once by
// the plan that chains them rather than in each call.
Halide::Runtime::Buffer<float> intermediate_image(int width, int height, int channels, Device device);

}  // namespace cascade
