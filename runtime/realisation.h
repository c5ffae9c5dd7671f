#pragma once
// A filter's realisations: the ways this build can run it, each exact for the boundary asked for
// (docs/tuning.md). A realisation is a decomposition of the filter into stages, each stage one
// pipeline call with an algorithm, a form and a tile schedule.
#include <HalideBuffer.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cascade/iir.h"

namespace cascade {

// One pipeline call: a part of the filter, run by one variant.
struct Stage {
    Filter2D filter;
    Algorithm algorithm = Algorithm::a6;
    Form form = Form::sections;
    TileSchedule schedule;  // tiled algorithms: the variant's tile and rows; an autoscheduled variant's name
    Passes passes = Passes::all;  // the part of `filter` the stage runs
};

// How the filter is split into stages (docs/tuning.md says where each is exact).
enum class Decomposition {
    whole,       // one pipeline: both dimensions, every section, causal and anticausal
    split,       // one pipeline per section (a real pole, two real poles or a complex pair), both dimensions
    grouped,     // one pipeline per group of sections (three sections or more: every other grouping)
    dims,        // one pipeline per dimension: the columns' passes, then the rows'
    directions,  // one pipeline per direction: the causal passes of both dimensions, then the anticausal
};

struct Realisation {
    std::string name;  // "whole/6/sections/64x2", "split/rt/direct", "whole/rt/sections/li2018",
                       // "group-13-2/6/sections/64x2", "dims/rt/sections":
                       // decomposition/algorithm/form[/schedule]
    Decomposition decomposition = Decomposition::whole;
    // grouped: each stage's sections, numbered from 1 in to_sections' order (the two dimensions'
    // sections paired in order); "group-13-2" is {{1, 3}, {2}}.
    std::vector<std::vector<int>> groups;
    std::vector<Stage> stages;
};

struct RefusedRealisation {
    std::string name;
    std::string reason;  // why it cannot be exact for the boundary, or why this build cannot run it
};

struct Realisations {
    std::vector<Realisation> candidates;  // every one exact for the boundary (tune verifies it)
    std::vector<RefusedRealisation> refused;
};

// Every decomposition × algorithm (rt, 2, 4, 5, 6, strips) × form (direct, sections) × tile
// schedule this build holds for `filter` under `boundary` on `device`; groupings whose stages
// stay within order 4. Realisations that run the
// same variants as an earlier one (the direct form of a filter that is one section) are left out.
// Throws cascade::Error for an unstable filter.
Realisations enumerate_realisations(const Filter2D &filter, Boundary boundary, Device device);

// The stages of the realisation `name` names (as enumerate_realisations names it). Throws
// cascade::Error when the name is malformed, or the realisation cannot run the filter exactly.
Realisation parse_realisation(const std::string &name, const Filter2D &filter, Boundary boundary);

// The smallest image {width, height} the realisation runs on: {1, 1}, or what its autoscheduled
// variants assume (variants.h, minimum_size).
std::pair<int, int> smallest_image(const Realisation &realisation);

// The variants the realisation calls, in order, read from a trial plan (on an image no tile
// divides, past its smallest image). Throws cascade::Error where the build cannot run it.
std::vector<const Variant *> realisation_variants(const Realisation &realisation, Device device,
                                                  Boundary boundary);

// Algorithms 2, 4, 5, 6: the ones with a tile schedule (TILExROWS).
bool is_tiled(Algorithm algorithm);

// A realisation's name: "whole/6/sections/64x2+scan=shared", "group-13-2/rt/direct/li2018".
std::string realisation_name(Decomposition d, const std::vector<std::vector<int>> &groups,
                             Algorithm algorithm, Form form, const TileSchedule &schedule);

// The realisation `automatic` runs where no tuning table names one (runtime/iir.cpp): on the CPU
// the strips where they apply, else algorithm 6 with the build's tile schedule.
std::string fixed_realisation(const Filter2D &filter, Boundary boundary, Device device);

// A realisation bound to its variants on images of one size: a plan per stage, and (two stages
// or more) one intermediate image per channel count, allocated on first use.
class RealisedPlan {
public:
    RealisedPlan(const Realisation &realisation, int width, int height, Device device, Boundary boundary);
    // On W×H×C float32 buffers where the caller keeps them (host, or device for CUDA).
    void run(halide_buffer_t *input, halide_buffer_t *output);
    // On host images; a CUDA plan copies in and out once, its intermediates stay on the device.
    void run(const Image &input, Image &output);
    const Realisation &realisation() const { return realisation_; }
    // The variant each stage calls, in order.
    std::vector<const Variant *> variants() const;

private:
    void run_stages(halide_buffer_t *input, halide_buffer_t *output);

    Realisation realisation_;
    Device device_;
    std::vector<std::unique_ptr<IirPlan>> plans_;
    std::mutex intermediate_mutex_;
    Halide::Runtime::Buffer<float> intermediate_;
    int intermediate_channels_ = 0;  // 0: not allocated yet
};

// The plan of several stages the tuning tables name for a filter left to `automatic` at this size
// (IirPlan runs the single-stage winners itself); null where none does, or this build cannot run
// it. Throws cascade::Error for an unstable filter or a malformed table.
std::unique_ptr<RealisedPlan> tuned_chain(const Filter2D &filter, Boundary boundary, Device device, int width,
                                          int height);

}  // namespace cascade
