#pragma once
// Separable recursive filtering of images: the entry point users call.
#include <HalideRuntime.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/filter.h"
#include "cascade/image.h"

namespace cascade {

struct Variant;  // runtime internals: the AOT pipeline a plan calls
class PipelineCall;

// How each 1D filter is evaluated: one direct-form pass of order r, or a cascade of first- and
// second-order sections (float32-accurate at any order). `automatic`: direct for r ≤ 2,
// sections above.
enum class Form { automatic, direct, sections };

Form parse_form(const std::string &text);  // "auto", "direct", "sections"
std::vector<std::string> form_names();

// How the image is traversed: `rt`, one sequential scan per column then per row (the baseline);
// `a4`, `a5`, `a6`, the block-parallel algorithms 4 and 5 of Nehab et al. 2011 and 6 of Nehab &
// Maximo 2016 (docs/algorithms.md); `a2`, their algorithm 2, blocked but not overlapped, the
// comparison point (boundary none only); `strips`, the CPU's row strips with overlapped column
// windows, the exact boundaries by reading the extension's folded rows and columns (float32;
// docs/algorithms.md). `automatic`: on the CPU strips where they apply (float32 samples, no margin,
// responses that fade within 1024 samples, and under an exact boundary both sides at least 32),
// else a6.
enum class Algorithm { automatic, rt, a2, a4, a5, a6, strips };

Algorithm parse_algorithm(const std::string &text);  // "auto", "rt", "2", "4", "5", "6", "strips"
std::vector<std::string> algorithm_names();
const char *algorithm_name(Algorithm algorithm);  // the same names

// The schedule knobs of the block-parallel algorithms (2, 4, 5, 6): the tile size b and the GPU
// threads per tile column. 0 takes the build's defaults; other values need a variant a tuning
// manifest built (docs/tuning.md). `autoscheduler` ("li2018", "adams2019"): a variant scheduled by
// that Halide autoscheduler instead of by hand (algorithm rt; built from a manifest too).
// `knobs`: the other schedule knobs of a manifest's variant, "key=value" joined by commas in the
// order scan, carries, vector, grain, block (docs/tuning.md): "scan=shared", "vector=16,grain=4".
struct TileSchedule {
    int tile = 0, rows = 0;
    std::string autoscheduler;
    std::string knobs;
    bool operator==(const TileSchedule &o) const {
        return tile == o.tile && rows == o.rows && autoscheduler == o.autoscheduler && knobs == o.knobs;
    }
    bool is_default() const { return tile == 0 && rows == 0 && autoscheduler.empty() && knobs.empty(); }
};

// Which of the filter's four passes run (down, up, right, left): all of them; one dimension's
// (`columns`: down and up, the horizontal filter ignored; `rows`: right and left); or one
// direction's in both dimensions (`causal`: down and right; `anticausal`: up and left, boundary
// none only: an exact boundary's initial conditions come from both directions together). A part
// runs on algorithm RT (`automatic` picks it), from variants a tuning manifest builds
// (docs/tuning.md); they are the stages of the per-dimension and per-direction realisations.
enum class Passes { all, columns, rows, causal, anticausal };

Passes parse_passes(const std::string &text);  // "all", "columns", "rows", "causal", "anticausal"
std::vector<std::string> passes_names();
const char *passes_name(Passes passes);  // the same names

struct IirOptions {
    Boundary boundary = Boundary::none;
    DeviceChoice device = DeviceChoice::automatic;
    Form form = Form::automatic;
    Algorithm algorithm = Algorithm::automatic;
    TileSchedule schedule = {};
    Passes passes = Passes::all;
};

// A filter bound to the variant that runs it on images of one size, with its coefficients and
// (block-parallel algorithms) matrix tables computed once: repeated calls pay only the pipeline.
// Checks the filter's stability and that the build has a fitting variant; throws cascade::Error.
// A boundary other than none also computes its tables (boundary.h) for this size.
//
// Threads: run() and run_host() may be called on one plan from several threads at once. A CUDA
// plan's first call uploads its tables, alone; later calls only read them. They stay in the CUDA
// context of that first call (cascade/cuda.h): use a plan within one context.
class IirPlan {
public:
    // `options`: as iir_2d takes them; the device is resolved as there (resolve_device), so a
    // CUDA plan needs the device. options.schedule: the knobs of a block-parallel algorithm's
    // variant (default: the build's); options.passes: the part of the filter to run (float32, no
    // margin). `samples`: the type of the images it reads and writes; uint8 and uint16 are
    // converted inside the pipeline's first and last pass (algorithm 6; converts_samples says
    // when). `margin` (boundary zero or clamp): the output is (W + 2·margin)×(H + 2·margin), the
    // exact filter of the extension that far past each edge too, for a filter that reads past the
    // edges after it (Deriche's numerator). Built for what Deriche needs: order 2 and 2 sections.
    IirPlan(const Filter2D &filter, int width, int height, const IirOptions &options = {},
            SampleType samples = SampleType::f32, int margin = 0);
    // The same, or null where this build does not convert `samples` for this filter and these
    // options (converts_samples) instead of throwing for it: the buffer entry points then return
    // false having chosen the variant once.
    static std::unique_ptr<IirPlan> converting(const Filter2D &filter, int width, int height,
                                               const IirOptions &options, SampleType samples);
    ~IirPlan();
    IirPlan(const IirPlan &) = delete;
    IirPlan &operator=(const IirPlan &) = delete;

    // On W×H×C buffers of the plan's size and sample type where the caller keeps them (host, or
    // device for a CUDA plan, as in the bench): results stay where the pipeline leaves them. On
    // the host `output` may be `input` itself (in place); on the GPU it must be another buffer.
    void run(halide_buffer_t *input, halide_buffer_t *output);
    // On host buffers (or images, for a float32 plan): for a CUDA plan, copied to the device and back.
    void run_host(halide_buffer_t *input, halide_buffer_t *output);
    void run(const Image &input, Image &output);

    // The AOT pipeline it calls (internal).
    const Variant &variant() const;

private:
    struct Tables;
    struct Edges;
    // `refusable`: samples no variant converts leave variant_ null instead of throwing.
    IirPlan(const Filter2D &filter, int width, int height, const IirOptions &options, SampleType samples,
            int margin, bool refusable);
    // The variant's call on these buffers, every argument bound; checks their size.
    PipelineCall call(halide_buffer_t *input, halide_buffer_t *output) const;
    // All of each plane as one strip, where the planes keep the threads busy: the strips' height
    // for a call on `input` (into itself where `in_place`), or 0 for the plan's own height (in
    // place, 0 means it runs from a copy).
    int whole_strip(const halide_buffer_t *input, bool in_place) const;
    static constexpr double kWholeStripBytes = 4 << 20;
    // In place where whole_strip is 0: runs from a copy of `input` and returns true.
    bool ran_from_copy(halide_buffer_t *input, halide_buffer_t *output, bool host);

    const Variant *variant_;
    SampleType samples_;
    std::map<std::string, double> scalars_;
    std::unique_ptr<Tables> tables_;
    std::unique_ptr<Edges> edges_;
    int width_, height_, margin_;
    std::mutex first_run_;
    std::atomic<bool> warm_{false};
};

// True when this build converts `samples` inside the pipeline for `filter` as `options` run it on
// `device` (float32 always): uint8 and uint16 on algorithm 6, for the section counts built.
bool converts_samples(const Filter2D &filter, const IirOptions &options, SampleType samples, Device device);

// Applies `filter` to every channel of `input`: causal then anticausal down the columns, then
// along the rows. Checks the filter's stability first; throws cascade::Error on any failure.
// A one-row or one-column image with the automatic algorithm runs as a long 1D signal
// (runtime/line_filter.h): on CUDA, and under the exact boundaries on either device, by
// overlapped segments where the filter's response fits them; else, boundary none, by Nehab et
// al.'s algorithm 3, block-parallel along it.
Image iir_2d(const Image &input, const Filter2D &filter, const IirOptions &options = {});
// The same, into an `output` of the input's shape (reused, or poisoned by tests beforehand).
void iir_2d(const Image &input, Image &output, const Filter2D &filter, const IirOptions &options = {});

// The same on host W×H×C planar buffers of one sample type (include/cascade/planes.h): uint8 and uint16
// are converted inside the pipeline. Returns false, having run nothing, when this build does not
// convert that type for this filter and these options (converts_samples). 8/16-bit signals run on
// the 2D variants.
bool iir_2d(halide_buffer_t *input, halide_buffer_t *output, const Filter2D &filter,
            const IirOptions &options = {});

// NaN and Inf samples. The filters do not look for them (a check would cost a pass over the
// image): they propagate as IEEE arithmetic carries them through each recursion, never into another
// channel. A two-sided recursive filter in both dimensions (iir_2d, the B-splines, every Gaussian
// but twoway) leaves the channel holding one wholly non-finite; twoway, whose lines are cut at their
// centres, at least the sample itself; a summed-area table, every entry at and below-right of it
// and no other. box_mean refuses them (it throws): its tables hold the image less its channel
// means, so one would reach every box. Call require_finite first to refuse them, as the `cascade`
// command line does (it also refuses float64 samples past float32's range).
// Throws cascade::Error naming the first non-finite sample of `image`, if any.
void require_finite(const Image &image);

}  // namespace cascade
