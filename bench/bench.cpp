#include "bench.h"

#include <HalideBuffer.h>
#include <HalideRuntimeCuda.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <tuple>

#include "baseline_libraries.h"
#include "cascade/bspline.h"
#include "cascade/device.h"
#include "cascade/error.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"
#include "cascade/gaussian_blur.h"
#include "cascade/iir.h"
#include "cascade/planes.h"
#include "cascade/sat.h"
#include "cuda_context.h"
#include "line_filter.h"
#include "pipeline_call.h"
#include "reference.h"
#ifdef CASCADE_HAVE_CUDA_RUNTIME
#include "bench/baselines/cuda_support.h"
#endif

namespace cascade {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kGi = 1024.0 * 1024.0 * 1024.0;
constexpr double kCopyBytesPerPixel = 8;  // one float read, one written
// Far above float rounding of any SAT the bench runs, far below the error of a wrong one.
constexpr double kCheckTolerance = 1e-4;
constexpr double kSelfCheckTolerance = 1e-5;  // 67×45: float rounding stays near 1e-7
// The FFT's float rounding grows with the transform's size and stages: about 1e-7 to 1e-6 at 67×45.
constexpr double kFftSelfCheckTolerance = 1e-4;

// A case that cannot run here; its message is the result's note.
struct Skip {
    std::string note;
};

// Why OpenCV's baselines cannot run on `device`; an empty reason when they can.
BaselineAbsence opencv_absence(Device device) {
    if (device != Device::cpu) return {"unavailable", "the OpenCV baselines run on the CPU only"};
#ifdef CASCADE_HAVE_OPENCV
    BaselineAbsence absence;
    opencv_baselines(&absence);
    return absence;
#else
    return {"unavailable", "this build has no OpenCV baseline (OpenCV was not found at configure time)"};
#endif
}

// Why the cuFFT Gaussian cannot run here; an empty reason when it can.
BaselineAbsence cufft_absence() {
    const std::string why = bench_cuda_unavailable_reason();
    if (!why.empty()) return {"unavailable", why};
    BaselineAbsence absence;
    const baselines::CudaBaselines *cuda = cuda_baselines(&absence);
    if (!cuda) return absence;
    return {"unavailable", cuda->cufft_unavailable_reason()};
}

double median(std::vector<double> values) {
    if (values.empty()) return kNaN;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Uniform in [0, 1) (splitmix64): fast enough for 2^28 pixels, the same on every machine.
void fill_random(float *data, size_t n, unsigned seed) {
    uint64_t state = 0x2545f4914f6cdd1dull * (uint64_t(seed) + 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        data[i] = float((z ^ (z >> 31)) >> 40) * 0x1p-24f;
    }
}

// max |output − SAT(input)| ÷ max |SAT(input)|, the table accumulated in double a row at a time.
double sat_error(const float *input, const float *output, int width, int height) {
    std::vector<double> above(width, 0.0);
    double error = 0, largest = 0;
    for (size_t y = 0, i = 0; y < size_t(height); y++) {
        double row = 0;
        for (int x = 0; x < width; x++, i++) {
            row += input[i];
            above[x] += row;
            error = std::max(error, std::abs(output[i] - above[x]));
            largest = std::max(largest, std::abs(above[x]));
        }
    }
    return largest > 0 ? error / largest : error;
}

}  // namespace

BoundedVariant split_variant(const std::string &variant) {
    BoundedVariant v{variant};
    size_t dash = v.name.rfind('-');
    if (dash != std::string::npos) {
        try {
            v.boundary = parse_boundary(v.name.substr(dash + 1));
            if (v.boundary != Boundary::none) v.name.resize(dash);
        } catch (const Error &) {
        }
    }
    dash = v.name.rfind('-');
    const std::string last = dash == std::string::npos ? "" : v.name.substr(dash + 1);
    if (last == "u8" || last == "u16") {
        v.samples = last == "u8" ? SampleType::u8 : SampleType::u16;
        v.name.resize(dash);
    }
    return v;
}

namespace {

// The bench's IIR cases, "<algorithm>-<filter>": algorithm rt, 2, 4, 5 or 6; filter order1 (a
// first-order pole at 0.5), order3 (van Vliet's Gaussian, σ = kBenchGaussianSigma, as sections) or
// bspline3 (the cubic B-spline's prefilter, include/cascade/bspline.h). The plan is made once, so a
// timed call is the pipeline alone.
// `buffer`'s memory (host, and device where it has some) seen as `type` in `shape`, dense from its
// first byte.
std::shared_ptr<Halide::Runtime::Buffer<>> alias(const halide_buffer_t *buffer, halide_type_t type,
                                                 std::vector<halide_dimension_t> shape) {
    auto view =
        std::make_shared<Halide::Runtime::Buffer<>>(type, buffer->host, int(shape.size()), shape.data());
    if (buffer->device && view->device_wrap_native(buffer->device_interface, buffer->device) != 0)
        throw Error("wrapping the workspace's device buffer failed");
    return view;
}

// The workspace's float32 buffer seen as `samples` of the same width and height (its first
// bytes; the same device memory), or the buffer itself for float32.
std::shared_ptr<Halide::Runtime::Buffer<>> retyped(halide_buffer_t *buffer, SampleType samples) {
    if (samples == SampleType::f32) return std::make_shared<Halide::Runtime::Buffer<>>(*buffer);
    const int width = buffer->dim[0].extent, height = buffer->dim[1].extent;
    return alias(buffer, halide_type(samples),
                 {{0, width, 1, 0}, {0, height, width, 0}, {0, 1, width * height, 0}});
}

// A 1D signal's cases, "line1-…" and "line3-…" (algorithms 1 and 3 by blocks) and "linestrips1-…",
// "linestrips3-…" (the same passes by overlapped segments; runtime/line_filter.h) on a 1×N or N×1
// workspace: its samples seen as one signal of N.
std::function<void()> line_call(const std::string &algorithm, const RecursiveFilter &filter,
                                std::shared_ptr<Halide::Runtime::Buffer<>> input,
                                std::shared_ptr<Halide::Runtime::Buffer<>> output, Device device,
                                Boundary boundary) {
    const int width = input->width(), height = input->height();
    if ((width == 1) == (height == 1)) throw Skip{"unavailable: line variants take 1xN or Nx1 sizes"};
    if (input->type() != halide_type_of<float>() || output->type() != halide_type_of<float>())
        throw Skip{"unavailable: line variants take float32 samples"};
    const int length = std::max(width, height);
    const std::vector<halide_dimension_t> signal = {{0, length, 1, 0}, {0, 1, length, 0}};
    auto in = alias(input->raw_buffer(), halide_type_of<float>(), signal),
         out = alias(output->raw_buffer(), halide_type_of<float>(), signal);
    const bool strips = algorithm.rfind("linestrips", 0) == 0;
    auto plan = std::make_shared<LinePlan>(filter, length, algorithm.back() == '1' ? 1 : 3, device,
                                           strips ? LineMethod::strips : LineMethod::blocks, boundary);
    return [=] { plan->run(in->raw_buffer(), out->raw_buffer()); };
}

std::function<void()> iir_call(const std::string &bounded, halide_buffer_t *input_f32,
                               halide_buffer_t *output_f32, Device device) {
    const auto [variant, boundary, samples] = split_variant(bounded);
    const auto input = retyped(input_f32, samples), output = retyped(output_f32, samples);
    const size_t dash = variant.find('-');
    const std::string algorithm = variant.substr(0, dash),
                      kind = dash == std::string::npos ? "" : variant.substr(dash + 1);
    RecursiveFilter filter;
    if (kind == "order1") {
        filter.gain = 0.5;
        filter.feedback = {-0.5};
    } else if (kind == "order3") {
        filter = van_vliet_gaussian(kBenchGaussianSigma);
    } else if (kind == "bspline3") {
        filter = bspline_prefilter(3);
    } else {
        throw Skip{
            "unknown variant (iir has "
            "<rt|2|4|5|6|strips|line1|line3|linestrips1|linestrips3>-<order1|order3|bspline3>)"};
    }
    if (algorithm == "line1" || algorithm == "line3" || algorithm == "linestrips1" ||
        algorithm == "linestrips3") {
        if (boundary != Boundary::none && algorithm != "linestrips3")
            throw Skip{"unavailable: the line blocks take boundary none (linestrips3 takes the others)"};
        return line_call(algorithm, filter, input, output, device, boundary);
    }
    Algorithm a;
    try {
        a = parse_algorithm(algorithm);
    } catch (const Error &e) {
        throw Skip{e.what()};
    }
    if (samples != SampleType::f32 && a != Algorithm::a6 && a != Algorithm::automatic)
        throw Skip{"not built: 8/16-bit samples are converted inside algorithm 6 only"};
    auto plan =
        std::make_shared<IirPlan>(Filter2D{filter, filter}, input->width(), input->height(),
                                  IirOptions{boundary, choice_of(device), Form::automatic, a}, samples);
    return [=] { plan->run(input->raw_buffer(), output->raw_buffer()); };
}

// The bench's recursive Gaussians, by method name (gaussian_blur.h), σ = kBenchGaussianSigma,
// with the automatic algorithm. The plan (coefficients, tables, taps and, for deriche, the FIR's
// intermediate image on the same device as the buffers) is made once, so a timed call is the
// pipelines alone.
std::function<void()> gaussian_call(const std::string &bounded, halide_buffer_t *input_f32,
                                    halide_buffer_t *output_f32, Device device) {
    const auto [variant, boundary, samples] = split_variant(bounded);
    const auto input = retyped(input_f32, samples), output = retyped(output_f32, samples);
    GaussianMethod method;
    try {
        method = parse_gaussian_method(variant);
    } catch (const Error &e) {
        throw Skip{std::string("unknown variant: ") + e.what()};
    }
    auto plan =
        std::make_shared<GaussianPlan>(design_gaussian(kBenchGaussianSigma, method), input->width(),
                                       input->height(), 1, IirOptions{boundary, choice_of(device)}, samples);
    return [=] { plan->run(input->raw_buffer(), output->raw_buffer()); };
}

// max |output − reference| ÷ max |reference| for a Gaussian case: the method's own design run in
// double (runtime/design/reference.h), so the error is the pipeline's rounding, not the method's.
double gaussian_error(const std::string &variant, const float *input, const float *output, int width,
                      int height) {
    const GaussianDesign design = design_gaussian(kBenchGaussianSigma, parse_gaussian_method(variant));
    reference::Matrix x(height, width);
    for (int y = 0; y < height; y++)
        for (int i = 0; i < width; i++) x(y, i) = input[size_t(y) * width + i];
    const reference::Matrix want = design.method == GaussianMethod::twoway
                                       ? reference::two_way_2d(design.two_way, x)
                                       : reference::fir_iir_2d(design.parts, x);
    double error = 0;
    for (int y = 0; y < height; y++)
        for (int i = 0; i < width; i++)
            error = std::max(error, std::abs(output[size_t(y) * width + i] - want(y, i)));
    const double largest = want.cwiseAbs().maxCoeff();
    return largest > 0 ? error / largest : error;
}

// The buffers of one size on one device: W×H×1 float32 input (random) and output, host-backed;
// on CUDA also in device memory of the CUDA runtime, wrapped for Halide, the input uploaded.
class Workspace {
public:
    Workspace(int width, int height, Device device, unsigned seed)
        : width_(width),
          height_(height),
          device_(device),
          input_(width, height, 1),
          output_(width, height, 1) {
        fill_random(input_.data(), pixels(), seed);
        std::memset(output_.data(), 0, bytes());  // Buffer::fill would mark the host dirty
#ifdef CASCADE_HAVE_CUDA_RUNTIME
        if (device == Device::cuda) {
            device_input_ = std::make_unique<baselines::DeviceArray>(bytes());
            device_output_ = std::make_unique<baselines::DeviceArray>(bytes());
            device_input_->upload(input_.data());
            device_output_->upload(output_.data());
            // Wrapped, not copied: no device allocation of Halide's that a crop could free, and
            // neither buffer dirty on both sides.
            const halide_device_interface_t *cuda = halide_cuda_device_interface();
            if (input_.device_wrap_native(cuda, uint64_t(device_input_->data())) != 0 ||
                output_.device_wrap_native(cuda, uint64_t(device_output_->data())) != 0)
                throw Error("wrapping device memory in Halide buffers failed");
        }
#endif
    }

    size_t pixels() const { return size_t(width_) * height_; }
    size_t bytes() const { return pixels() * sizeof(float); }
    halide_buffer_t *input() { return input_.raw_buffer(); }
    halide_buffer_t *output() { return output_.raw_buffer(); }
    const float *host_input() const { return input_.data(); }

    std::function<void()> copy() {
#ifdef CASCADE_HAVE_CUDA_RUNTIME
        if (device_ == Device::cuda)
            return [this] { baselines::device_copy(device_output_->data(), device_input_->data(), bytes()); };
#endif
        return [this] { std::memcpy(output_.data(), input_.data(), bytes()); };
    }

    std::function<void()> cub_sat() {
        if (device_ != Device::cuda) throw Skip{"unavailable: cub-sat runs on CUDA only"};
        BaselineAbsence absence;
        const baselines::CudaBaselines *cuda = cuda_baselines(&absence);
        if (!cuda) throw Skip{absence.note()};
        if (!cub_) cub_ = cuda->cub_sat(width_, height_);
        return on_device(*cub_);
    }

    std::function<void()> cufft_gaussian() {
        if (device_ != Device::cuda) throw Skip{"unavailable: cufft-gaussian runs on CUDA only"};
        const BaselineAbsence absence = cufft_absence();
        if (!absence.reason.empty()) throw Skip{absence.note()};
        if (!fft_) fft_ = cuda_baselines()->cufft_gaussian(width_, height_, kBenchGaussianSigma);
        return on_device(*fft_);
    }

    std::function<void()> cv_gaussian() {
        if (!cv_gaussian_) cv_gaussian_ = opencv_or_skip().gaussian(width_, height_, kBenchGaussianSigma);
        return [this] { cv_gaussian_->run(input_.data(), output_.data()); };
    }

    // Times the table alone; `cv_integral_result` copies its inclusive part to the output.
    std::function<void()> cv_integral() {
        if (!cv_integral_) cv_integral_ = opencv_or_skip().integral(width_, height_);
        return [this] { cv_integral_->run(input_.data(), output_.data()); };
    }

    void cv_integral_result() {
        if (cv_integral_) cv_integral_->result(output_.data());
    }

    // Milliseconds of each timed call: CUDA events on the default stream, or the host's clock.
    std::vector<double> time(const std::function<void()> &op, const BenchOptions &options) {
#ifdef CASCADE_HAVE_CUDA_RUNTIME
        if (device_ == Device::cuda)
            return baselines::time_on_default_stream(op, options.warmup, options.repetitions);
#endif
        for (int i = 0; i < options.warmup; i++) op();
        std::vector<double> ms;
        for (int i = 0; i < options.repetitions; i++) {
            const auto start = std::chrono::steady_clock::now();
            op();
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        return ms;
    }

    // The output of the last call, on the host.
    const float *result() {
#ifdef CASCADE_HAVE_CUDA_RUNTIME
        if (device_ == Device::cuda) device_output_->download(output_.data());
#endif
        return output_.data();
    }

private:
    const baselines::OpenCvBaselines &opencv_or_skip() const {
        const BaselineAbsence absence = opencv_absence(device_);
        if (!absence.reason.empty()) throw Skip{absence.note()};
        return *opencv_baselines();
    }

    // A CUDA baseline's call on the device buffers (cuda_support.h: the CUDA runtime's memory).
    std::function<void()> on_device(baselines::Baseline &baseline) {
#ifdef CASCADE_HAVE_CUDA_RUNTIME
        return [this, &baseline] {
            baseline.run(static_cast<const float *>(device_input_->data()),
                         static_cast<float *>(device_output_->data()));
        };
#else
        (void)baseline;
        throw Skip{"unavailable: this build has no CUDA runtime"};
#endif
    }

    int width_, height_;
    Device device_;
#ifdef CASCADE_HAVE_CUDA_RUNTIME
    // Declared before the Halide buffers, so freed after they detach.
    std::unique_ptr<baselines::DeviceArray> device_input_, device_output_;
#endif
    // The baselines, each made once for this size (the cuFFT Gaussian's plans and padded buffers).
    std::unique_ptr<baselines::Baseline> cub_, fft_, cv_gaussian_, cv_integral_;
    Halide::Runtime::Buffer<float> input_, output_;
};

// The call a case times. Throws Skip when it cannot run here.
std::function<void()> prepare(const BenchCase &c, Workspace &ws) {
    if (c.op == "copy") return ws.copy();
    if (c.op == "cub-sat") return ws.cub_sat();
    if (c.op == "iir") return iir_call(c.variant, ws.input(), ws.output(), c.device);
    if (c.op == "gaussian") return gaussian_call(c.variant, ws.input(), ws.output(), c.device);
    if (c.op == "cufft-gaussian") return ws.cufft_gaussian();
    if (c.op == "cv-gaussian") return ws.cv_gaussian();
    if (c.op == "cv-integral") return ws.cv_integral();
    if (c.op == "realisation") {
        if (!c.make) throw Skip{"failed: a realisation case without its call"};
        return c.make(ws.input(), ws.output());
    }
    if (c.op != "sat")
        throw Skip{
            "unknown op (expected copy, sat, cub-sat, iir, gaussian, cufft-gaussian, cv-gaussian or "
            "cv-integral)"};
    SatAlgorithm algorithm;
    try {
        algorithm = parse_sat_algorithm(c.variant);
    } catch (const Error &e) {
        throw Skip{std::string("unknown variant: ") + e.what()};
    }
    return [&ws, algorithm, device = c.device] {
        summed_area_table(ws.input(), ws.output(), algorithm, device);
    };
}

// A missing variant (find_variant's "no <device> variant of …") is a property of the build, not
// a failure of the run; plans look their variants up when made, pipelines when called.
Skip classify(const Error &e) {
    const std::string what = e.what();
    const bool missing = what.rfind("no ", 0) == 0 && what.find(" variant of ") != std::string::npos;
    return Skip{(missing ? "not built: " : "failed: ") + what};
}

// The case's timed call, probed once so that errors surface before timing (a failure is the
// case's note, classified).
std::function<void()> prepare_case(BenchResult &r, Workspace &ws) {
    try {
        std::function<void()> op = prepare(r.c, ws);
        if (r.c.op != "copy") op();
        return op;
    } catch (const Error &e) {
        throw classify(e);
    }
}

// The case's throughput from its median (the copy's own for the copy) and the copy's, and its
// --check.
void finish_case(BenchResult &r, const std::function<void()> &op, Workspace &ws, double median_ms,
                 double copy_ms, const BenchOptions &options) {
    r.median_ms = r.c.op == "copy" ? copy_ms : median_ms;
    const double pixels = double(r.c.width) * r.c.height;
    r.gips = pixels / kGi / (r.median_ms * 1e-3);
    const double copy_bytes_per_second = kCopyBytesPerPixel * pixels / (copy_ms * 1e-3);
    r.floor_fraction = r.gips / (copy_bytes_per_second / r.bytes_per_pixel / kGi);
    // iir and cufft-gaussian have no full-size reference here; cufft-gaussian has its self-check.
    // The Gaussian's reference is float32 samples, boundary none.
    const BoundedVariant v = split_variant(r.c.variant);
    const bool gaussian =
        r.c.op == "gaussian" && v.samples == SampleType::f32 && v.boundary == Boundary::none;
    const bool table = r.c.op == "sat" || r.c.op == "cub-sat" || r.c.op == "cv-integral";
    if (options.check && (r.c.op == "copy" || table || gaussian)) {
        op();  // the output holds the last case's result
        if (r.c.op == "cv-integral") ws.cv_integral_result();
        const float *out = ws.result();
        if (r.c.op == "copy") {
            if (std::memcmp(out, ws.host_input(), ws.bytes()) != 0) r.note = "CHECK FAILED: the copy differs";
        } else {
            const double error =
                gaussian ? gaussian_error(r.c.variant, ws.host_input(), out, r.c.width, r.c.height)
                         : sat_error(ws.host_input(), out, r.c.width, r.c.height);
            char text[96];
            std::snprintf(text, sizeof(text), "%scheck: max error %.2g of the largest value",
                          error > kCheckTolerance ? "CHECK FAILED: " : "", error);
            r.note = text;
        }
    }
}

std::string size_problem(const BenchCase &c) {
    if (c.width < 1 || c.height < 1) return "unavailable: the size must be at least 1x1";
    try {
        require_addressable("image", c.width, c.height, 1, sizeof(float));
    } catch (const Error &e) {
        return std::string("unavailable: ") + e.what();
    }
    return "";
}

void append_note(std::string &note, const std::string &more) { note += (note.empty() ? "" : "; ") + more; }

// The baselines' self-checks on a small image, noted on each of their measured rows.
void append_self_check(BenchResult &r) {
    const bool fft = r.c.op == "cufft-gaussian", cv = r.c.op.rfind("cv-", 0) == 0;
    if (r.c.op != "cub-sat" && !fft && !cv) return;
    try {
        const double error = fft  ? cufft_gaussian_self_check_error()
                             : cv ? opencv_self_check_error(r.c.op)
                                  : cub_sat_self_check_error();
        const double tolerance = fft ? kFftSelfCheckTolerance : kSelfCheckTolerance;
        char text[64];
        std::snprintf(text, sizeof(text), "%sself-check 67x45: error %.2g",
                      error > tolerance ? "SELF-CHECK FAILED: " : "", error);
        append_note(r.note, text);
        if (cv) append_note(r.note, opencv_baselines()->description());
        // Which cuFFT was timed: it is whichever the dynamic loader found.
        if (fft) append_note(r.note, "cuFFT " + std::to_string(cuda_baselines()->cufft_version()));
    } catch (const std::exception &e) {
        append_note(r.note, std::string("SELF-CHECK FAILED: ") + e.what());
    }
}

// Runs the cases of one size and device (indices into `results`).
void run_group(std::vector<BenchResult> &results, const std::vector<size_t> &group,
               const BenchOptions &options) {
    const BenchCase &first = results[group.front()].c;
    std::string problem = size_problem(first);
    if (problem.empty() && first.device == Device::cuda) {
        problem = bench_cuda_unavailable_reason();
        if (!problem.empty()) problem = "unavailable: " + problem;
    }
    std::unique_ptr<Workspace> ws;
    double copy_ms = kNaN;
    if (problem.empty()) {
        try {
            ws = std::make_unique<Workspace>(first.width, first.height, first.device, options.seed);
            copy_ms = median(ws->time(ws->copy(), options));
        } catch (const std::exception &e) {
            problem = std::string("failed: the buffers or the copy that sets the floor: ") + e.what();
        }
    }
    // A case that cannot run gets its note and no time, never an exception.
    const auto guarded = [&](BenchResult &r, const std::function<void()> &step) {
        try {
            step();
            return true;
        } catch (const Skip &skip) {
            r.note = skip.note;
        } catch (const std::exception &e) {
            r.note = std::string("failed: ") + e.what();
        }
        return false;
    };
    std::vector<std::function<void()>> ops(group.size());
    std::vector<std::vector<double>> samples(group.size());
    if (problem.empty() && options.rounds > 1) {
        // Interleaved: every case (and the copy) is timed a share of its repetitions in each
        // round, so that a drift of the machine's speed reaches every case alike.
        std::vector<double> copy_samples;
        for (size_t k = 0; k < group.size(); k++)
            if (guarded(results[group[k]], [&] { ops[k] = prepare_case(results[group[k]], *ws); }) &&
                results[group[k]].c.op != "copy")
                ws->time(ops[k], {options.warmup, 1});
        const int per_round = std::max(1, options.repetitions / options.rounds);
        // Each round starts n/rounds cases further on, and each case's calls follow an untimed one: on
        // the H100 a case timed right after the slowest ones (RT's, ~20 ms a call) ran up to 40%
        // slower than in a run of its own (cascade tune --check-auto, reflect, 2026-11-26).
        const size_t n = group.size();
        for (int round = 0; round < options.rounds; round++) {
            const auto copied = ws->time(ws->copy(), {1, per_round});
            copy_samples.insert(copy_samples.end(), copied.begin(), copied.end());
            for (size_t i = 0; i < n; i++) {
                const size_t k = (i + size_t(round) * n / size_t(options.rounds)) % n;
                if (ops[k] && results[group[k]].c.op != "copy")
                    guarded(results[group[k]], [&] {
                        const auto timed = ws->time(ops[k], {1, per_round});
                        samples[k].insert(samples[k].end(), timed.begin(), timed.end());
                    });
            }
        }
        copy_ms = median(copy_samples);
    }
    for (size_t k = 0; k < group.size(); k++) {
        BenchResult &r = results[group[k]];
        if (!problem.empty()) {
            r.note = problem;
            continue;
        }
        if (options.rounds > 1) {
            if (ops[k] && r.note.empty())
                guarded(r, [&] { finish_case(r, ops[k], *ws, median(samples[k]), copy_ms, options); });
        } else {
            guarded(r, [&] {
                const std::function<void()> op = prepare_case(r, *ws);
                finish_case(r, op, *ws, r.c.op == "copy" ? kNaN : median(ws->time(op, options)), copy_ms,
                            options);
            });
        }
        if (!measured(r)) r.median_ms = r.gips = r.floor_fraction = kNaN;
        if (measured(r)) append_self_check(r);
    }
    ws.reset();
#ifdef CASCADE_HAVE_CUDA_RUNTIME
    if (first.device == Device::cuda && problem.empty())
        halide_cuda_release_unused_device_allocations(nullptr);
#endif
}

}  // namespace

bool measured(const BenchResult &result) { return std::isfinite(result.median_ms) && result.median_ms > 0; }

const std::vector<std::string> &bench_ops() {
    static const std::vector<std::string> ops = {
        "copy", "sat", "cub-sat", "iir", "gaussian", "cufft-gaussian", "cv-gaussian", "cv-integral"};
    return ops;
}

std::vector<std::string> bench_variants(const std::string &op) {
    if (op == "sat") return {"naive", "overlapped", "2r1w", "1r1w", "1r1w-split", "strips"};
    if (op == "iir")
        return {"rt-order1",          "rt-order3",          "2-order1",           "2-order3",
                "4-order1",           "4-order3",           "5-order1",           "5-order3",
                "6-order1",           "6-order3",           "strips-order1",      "strips-order3",
                "line1-order1",       "line3-order1",       "line1-order3",       "line3-order3",
                "linestrips1-order1", "linestrips3-order1", "linestrips1-order3", "linestrips3-order3"};
    if (op == "gaussian") return {"vanvliet", "deriche2", "deriche4", "twoway"};
    return {""};
}

double bench_bytes_per_pixel(const std::string &op, const std::string &variant) {
    // Two reads (the column passes' result is re-read), one write. gaussian keeps iir's model:
    // deriche's FIR pass moves one more read and write, counted as the method's cost.
    if (op == "iir" || op == "gaussian") return 3.0 * sample_size(split_variant(variant).samples);
    if (op == "realisation") return 12;  // float32, iir's model whatever the stages move
    // cufft-gaussian: the task's one read and one write, like the recursive Gaussian's ideal; the
    // FFT moves several times that (docs/bench.md).
    // cv-gaussian: a separable FIR, one read and one write at best; cv-integral: a SAT.
    if (op == "copy" || op == "sat" || op == "cub-sat" || op == "cufft-gaussian" || op == "cv-gaussian" ||
        op == "cv-integral")
        return 8;
    return kNaN;
}

std::string bench_cuda_unavailable_reason() {
#ifdef CASCADE_HAVE_CUDA_RUNTIME
    static const std::string reason = [] {
        if (cuda_info().devices == 0) return "no CUDA device: " + cuda_info().reason;
        std::string why = share_cuda_context_with_halide();
        if (!why.empty()) return why;
        try {
            baselines::cuda_init();
        } catch (const std::exception &e) {
            return std::string(e.what());
        }
        // Pipelines allocate their intermediates once, not on every timed call.
        halide_reuse_device_allocations(nullptr, true);
        return std::string();
    }();
    return reason;
#else
    return "this build has no CUDA runtime (no CUDA compiler was found at configure time)";
#endif
}

double cub_sat_self_check_error() {
    const std::string why = bench_cuda_unavailable_reason();
    if (!why.empty()) throw Error("the CUB self-check cannot run: " + why);
    BaselineAbsence absence;
    const baselines::CudaBaselines *cuda = cuda_baselines(&absence);
    if (!cuda) throw Error("the CUB self-check cannot run: " + absence.note());
    try {
        return cuda->cub_sat_self_check();
    } catch (const std::exception &e) {
        throw Error(std::string("the CUB self-check failed: ") + e.what());
    }
}

std::string bench_cufft_unavailable_reason() { return cufft_absence().reason; }

double cufft_gaussian_self_check_error() {
    const std::string why = bench_cufft_unavailable_reason();
    if (!why.empty()) throw Error("the cuFFT self-check cannot run: " + why);
    try {
        return cuda_baselines()->cufft_gaussian_self_check(kBenchGaussianSigma);
    } catch (const std::exception &e) {
        throw Error(std::string("the cuFFT self-check failed: ") + e.what());
    }
}

std::string bench_opencv_unavailable_reason(Device device) { return opencv_absence(device).reason; }

double opencv_self_check_error(const std::string &op) {
    const std::string why = bench_opencv_unavailable_reason(Device::cpu);
    if (!why.empty()) throw Error("the OpenCV self-check cannot run: " + why);
    const baselines::OpenCvBaselines *opencv = opencv_baselines();
    if (op == "cv-gaussian") return opencv->gaussian_self_check(kBenchGaussianSigma);
    if (op == "cv-integral") return opencv->integral_self_check();
    throw Error("no OpenCV self-check for '" + op + "'");
}

std::vector<BenchResult> run_benchmark(const std::vector<BenchCase> &cases, const BenchOptions &options) {
    if (options.warmup < 0 || options.repetitions < 1)
        throw Error("the bench needs warmup >= 0 and repetitions >= 1");
    std::vector<BenchResult> results;
    std::vector<std::tuple<int, int, Device>> keys;
    std::vector<std::vector<size_t>> groups;
    for (const BenchCase &c : cases) {
        results.push_back({c, kNaN, kNaN, kNaN, bench_bytes_per_pixel(c.op, c.variant), ""});
        const auto key = std::make_tuple(c.width, c.height, c.device);
        const size_t g = std::find(keys.begin(), keys.end(), key) - keys.begin();
        if (g == keys.size()) {
            keys.push_back(key);
            groups.emplace_back();
        }
        groups[g].push_back(results.size() - 1);
    }
    for (const auto &group : groups) run_group(results, group, options);
    return results;
}

}  // namespace cascade
