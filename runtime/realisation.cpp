#include "realisation.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <tuple>

#include "cascade/error.h"
#include "cascade/planes.h"
#include "pipeline_call.h"
#include "variants.h"

namespace cascade {

namespace {

constexpr Algorithm kAlgorithms[] = {Algorithm::rt, Algorithm::a2, Algorithm::a4,
                                     Algorithm::a5, Algorithm::a6, Algorithm::strips};
// Sections first: where both forms call the same variant (one section), the name says sections.
constexpr Form kForms[] = {Form::sections, Form::direct};
// Where enumerate_realisations builds its trial plans: a size no tile divides.
constexpr int kTrialWidth = 67, kTrialHeight = 45;

const char *decomposition_name(Decomposition d) { return d == Decomposition::whole ? "whole" : "split"; }

bool tiled(Algorithm algorithm) { return algorithm != Algorithm::rt && algorithm != Algorithm::strips; }

// "64x2", "li2018", "64x2+li2018".
std::string schedule_name(const TileSchedule &schedule) {
    std::string name;
    if (schedule.tile > 0 || schedule.rows > 0)
        name = std::to_string(schedule.tile) + "x" + std::to_string(schedule.rows);
    if (!schedule.autoscheduler.empty()) name += (name.empty() ? "" : "+") + schedule.autoscheduler;
    return name;
}

std::string realisation_name(Decomposition d, Algorithm algorithm, Form form, const TileSchedule &schedule) {
    std::string name = std::string(decomposition_name(d)) + "/" + algorithm_name(algorithm) + "/" +
                       (form == Form::direct ? "direct" : "sections");
    const std::string knobs = schedule_name(schedule);
    if (!knobs.empty()) name += "/" + knobs;
    return name;
}

// Why a decomposition cannot be exact under `boundary`, or "" where it is.
//
// Each stage of `split` is a causal pass and its anticausal mirror over the same poles: a
// symmetric filter. Applied to a periodic or even (reflect, mirror) extension of a line it gives
// the same kind of extension of its output, so the next stage, extending that output again,
// sees what the whole filter would: the cascade is exact. Under none, zero and clamp the output
// of a stage past the edges is not what the next stage assumes there.
std::string decomposition_problem(Decomposition d, Boundary boundary) {
    if (d == Decomposition::whole) return "";
    switch (boundary) {
        case Boundary::none:
            return "not exact under boundary none: each stage would restart its recursions from zero at the "
                   "edges, while the whole filter carries the earlier sections' responses past them";
        case Boundary::zero:
            return "not exact under boundary zero: past the edges a stage's output is not zero, but the next "
                   "stage would extend it with zeros";
        case Boundary::clamp:
            return "not exact under boundary clamp: past the edges a stage's output is not constant, but the "
                   "next stage would extend it with its edge samples";
        case Boundary::periodic:
        case Boundary::reflect:
        case Boundary::mirror:
            return "";
    }
    return "unknown boundary";
}

// The filter's stages under a decomposition: the whole filter, or one stage per section (each
// dimension's sections paired in order, the shorter list padded with identity passes).
std::vector<Filter2D> stage_filters(Decomposition d, const Filter2D &filter) {
    if (d == Decomposition::whole) return {filter};
    std::vector<RecursiveFilter> v = to_sections(filter.vertical), h = to_sections(filter.horizontal);
    const size_t n = std::max(v.size(), h.size());
    const RecursiveFilter identity{1.0, {0.0}};
    v.resize(n, identity);
    h.resize(n, identity);
    std::vector<Filter2D> stages;
    for (size_t k = 0; k < n; k++) stages.push_back({v[k], h[k]});
    return stages;
}

// The schedules the build holds for an algorithm on `device`, in order (tile, rows, autoscheduler):
// a tiled algorithm's tile schedules, and the autoscheduled variants of any. RT's hand schedule is
// the default schedule {}.
std::vector<TileSchedule> schedules_of(Algorithm algorithm, Device device) {
    const std::string stem =
        algorithm == Algorithm::rt ? "iir_rt" : std::string("iir_a") + algorithm_name(algorithm);
    std::vector<TileSchedule> schedules;
    if (!tiled(algorithm)) schedules.push_back({});
    for (const Variant &v : variants()) {
        const std::string name = v.algorithm;
        const bool ours = name == stem || name.rfind(stem + "_", 0) == 0;
        const TileSchedule s{v.tile, v.rows, v.autoscheduler};
        if (ours && v.device == device && (v.tile > 0 || !s.autoscheduler.empty()) &&
            std::find(schedules.begin(), schedules.end(), s) == schedules.end())
            schedules.push_back(s);
    }
    std::sort(schedules.begin(), schedules.end(), [](const TileSchedule &a, const TileSchedule &b) {
        return std::tie(a.tile, a.rows, a.autoscheduler) < std::tie(b.tile, b.rows, b.autoscheduler);
    });
    return schedules;
}

std::vector<Stage> make_stages(Decomposition d, const Filter2D &filter, Algorithm algorithm, Form form,
                               const TileSchedule &schedule) {
    std::vector<Stage> stages;
    for (const Filter2D &part : stage_filters(d, filter)) stages.push_back({part, algorithm, form, schedule});
    return stages;
}

std::unique_ptr<IirPlan> stage_plan(const Stage &s, int width, int height, Device device, Boundary boundary) {
    return std::make_unique<IirPlan>(s.filter, width, height, s.form, s.algorithm, device, boundary,
                                     SampleType::f32, 0, s.schedule);
}

}  // namespace

std::pair<int, int> smallest_image(const Realisation &realisation) {
    // Before any plan exists the stage's variant is not known: the largest of its autoscheduler's
    // variants, which share the generator's estimates, stands for it.
    std::pair<int, int> size{1, 1};
    for (const Stage &s : realisation.stages)
        for (const Variant &v : variants())
            if (!s.schedule.autoscheduler.empty() && v.autoscheduler == s.schedule.autoscheduler) {
                const auto [width, height] = minimum_size(v);
                size = {std::max(size.first, width), std::max(size.second, height)};
            }
    return size;
}

std::vector<const Variant *> realisation_variants(const Realisation &realisation, Device device,
                                                  Boundary boundary) {
    const auto [smallest_width, smallest_height] = smallest_image(realisation);
    return RealisedPlan(realisation, std::max(kTrialWidth, smallest_width),
                        std::max(kTrialHeight, smallest_height), device, boundary)
        .variants();
}

Realisations enumerate_realisations(const Filter2D &filter, Boundary boundary, Device device) {
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    Realisations out;
    std::set<std::vector<const Variant *>> seen;  // the variants each candidate calls, in order
    std::set<std::string> refused;                // decomposition/algorithm/form: refused once
    const auto refuse = [&](const std::string &name, const std::string &reason) {
        if (refused.insert(name).second) out.refused.push_back({name, reason});
    };
    for (Decomposition d : {Decomposition::whole, Decomposition::split}) {
        const std::vector<Filter2D> parts = stage_filters(d, filter);
        if (d == Decomposition::split && parts.size() < 2) continue;  // one section: the whole filter
        const std::string problem = decomposition_problem(d, boundary);
        for (Algorithm algorithm : kAlgorithms) {
            std::vector<TileSchedule> schedules = {TileSchedule{}};
            if (algorithm != Algorithm::strips) schedules = schedules_of(algorithm, device);
            for (Form form : kForms) {
                const std::string family = std::string(decomposition_name(d)) + "/" +
                                           algorithm_name(algorithm) + "/" +
                                           (form == Form::direct ? "direct" : "sections");
                if (!problem.empty()) {
                    refuse(family, problem);
                    continue;
                }
                if (schedules.empty())
                    refuse(family, std::string("this build has no ") + device_name(device) +
                                       " variant of algorithm " + algorithm_name(algorithm));
                // With the build's default schedule first: a refusal there concerns the family.
                try {
                    RealisedPlan(Realisation{family, d, make_stages(d, filter, algorithm, form, {})},
                                 kTrialWidth, kTrialHeight, device, boundary);
                } catch (const Error &e) {
                    refuse(family, e.what());
                    continue;
                }
                for (TileSchedule schedule : schedules) {
                    Realisation r{realisation_name(d, algorithm, form, schedule), d,
                                  make_stages(d, filter, algorithm, form, schedule)};
                    std::vector<const Variant *> calls;
                    try {
                        calls = realisation_variants(r, device, boundary);
                    } catch (const Error &e) {
                        refuse(r.name, e.what());  // this schedule only: the family ran above
                        continue;
                    }
                    if (seen.insert(calls).second) out.candidates.push_back(std::move(r));
                }
            }
        }
    }
    return out;
}

Realisation parse_realisation(const std::string &name, const Filter2D &filter, Boundary boundary) {
    std::vector<std::string> parts;
    std::stringstream in(name);
    for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
    const auto bad = [&](const std::string &why) {
        return Error("realisation '" + name + "': " + why +
                     " (expected DECOMPOSITION/ALGORITHM/FORM[/TILExROWS], e.g. whole/6/sections/64x2)");
    };
    if (parts.size() < 3 || parts.size() > 4) throw bad("wrong number of parts");
    Decomposition d;
    if (parts[0] == "whole") {
        d = Decomposition::whole;
    } else if (parts[0] == "split") {
        d = Decomposition::split;
    } else {
        throw bad("unknown decomposition '" + parts[0] + "' (whole or split)");
    }
    const Algorithm algorithm = parse_algorithm(parts[1]);
    const Form form = parse_form(parts[2]);
    if (algorithm == Algorithm::automatic || form == Form::automatic) throw bad("auto is not a realisation");
    // The schedule: the tiled algorithms' TILExROWS, an autoscheduler's name, or both ("64x2",
    // "li2018", "64x2+li2018").
    TileSchedule schedule;
    if (parts.size() == 4) {
        std::string knobs = parts[3];
        const auto malformed = [&] { return bad("malformed schedule '" + parts[3] + "'"); };
        if (const size_t plus = knobs.find('+'); plus != std::string::npos) {
            schedule.autoscheduler = knobs.substr(plus + 1);
            knobs.resize(plus);
            if (schedule.autoscheduler.empty()) throw malformed();
        } else if (knobs.empty()) {
            throw malformed();
        } else if (!std::isdigit(static_cast<unsigned char>(knobs[0]))) {
            schedule.autoscheduler = knobs;
            knobs.clear();
        }
        for (char ch : schedule.autoscheduler)
            if (!std::isalnum(static_cast<unsigned char>(ch))) throw malformed();
        if (!knobs.empty()) {
            char x = 0;
            std::stringstream in(knobs);
            if (!(in >> schedule.tile >> x >> schedule.rows) || x != 'x' || !in.eof() || schedule.tile < 1 ||
                schedule.rows < 1)
                throw malformed();
        }
    }
    if (tiled(algorithm) != (schedule.tile > 0))
        throw bad(tiled(algorithm) ? "a tiled algorithm needs TILExROWS"
                                   : "only tiled algorithms take TILExROWS");
    const std::string problem = decomposition_problem(d, boundary);
    if (!problem.empty()) throw Error("realisation '" + name + "' is " + problem);
    return {realisation_name(d, algorithm, form, schedule), d,
            make_stages(d, filter, algorithm, form, schedule)};
}

RealisedPlan::RealisedPlan(const Realisation &realisation, int width, int height, Device device,
                           Boundary boundary)
    : realisation_(realisation), device_(device) {
    for (const Stage &s : realisation.stages)
        plans_.push_back(stage_plan(s, width, height, device, boundary));
}

void RealisedPlan::run_stages(halide_buffer_t *input, halide_buffer_t *output) {
    const size_t n = plans_.size();
    if (n == 1) return plans_[0]->run(input, output);
    // Stages alternate between the output and the intermediate, so that the last writes the output.
    std::lock_guard<std::mutex> lock(intermediate_mutex_);
    const int channels = output->dimensions > 2 ? output->dim[2].extent : 1;
    if (intermediate_channels_ != channels) {
        intermediate_ = intermediate_image(output->dim[0].extent, output->dim[1].extent, channels, device_);
        intermediate_channels_ = channels;
    }
    halide_buffer_t *between = intermediate_.raw_buffer();
    halide_buffer_t *from = input;
    for (size_t i = 0; i < n; i++) {
        halide_buffer_t *to = i + 1 == n || (n - 1 - i) % 2 == 0 ? output : between;
        plans_[i]->run(from, to);
        from = to;
    }
}

void RealisedPlan::run(halide_buffer_t *input, halide_buffer_t *output) { run_stages(input, output); }

std::vector<const Variant *> RealisedPlan::variants() const {
    std::vector<const Variant *> calls;
    for (const auto &plan : plans_) calls.push_back(&plan->variant());
    return calls;
}

void RealisedPlan::run(const Image &input, Image &output) {
    Halide::Runtime::Buffer<float> in = planes_of(input), out = planes_of(output);
    run_on_host(device_, [&] { run_stages(in.raw_buffer(), out.raw_buffer()); }, {in.raw_buffer()},
                {out.raw_buffer()});
}

}  // namespace cascade
