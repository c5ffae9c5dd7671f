#include "realisation.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>
#include <set>
#include <sstream>
#include <tuple>

#include "cascade/error.h"
#include "cascade/planes.h"
#include "names.h"
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

// One table names the decompositions both ways; a grouping's name also says its groups
// ("group-13-2"), which parse_realisation reads apart.
constexpr Named<Decomposition> kDecompositions[] = {{Decomposition::whole, "whole"},
                                                    {Decomposition::split, "split"},
                                                    {Decomposition::grouped, "group-…"},
                                                    {Decomposition::dims, "dims"},
                                                    {Decomposition::directions, "directions"}};

std::string decomposition_name(Decomposition d, const std::vector<std::vector<int>> &groups) {
    if (d != Decomposition::grouped) return name_of(d, kDecompositions);
    std::string name = "group";
    for (const std::vector<int> &group : groups) {
        name += "-";
        for (int k : group) name += std::to_string(k);
    }
    return name;
}

// "64x2", "li2018", "64x2+li2018".
std::string schedule_name(const TileSchedule &schedule) {
    std::string name;
    if (schedule.tile > 0 || schedule.rows > 0)
        name = std::to_string(schedule.tile) + "x" + std::to_string(schedule.rows);
    if (!schedule.autoscheduler.empty()) name += (name.empty() ? "" : "+") + schedule.autoscheduler;
    if (!schedule.knobs.empty()) name += (name.empty() ? "" : "+") + schedule.knobs;
    return name;
}

std::string family_name(Decomposition d, const std::vector<std::vector<int>> &groups, Algorithm algorithm,
                        Form form) {
    return decomposition_name(d, groups) + "/" + algorithm_name(algorithm) + "/" +
           (form == Form::direct ? "direct" : "sections");
}

// Why a decomposition cannot be exact under `boundary`, or "" where it is.
//
// One pipeline per dimension is exact under every boundary: each dimension's passes extend the
// image along their own lines only, whether or not the other dimension's ran first.
//
// Each stage of `split` and `grouped` is a causal pass and its anticausal mirror over the same
// poles: a symmetric filter. Applied to a periodic or even (reflect, mirror) extension of a line
// it gives the same kind of extension of its output, so the next stage, extending that output
// again, sees what the whole filter would: the cascade is exact. Under none, zero and clamp the
// output of a stage past the edges is not what the next stage assumes there.
//
// One pipeline per direction is exact under none: every pass starts from zero state, and the
// causal passes of one dimension commute with the anticausal passes of the other.
std::string decomposition_problem(Decomposition d, Boundary boundary) {
    if (d == Decomposition::whole || d == Decomposition::dims) return "";
    if (d == Decomposition::directions) {
        if (boundary == Boundary::none) return "";
        if (boundary == Boundary::periodic)
            return "exact in principle under boundary periodic (a periodic line's causal output is "
                   "periodic), "
                   "but this build has no periodic tables for one direction's passes alone";
        return std::string("not exact under boundary ") + boundary_name(boundary) +
               ": the anticausal passes' initial conditions need the causal output past the far edge, "
               "which a separate anticausal pipeline does not see";
    }
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

// Each dimension's sections paired in order, the shorter list padded with identity passes.
std::vector<Filter2D> paired_sections(const Filter2D &filter) {
    std::vector<RecursiveFilter> v = to_sections(filter.vertical), h = to_sections(filter.horizontal);
    const size_t n = std::max(v.size(), h.size());
    const RecursiveFilter identity = RecursiveFilter::identity();
    v.resize(n, identity);
    h.resize(n, identity);
    std::vector<Filter2D> pairs;
    for (size_t k = 0; k < n; k++) pairs.push_back({v[k], h[k]});
    return pairs;
}

// The passes in cascade as one: the gains' product, and the feedback polynomials' product
// (1 + a_1 z⁻¹ + …), with the zero coefficients an identity section leaves at its end dropped.
RecursiveFilter cascade_of(const std::vector<const RecursiveFilter *> &passes) {
    RecursiveFilter out{1.0, {}};
    std::vector<double> product = {1.0};
    for (const RecursiveFilter *f : passes) {
        out.gain *= f->gain;
        std::vector<double> next(product.size() + f->feedback.size(), 0.0);
        for (size_t i = 0; i < product.size(); i++) {
            next[i] += product[i];
            for (size_t k = 0; k < f->feedback.size(); k++) next[i + k + 1] += product[i] * f->feedback[k];
        }
        product = next;
    }
    while (product.size() > 2 && product.back() == 0.0) product.pop_back();
    out.feedback.assign(product.begin() + 1, product.end());
    if (out.feedback.empty()) out.feedback = {0.0};
    return out;
}

// The group's sections (numbered from 1) as one 2D filter.
Filter2D group_filter(const std::vector<Filter2D> &pairs, const std::vector<int> &group) {
    std::vector<const RecursiveFilter *> v, h;
    for (int k : group) {
        v.push_back(&pairs[k - 1].vertical);
        h.push_back(&pairs[k - 1].horizontal);
    }
    return {cascade_of(v), cascade_of(h)};
}

// Every grouping of n sections into 2 … n − 1 stages (the others are whole and split) whose
// stages stay within order 4: the set partitions of {1 … n}, as restricted growth strings.
std::vector<std::vector<std::vector<int>>> groupings(const std::vector<Filter2D> &pairs) {
    const int n = int(pairs.size());
    std::vector<std::vector<std::vector<int>>> out;
    if (n < 3 || n > 9) return out;  // stage names number sections with one digit
    std::vector<int> block(n, 0);
    const std::function<void(int, int)> place = [&](int k, int blocks) {
        if (k == n) {
            if (blocks < 2 || blocks == n) return;
            std::vector<std::vector<int>> groups(blocks);
            for (int j = 0; j < n; j++) groups[block[j]].push_back(j + 1);
            for (const auto &group : groups) {
                const Filter2D f = group_filter(pairs, group);
                if (std::max(f.vertical.order(), f.horizontal.order()) > 4) return;
            }
            out.push_back(groups);
            return;
        }
        for (int b = 0; b <= blocks && b < n; b++) {
            block[k] = b;
            place(k + 1, std::max(blocks, b + 1));
        }
    };
    place(0, 0);
    return out;
}

// The filter's stages under a decomposition, each a 2D filter and the part of it to run.
std::vector<std::pair<Filter2D, Passes>> stage_parts(Decomposition d,
                                                     const std::vector<std::vector<int>> &groups,
                                                     const Filter2D &filter) {
    switch (d) {
        case Decomposition::whole:
            return {{filter, Passes::all}};
        case Decomposition::dims:
            return {{filter, Passes::columns}, {filter, Passes::rows}};
        case Decomposition::directions:
            return {{filter, Passes::causal}, {filter, Passes::anticausal}};
        case Decomposition::split:
        case Decomposition::grouped:
            break;
    }
    const std::vector<Filter2D> pairs = paired_sections(filter);
    std::vector<std::pair<Filter2D, Passes>> stages;
    if (d == Decomposition::split) {
        for (const Filter2D &pair : pairs) stages.push_back({pair, Passes::all});
    } else {
        for (const std::vector<int> &group : groups)
            stages.push_back({group_filter(pairs, group), Passes::all});
    }
    return stages;
}

// The schedules the build holds for an algorithm on `device`, in order (tile, rows, autoscheduler,
// knobs):
// a tiled algorithm's tile schedules, and the autoscheduled variants of any. RT's hand schedule is
// the default schedule {}.
std::vector<TileSchedule> schedules_of(Algorithm algorithm, Device device) {
    std::vector<TileSchedule> schedules;
    if (!is_tiled(algorithm)) schedules.push_back({});
    for (const Variant &v : variants()) {
        const VariantKey k = iir_key(algorithm, false);
        const bool ours = v.key.family == k.family && v.key.algorithm == k.algorithm;
        const TileSchedule s = v.schedule();
        if (ours && v.device == device && (s.tile > 0 || !s.autoscheduler.empty() || !s.knobs.empty()) &&
            std::find(schedules.begin(), schedules.end(), s) == schedules.end())
            schedules.push_back(s);
    }
    std::sort(schedules.begin(), schedules.end(), [](const TileSchedule &a, const TileSchedule &b) {
        return std::tie(a.tile, a.rows, a.autoscheduler, a.knobs) <
               std::tie(b.tile, b.rows, b.autoscheduler, b.knobs);
    });
    return schedules;
}

Realisation make_realisation(Decomposition d, const std::vector<std::vector<int>> &groups,
                             const Filter2D &filter, Algorithm algorithm, Form form,
                             const TileSchedule &schedule) {
    Realisation r{realisation_name(d, groups, algorithm, form, schedule), d, groups, {}};
    for (const auto &[part, passes] : stage_parts(d, groups, filter))
        r.stages.push_back({part, algorithm, form, schedule, passes});
    return r;
}

std::unique_ptr<IirPlan> stage_plan(const Stage &s, int width, int height, Device device, Boundary boundary) {
    return std::make_unique<IirPlan>(
        s.filter, width, height,
        IirOptions{boundary, choice_of(device), s.form, s.algorithm, s.schedule, s.passes});
}

}  // namespace

bool is_tiled(Algorithm algorithm) { return algorithm != Algorithm::rt && algorithm != Algorithm::strips; }

std::string realisation_name(Decomposition d, const std::vector<std::vector<int>> &groups,
                             Algorithm algorithm, Form form, const TileSchedule &schedule) {
    std::string name = family_name(d, groups, algorithm, form);
    const std::string knobs = schedule_name(schedule);
    if (!knobs.empty()) name += "/" + knobs;
    return name;
}

std::pair<int, int> smallest_image(const Realisation &realisation) {
    // Before any plan exists the stage's variant is not known: the largest of its autoscheduler's
    // variants, which share the generator's estimates, stands for it.
    std::pair<int, int> size{1, 1};
    for (const Stage &s : realisation.stages)
        for (const Variant &v : variants())
            if (!s.schedule.autoscheduler.empty() && v.key.autoscheduler == s.schedule.autoscheduler) {
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

namespace {

struct Shape {
    Decomposition d;
    std::vector<std::vector<int>> groups;
};

// The decompositions worth listing for `filter`: split with two sections or more, groupings with
// three or more.
std::vector<Shape> decompositions_of(const Filter2D &filter) {
    const std::vector<Filter2D> pairs = paired_sections(filter);
    std::vector<Shape> shapes = {{Decomposition::whole, {}}};
    if (pairs.size() >= 2) shapes.push_back({Decomposition::split, {}});
    for (auto &groups : groupings(pairs)) shapes.push_back({Decomposition::grouped, std::move(groups)});
    shapes.push_back({Decomposition::dims, {}});
    shapes.push_back({Decomposition::directions, {}});
    return shapes;
}

// "group-13-2" as {{1, 3}, {2}}, checked to group each of the filter's n sections once, in two
// stages or more but fewer than n; "" where it does, else what is wrong.
std::string parse_groups(const std::string &text, size_t n, std::vector<std::vector<int>> &groups) {
    std::stringstream in(text.substr(std::string("group-").size()));
    std::vector<int> seen(n + 1, 0);
    for (std::string part; std::getline(in, part, '-');) {
        if (part.empty()) return "an empty group";
        std::vector<int> group;
        for (char ch : part) {
            const int k = ch - '0';
            if (!std::isdigit(static_cast<unsigned char>(ch)) || k < 1 || size_t(k) > n)
                return "section '" + std::string(1, ch) + "' (this filter has " + std::to_string(n) + ")";
            if (seen[k]++) return "section " + std::to_string(k) + " in two groups";
            group.push_back(k);
        }
        groups.push_back(group);
    }
    if (std::count(seen.begin() + 1, seen.end(), 1) != std::ptrdiff_t(n)) return "a section in no group";
    if (groups.size() < 2 || groups.size() >= n)
        return "groups of " + std::to_string(n) + " sections must number 2 to " + std::to_string(n - 1) +
               " (whole and split are the others)";
    return "";
}

}  // namespace

Realisations enumerate_realisations(const Filter2D &filter, Boundary boundary, Device device) {
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    Realisations out;
    // The decomposition and the variants each candidate calls, in order: two groupings may call
    // the same variants on different filters.
    std::set<std::pair<std::string, std::vector<const Variant *>>> seen;
    std::set<std::string> refused;  // decomposition/algorithm/form: refused once
    const auto refuse = [&](const std::string &name, const std::string &reason) {
        if (refused.insert(name).second) out.refused.push_back({name, reason});
    };
    for (const Shape &shape : decompositions_of(filter)) {
        const Decomposition d = shape.d;
        const std::string problem = decomposition_problem(d, boundary);
        for (Algorithm algorithm : kAlgorithms) {
            std::vector<TileSchedule> schedules = {TileSchedule{}};
            if (algorithm != Algorithm::strips) schedules = schedules_of(algorithm, device);
            for (Form form : kForms) {
                const std::string family = family_name(d, shape.groups, algorithm, form);
                if (!problem.empty()) {
                    refuse(family, problem);
                    continue;
                }
                if (schedules.empty())
                    refuse(family, std::string("this build has no ") + device_name(device) +
                                       " variant of algorithm " + algorithm_name(algorithm));
                // With the build's default schedule first: a refusal there concerns the family.
                try {
                    RealisedPlan(make_realisation(d, shape.groups, filter, algorithm, form, {}), kTrialWidth,
                                 kTrialHeight, device, boundary);
                } catch (const Error &e) {
                    refuse(family, e.what());
                    continue;
                }
                for (TileSchedule schedule : schedules) {
                    Realisation r = make_realisation(d, shape.groups, filter, algorithm, form, schedule);
                    std::vector<const Variant *> calls;
                    try {
                        calls = realisation_variants(r, device, boundary);
                    } catch (const Error &e) {
                        refuse(r.name, e.what());  // this schedule only: the family ran above
                        continue;
                    }
                    if (seen.insert({decomposition_name(d, shape.groups), calls}).second)
                        out.candidates.push_back(std::move(r));
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
    Decomposition d = Decomposition::grouped;
    std::vector<std::vector<int>> groups;
    if (parts[0].rfind("group-", 0) == 0) {
        const std::string problem = parse_groups(parts[0], paired_sections(filter).size(), groups);
        if (!problem.empty()) throw bad("grouping '" + parts[0] + "': " + problem);
    } else {
        try {
            d = parse_named(parts[0], kDecompositions, "decomposition");
        } catch (const Error &e) {
            throw bad(e.what());
        }
    }
    const Algorithm algorithm = parse_algorithm(parts[1]);
    const Form form = parse_form(parts[2]);
    if (algorithm == Algorithm::automatic || form == Form::automatic) throw bad("auto is not a realisation");
    // The schedule: '+'-separated, the tiled algorithms' TILExROWS, an autoscheduler's name and
    // the other knobs ("64x2", "li2018", "64x2+li2018", "64x2+scan=shared", "vector=16,grain=4").
    TileSchedule schedule;
    if (parts.size() == 4) {
        const auto malformed = [&] { return bad("malformed schedule '" + parts[3] + "'"); };
        std::stringstream items(parts[3]);
        int count = 0;
        for (std::string item; std::getline(items, item, '+'); count++) {
            if (item.empty()) throw malformed();
            if (std::isdigit(static_cast<unsigned char>(item[0]))) {
                char x = 0;
                std::stringstream in(item);
                if (schedule.tile > 0 || !(in >> schedule.tile >> x >> schedule.rows) || x != 'x' ||
                    !in.eof() || schedule.tile < 1 || schedule.rows < 1)
                    throw malformed();
            } else if (item.find('=') != std::string::npos) {
                if (!schedule.knobs.empty() || !canonical_knobs(item)) throw malformed();
                schedule.knobs = item;
            } else {
                if (!schedule.autoscheduler.empty()) throw malformed();
                for (char ch : item)
                    if (!std::isalnum(static_cast<unsigned char>(ch))) throw malformed();
                schedule.autoscheduler = item;
            }
        }
        if (count == 0 || parts[3].back() == '+') throw malformed();
    }
    if (is_tiled(algorithm) != (schedule.tile > 0))
        throw bad(is_tiled(algorithm) ? "a tiled algorithm needs TILExROWS"
                                      : "only tiled algorithms take TILExROWS");
    const std::string problem = decomposition_problem(d, boundary);
    if (!problem.empty()) throw Error("realisation '" + name + "': " + problem);
    return make_realisation(d, groups, filter, algorithm, form, schedule);
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
