// `cascade tune`: the codegen step. Enumerates a filter's realisations (runtime/realisation.h),
// verifies each against the double reference on the device it will run on, times the verified
// ones beside the copy, and writes the tuning table `--algorithm auto` reads (docs/tuning.md).
// `--emit-manifest` writes the extra tile schedules to build for the filter instead.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "bench/bench.h"
#include "cascade/bspline.h"
#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "commands.h"
#include "common.h"
#include "realisation.h"
#include "reference.h"
#include "tuning.h"
#include "variants.h"

namespace cascade::cli {

namespace {

// The relative L2 error a realisation may reach against the double reference on the verification
// images: 1e-4, or 4 times the error of the realisation auto runs without tables, whichever is
// larger (at σ 30 under reflect the exact boundaries' known large-σ limitation gives the fixed
// choice itself 3e-4 on these small images, docs/boundaries.md).
constexpr double kVerifyTolerance = 1e-4;
constexpr double kVerifyRatio = 4;
// The verification images: no tile size divides them; the second is taller than wide.
constexpr int kVerifySizes[2][3] = {{67, 45, 2}, {131, 257, 1}};

struct TuneArgs {
    std::string feedback, feedback_x, feedback_y, poles, spec;
    std::optional<double> gain, gain_x, gain_y, gaussian;
    std::optional<int> bspline;
    std::vector<std::string> boundaries = {"none"}, sizes;
    std::string device = "auto", out, manifest;
    BenchOptions options;
    bool list = false;
    bool check_auto = false;
};

// "0.5,-0.3+0.2i": real poles and complex ones; each complex pole brings its conjugate.
std::vector<std::complex<double>> parse_poles(const std::string &text) {
    std::vector<std::complex<double>> poles;
    std::stringstream items(text);
    for (std::string item; std::getline(items, item, ',');) {
        std::stringstream in(item);
        double re = 0, im = 0;
        char unit = 0;
        const bool complex = item.find('i') != std::string::npos;
        if (!(in >> re) || (complex && !(in >> im >> unit)) || (complex && unit != 'i') ||
            !(in >> std::ws).eof())
            throw Error("--poles: bad pole '" + item + "' (expected e.g. 0.5 or -0.3+0.2i)");
        poles.emplace_back(re, im);
        if (im != 0) poles.emplace_back(re, -im);
    }
    if (poles.empty()) throw Error("--poles: no pole given");
    return poles;
}

// --spec FILE: the same keys as the options, in JSON (docs/tuning.md).
void read_spec(TuneArgs &args) {
    std::ifstream in(args.spec);
    if (!in) throw Error("--spec: cannot read '" + args.spec + "'");
    try {
        const nlohmann::json j = nlohmann::json::parse(in);
        const auto text = [&](const char *key, std::string &to) {
            if (!j.contains(key)) return;
            const nlohmann::json &v = j.at(key);
            if (v.is_string()) {
                to = v.get<std::string>();
                return;
            }
            std::string list;
            // Numbers, or strings (complex poles, "0.72+0.35i").
            for (const nlohmann::json &x : v) {
                char number[32];
                if (!x.is_string()) std::snprintf(number, sizeof(number), "%.17g", x.get<double>());
                list +=
                    (list.empty() ? "" : ",") + (x.is_string() ? x.get<std::string>() : std::string(number));
            }
            to = list;
        };
        text("feedback", args.feedback);
        text("feedback_x", args.feedback_x);
        text("feedback_y", args.feedback_y);
        text("poles", args.poles);
        for (auto [key, to] : {std::pair{"gain", &args.gain},
                               {"gain_x", &args.gain_x},
                               {"gain_y", &args.gain_y},
                               {"gaussian", &args.gaussian}})
            if (j.contains(key)) *to = j.at(key).get<double>();
        if (j.contains("bspline")) args.bspline = j.at("bspline").get<int>();
        if (j.contains("boundaries")) args.boundaries = j.at("boundaries").get<std::vector<std::string>>();
        if (j.contains("sizes")) args.sizes = j.at("sizes").get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception &e) {
        throw Error("--spec '" + args.spec + "': " + e.what());
    }
}

Filter2D spec_filter(const TuneArgs &args) {
    const int given = !args.feedback.empty() + !args.feedback_x.empty() + !args.poles.empty() +
                      args.gaussian.has_value() + args.bspline.has_value();
    if (given == 0) throw Error("name a filter: --feedback, --poles, --gaussian, --bspline or --spec");
    if (given > 1 &&
        !(args.feedback_x.size() && args.feedback_y.size() && given == 2 && args.feedback.empty()))
        throw Error("name one filter: --feedback, --poles, --gaussian, --bspline are exclusive");
    Filter2D filter;
    if (args.gaussian) {
        filter.vertical = filter.horizontal = van_vliet_gaussian(*args.gaussian);
    } else if (args.bspline) {
        filter.vertical = filter.horizontal = bspline_prefilter(*args.bspline);
    } else if (!args.poles.empty()) {
        filter.vertical = filter.horizontal = unit_gain_filter(parse_poles(args.poles));
    } else {
        const std::string &fy = args.feedback_y.empty() ? args.feedback : args.feedback_y;
        const std::string &fx = args.feedback_x.empty() ? args.feedback : args.feedback_x;
        if (fy.empty() || fx.empty()) throw Error("--feedback-x and --feedback-y go together");
        filter = {pass_filter(fy, args.gain_y ? args.gain_y : args.gain),
                  pass_filter(fx, args.gain_x ? args.gain_x : args.gain)};
    }
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    return filter;
}

// The largest relative L2 error of the realisation on the verification images, against the double
// reference, run where it will be timed. Every output sample is poisoned with NaN first.
double verification_error(const Realisation &r, const Filter2D &filter, Boundary boundary, Device device) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    double worst = 0;
    // Realisations with a smallest image (autoscheduled variants) are verified past it, by as much.
    const auto [smallest_width, smallest_height] = smallest_image(r);
    const bool past_smallest = smallest_width > 1 || smallest_height > 1;
    for (const auto &[verify_width, verify_height, channels] : kVerifySizes) {
        const int width = verify_width + (past_smallest ? smallest_width : 0);
        const int height = verify_height + (past_smallest ? smallest_height : 0);
        Image input(width, height, channels), output(width, height, channels);
        for (float &v : input.data) v = uniform(rng);
        std::fill(output.data.begin(), output.data.end(), std::nanf(""));
        RealisedPlan(r, width, height, device, boundary).run(input, output);
        for (int c = 0; c < channels; c++) {
            const reference::Matrix want = reference::filter_2d(filter, reference::plane(input, c), boundary);
            const reference::Matrix got = reference::plane(output, c);
            const double error = (got - want).norm() / want.norm();
            worst = std::max(worst, std::isfinite(error) ? error : INFINITY);
        }
    }
    return worst;
}

// The candidate that calls `calls`, or "" where none does.
std::string candidate_calling(const std::vector<const Variant *> &calls,
                              const std::vector<Realisation> &candidates, Boundary boundary, Device device) {
    for (const Realisation &r : candidates)
        if (realisation_variants(r, device, boundary) == calls) return r.name;
    return "";
}

// The candidate that calls the same variants as the realisation auto runs without tables.
std::string fixed_candidate(const std::vector<Realisation> &candidates, const Filter2D &filter,
                            Boundary boundary, Device device) {
    try {
        const Realisation fixed =
            parse_realisation(fixed_realisation(filter, boundary, device), filter, boundary);
        return candidate_calling(realisation_variants(fixed, device, boundary), candidates, boundary, device);
    } catch (const Error &) {
        return "";
    }
}

std::string number(double value, const char *format) {
    char text[32] = "-";
    if (std::isfinite(value)) std::snprintf(text, sizeof(text), format, value);
    return text;
}

// What `--algorithm auto` runs at this size, as the tables in force direct it (the library's own
// path: a tuned chain where they name one, else IirPlan, which reads them for one stage), named
// as the candidate that calls the same variants.
BenchCase auto_case(const Filter2D &filter, Boundary boundary, Device device, int width, int height,
                    const std::vector<Realisation> &candidates) {
    std::shared_ptr<RealisedPlan> chain = tuned_chain(filter, boundary, device, width, height);
    std::shared_ptr<IirPlan> plan;
    std::vector<const Variant *> calls;
    if (chain) {
        calls = chain->variants();
    } else {
        plan = std::make_shared<IirPlan>(filter, width, height, IirOptions{boundary, choice_of(device)});
        calls = {&plan->variant()};
    }
    std::string name = candidate_calling(calls, candidates, boundary, device);
    if (name.empty()) name = "(" + calls.front()->key.computes() + ", not a candidate)";
    return {
        "realisation", name, width, height, device, [chain, plan](halide_buffer_t *in, halide_buffer_t *out) {
            return std::function<void()>([chain, plan, in, out] {
                if (chain)
                    chain->run(in, out);
                else
                    plan->run(in, out);
            });
        }};
}

// One boundary: list, verify, and (unless --list) time at every size into `table`.
void tune_boundary(const TuneArgs &args, const Filter2D &filter, Boundary boundary, Device device,
                   TuningTable &table, int &failures) {
    const Realisations all = enumerate_realisations(filter, boundary, device);
    std::printf("\nboundary %s, %s: %zu realisations, %zu refused\n", boundary_name(boundary),
                tuning_device(device).c_str(), all.candidates.size(), all.refused.size());
    for (const RefusedRealisation &r : all.refused)
        std::printf("  refused   %-26s %s\n", r.name.c_str(), r.reason.c_str());
    const std::string fixed = fixed_candidate(all.candidates, filter, boundary, device);
    const double fixed_error =
        verification_error(parse_realisation(fixed_realisation(filter, boundary, device), filter, boundary),
                           filter, boundary, device);
    if (!std::isfinite(fixed_error)) {
        failures++;
        std::printf("  FAILED    the fixed choice's output is not finite\n");
        return;
    }
    const double tolerance = std::max(kVerifyTolerance, kVerifyRatio * fixed_error);
    std::printf("  verification: the fixed choice's error %s, tolerance %s\n",
                number(fixed_error, "%.2g").c_str(), number(tolerance, "%.2g").c_str());
    std::vector<Realisation> verified;
    std::vector<double> errors;
    for (const Realisation &r : all.candidates) {
        double error = INFINITY;
        std::string note;
        try {
            error = verification_error(r, filter, boundary, device);
        } catch (const Error &e) {
            note = e.what();
            failures++;  // the runtime offered it: failing to run is a defect
        }
        const bool pass = error <= tolerance;
        // A realisation less accurate than that (a direct form of order ≥ 3 in float32, say) is
        // rejected: listed, never timed.
        std::printf("  %-9s %-26s error %s%s%s\n",
                    pass           ? "verified"
                    : note.empty() ? "rejected"
                                   : "FAILED",
                    r.name.c_str(), number(error, "%.2g").c_str(), note.empty() ? "" : ": ", note.c_str());
        if (!pass) continue;
        verified.push_back(r);
        errors.push_back(error);
    }
    if (args.list || verified.empty()) return;
    std::vector<std::string> sizes = args.sizes;
    if (sizes.empty())
        sizes = device == Device::cuda ? std::vector<std::string>{"2048", "4096", "8192"}
                                       : std::vector<std::string>{"1024", "4096"};
    for (const std::string &size : sizes) {
        const auto [width, height] = parse_size(size);
        std::vector<BenchCase> cases = {{"copy", "", width, height, device, nullptr}};
        std::vector<std::shared_ptr<RealisedPlan>> plans;
        std::vector<double> timed_errors;
        for (size_t k = 0; k < verified.size(); k++) {
            const Realisation &r = verified[k];
            if (const auto [w, h] = smallest_image(r); width < w || height < h) {
                std::printf("  not timed at %s: %s runs on images of at least %dx%d\n", size.c_str(),
                            r.name.c_str(), w, h);
                continue;
            }
            timed_errors.push_back(errors[k]);
            auto plan = std::make_shared<RealisedPlan>(r, width, height, device, boundary);
            plans.push_back(plan);
            cases.push_back({"realisation", r.name, width, height, device,
                             [plan](halide_buffer_t *in, halide_buffer_t *out) {
                                 return std::function<void()>([plan, in, out] { plan->run(in, out); });
                             }});
        }
        if (args.check_auto) cases.push_back(auto_case(filter, boundary, device, width, height, verified));
        std::vector<BenchResult> results = run_benchmark(cases, args.options);
        std::optional<BenchResult> automatic;
        if (args.check_auto) {
            automatic = results.back();
            results.pop_back();
            if (!measured(*automatic)) throw Error("auto did not run at " + size + ": " + automatic->note);
        }
        if (!measured(results[0])) throw Error("the copy did not run at " + size + ": " + results[0].note);
        TuningEntry entry{tuning_device(device),
                          filter_key(filter),
                          filter_shape(filter),
                          boundary,
                          width,
                          height,
                          results[0].median_ms,
                          "",
                          fixed,
                          {}};
        for (size_t i = 1; i < results.size(); i++) {
            const BenchResult &b = results[i];
            if (!measured(b)) throw Error("realisation " + b.c.variant + " did not run: " + b.note);
            entry.candidates.push_back(
                {b.c.variant, b.median_ms, b.gips, b.floor_fraction, timed_errors[i - 1]});
        }
        std::sort(entry.candidates.begin(), entry.candidates.end(),
                  [](const TunedCandidate &a, const TunedCandidate &b) { return a.ms < b.ms; });
        double fixed_ms = NAN;
        for (const TunedCandidate &c : entry.candidates)
            if (c.name == fixed) fixed_ms = c.ms;
        entry.winner = tuned_winner(entry.candidates, fixed);
        std::printf(
            "\n  %dx%d: copy %.4f ms; winner %s; the fastest, %s, %s times as fast as the fixed choice %s\n",
            width, height, entry.copy_ms, entry.winner.c_str(), entry.candidates.front().name.c_str(),
            number(fixed_ms / entry.candidates.front().ms, "%.3f").c_str(),
            fixed.empty() ? "(not among them)" : fixed.c_str());
        std::printf("  %-26s %10s %8s %8s\n", "realisation", "ms", "GiP/s", "of_copy");
        for (const TunedCandidate &c : entry.candidates)
            std::printf("  %-26s %10s %8s %8s%s\n", c.name.c_str(), number(c.ms, "%.4f").c_str(),
                        number(c.gips, "%.2f").c_str(), number(c.copy_fraction, "%.3f").c_str(),
                        c.name == fixed ? "  (fixed choice)" : "");
        if (automatic) {
            entry.auto_choice = automatic->c.variant;
            entry.auto_ms = automatic->median_ms;
            std::printf("  auto (%s) %.4f ms: %s of the best's time, %s of the fixed choice's\n",
                        entry.auto_choice.c_str(), entry.auto_ms,
                        number(entry.auto_ms / entry.candidates.front().ms, "%.3f").c_str(),
                        number(entry.auto_ms / fixed_ms, "%.3f").c_str());
        }
        std::fflush(stdout);
        table.entries.push_back(std::move(entry));
    }
}

// The extra variants this filter's realisations could use: algorithms 4 and 6 with the other
// tile schedules, and RT scheduled by Halide's autoschedulers, for the section counts of its whole,
// split and grouped decompositions, boundary none and exact, about a level and not; and RT's parts
// for its per-dimension and per-direction decompositions (docs/tuning.md says why these).
nlohmann::json manifest_for(const Filter2D &filter, const std::vector<Boundary> &boundaries) {
    const int sections =
        int(std::max(to_sections(filter.vertical).size(), to_sections(filter.horizontal).size()));
    // Every stage of a split or grouped decomposition holds 1 … sections of them.
    std::set<int> counts;
    for (int k = 1; k <= sections; k++) counts.insert(k);
    std::set<bool> exactness;
    for (Boundary b : boundaries) exactness.insert(b != Boundary::none);
    // Exact variants are built about a level and not (runtime/iir.cpp, kLevelPole); others not.
    const auto levels = [](bool exact) {
        return exact ? std::vector<bool>{false, true} : std::vector<bool>{false};
    };
    struct Schedule {
        int tile, rows;
        const char *device;
    };
    // GPU: tile 32 and 64 (128 would pass the 48 KB of shared memory a Halide 14 block gets) and
    // 1, 2, 4 threads per tile column; CPU: tiles 32 and 128 (rows are a GPU knob).
    const Schedule schedules[] = {{32, 1, "cuda"}, {32, 2, "cuda"}, {32, 4, "cuda"}, {64, 1, "cuda"},
                                  {64, 4, "cuda"}, {32, 2, "cpu"},  {128, 2, "cpu"}};
    nlohmann::json variants = nlohmann::json::array();
    for (const Schedule &s : schedules)
        for (int algorithm : {4, 6})
            for (int count : counts)
                for (bool exact : exactness)
                    for (bool level : levels(exact))
                        variants.push_back({{"algorithm", algorithm},
                                            {"sections", count},
                                            {"tile", s.tile},
                                            {"rows", s.rows},
                                            {"exact", exact},
                                            {"level", level},
                                            {"devices", {s.device}}});
    // Halide's autoschedulers on RT (the serial definition, no hand-made structure): Li 2018 on
    // both devices, Adams 2019 on the CPU (Halide 14's is CPU-only), a baseline for the tuned ones.
    const std::pair<const char *, const char *> autoschedulers[] = {
        {"Li2018", "cuda"}, {"Li2018", "cpu"}, {"Adams2019", "cpu"}};
    for (const auto &[scheduler, device] : autoschedulers)
        for (int count : counts)
            for (bool exact : exactness)
                for (bool level : levels(exact))
                    variants.push_back({{"algorithm", "rt"},
                                        {"sections", count},
                                        {"exact", exact},
                                        {"level", level},
                                        {"autoscheduler", scheduler},
                                        {"devices", {device}}});
    // The other knobs at the build's tile schedule (docs/tuning.md): on the GPU the first pass's
    // scan style where it is not the default (shared memory under none, registers under exact
    // boundaries) and both carry-kernel choices, RT's block of 32 and 128 lines; on the CPU the
    // vector widths 4 and 16 and RT's grain of 4.
    struct Knobs {
        std::vector<int> algorithms;
        nlohmann::json knobs;
        const char *device;
        int exact;  // 0 or 1: under that exactness only; −1: both
    };
    const TileSchedule build = default_tile_schedule();
    const Knobs knob_sets[] = {
        {{6}, {{"scan", "shared"}}, "cuda", 0},        {{6}, {{"scan", "registers"}}, "cuda", 1},
        {{4, 6}, {{"carries", "stored"}}, "cuda", -1}, {{6}, {{"carries", "inline"}}, "cuda", -1},
        {{4, 6}, {{"vector", 4}}, "cpu", -1},          {{4, 6}, {{"vector", 16}}, "cpu", -1}};
    for (const Knobs &k : knob_sets)
        for (int algorithm : k.algorithms)
            for (int count : counts)
                for (bool exact : exactness) {
                    if (k.exact >= 0 && exact != bool(k.exact)) continue;
                    for (bool level : levels(exact)) {
                        nlohmann::json v = {{"algorithm", algorithm}, {"sections", count},
                                            {"tile", build.tile},     {"rows", build.rows},
                                            {"exact", exact},         {"level", level},
                                            {"devices", {k.device}}};
                        v.update(k.knobs);
                        variants.push_back(v);
                    }
                }
    const std::pair<nlohmann::json, const char *> rt_knobs[] = {{{{"block", 32}}, "cuda"},
                                                                {{{"block", 128}}, "cuda"},
                                                                {{{"vector", 4}}, "cpu"},
                                                                {{{"vector", 16}}, "cpu"},
                                                                {{{"grain", 4}}, "cpu"}};
    for (const auto &[knobs, device] : rt_knobs)
        for (int count : counts)
            for (bool exact : exactness)
                for (bool level : levels(exact)) {
                    nlohmann::json v = {{"algorithm", "rt"},
                                        {"sections", count},
                                        {"exact", exact},
                                        {"level", level},
                                        {"devices", {device}}};
                    v.update(knobs);
                    variants.push_back(v);
                }
    // The parts RT runs for the per-dimension and per-direction decompositions, in both forms:
    // one dimension's passes under every boundary asked, one direction's under none.
    const int order = std::max(filter.vertical.order(), filter.horizontal.order());
    for (const char *passes : {"columns", "rows", "causal", "anticausal"})
        for (bool exact : exactness) {
            const bool one_direction = std::string(passes) == "causal" || std::string(passes) == "anticausal";
            if (exact && one_direction) continue;
            for (bool level : levels(exact))
                for (bool direct : {false, true}) {
                    nlohmann::json v = {{"algorithm", "rt"}, {"sections", direct ? 0 : sections},
                                        {"exact", exact},    {"level", level},
                                        {"passes", passes},  {"devices", {"cpu", "cuda"}}};
                    if (direct) v["order"] = order;
                    variants.push_back(v);
                }
        }
    return variants;
}

void write_file(const std::string &path, const std::string &text) {
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary);
        out << text;
        if (!out.flush()) throw Error("cannot write '" + path + "'");
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        throw Error("cannot write '" + path + "'");
    }
}

void run(TuneArgs args) {
    if (!args.spec.empty()) read_spec(args);
    const Filter2D filter = spec_filter(args);
    std::vector<Boundary> boundaries;
    for (const std::string &b : args.boundaries) boundaries.push_back(parse_boundary(b));
    if (!args.manifest.empty()) {
        // Merged with what the file already names, so that one manifest serves several filters.
        nlohmann::json variants = nlohmann::json::array();
        std::ifstream old(args.manifest);
        if (old) {
            try {
                variants = nlohmann::json::parse(old).at("variants");
            } catch (const nlohmann::json::exception &e) {
                throw Error("--emit-manifest: '" + args.manifest + "' is not a manifest: " + e.what());
            }
        }
        for (const nlohmann::json &v : manifest_for(filter, boundaries))
            if (std::find(variants.begin(), variants.end(), v) == variants.end()) variants.push_back(v);
        write_file(args.manifest, nlohmann::json{{"variants", variants}}.dump(1) + "\n");
        std::printf("%s: %zu variants; build them with -DCASCADE_TUNING_MANIFEST=%s\n", args.manifest.c_str(),
                    variants.size(), args.manifest.c_str());
        return;
    }
    const Device device = timing_device(args.device);
    std::printf("command: %s\nfilter: %s (%s)\n", command_line().c_str(), filter_key(filter).c_str(),
                filter_shape(filter).c_str());
    TuningTable table;
    int failures = 0;
    for (Boundary boundary : boundaries) tune_boundary(args, filter, boundary, device, table, failures);
    if (!args.out.empty()) {
        // Entries of other filters, devices, boundaries or sizes already in the file are kept.
        std::ifstream old(args.out);
        if (old) {
            std::stringstream text;
            text << old.rdbuf();
            TuningTable merged = read_tuning_table(text.str(), args.out);
            for (TuningEntry &e : table.entries) {
                merged.entries.erase(std::remove_if(merged.entries.begin(), merged.entries.end(),
                                                    [&](const TuningEntry &m) {
                                                        return m.device == e.device && m.filter == e.filter &&
                                                               m.boundary == e.boundary &&
                                                               m.width == e.width && m.height == e.height;
                                                    }),
                                     merged.entries.end());
                merged.entries.push_back(e);
            }
            table = merged;
        }
        write_file(args.out, write_tuning_table(table));
        std::printf("\nwrote %s (%zu entries)\n", args.out.c_str(), table.entries.size());
    }
    if (failures > 0)
        throw Error(std::to_string(failures) +
                    " realisation(s) failed their verification (a defect: see above)");
}

}  // namespace

Command add_tune_command(CLI::App &app) {
    auto args = std::make_shared<TuneArgs>();
    CLI::App *cmd = app.add_subcommand(
        "tune", "Enumerate, verify and time a filter's realisations; write the tuning table auto reads");
    cmd->footer(
        "Realisations: DECOMPOSITION/ALGORITHM/FORM[/TILExROWS]. whole: one pipeline; split: one per\n"
        "section (exact under periodic, reflect and mirror only). Algorithms rt, 2, 4, 5, 6, strips (CPU);\n"
        "forms direct and sections; tile schedules those the build holds (--emit-manifest adds more).\n"
        "Each is verified against the double reference on the device it will run on (relative L2 error\n"
        "at most 1e-4 on 67x45x2 and 131x257 images, outputs poisoned) before it is timed beside the\n"
        "copy. Point CASCADE_TUNING_TABLE at the table --out writes and --algorithm auto runs its\n"
        "winners. docs/tuning.md.");
    cmd->add_option("--feedback", args->feedback, "Feedback coefficients a1,...,ar of every pass");
    cmd->add_option("--feedback-y", args->feedback_y, "Feedback coefficients of the column passes only");
    cmd->add_option("--feedback-x", args->feedback_x, "Feedback coefficients of the row passes only");
    cmd->add_option("--gain", args->gain, "Gain b0 of every pass (default: unit DC gain)");
    cmd->add_option("--gain-y", args->gain_y, "Gain b0 of the column passes only");
    cmd->add_option("--gain-x", args->gain_x, "Gain b0 of the row passes only");
    cmd->add_option(
        "--poles", args->poles,
        "Poles, comma-separated, complex ones as a+bi (their conjugates are implied); unit DC gain");
    cmd->add_option("--gaussian", args->gaussian, "Van Vliet's Gaussian of this sigma");
    cmd->add_option("--bspline", args->bspline, "The B-spline prefilter of this degree");
    cmd->add_option("--spec", args->spec, "A JSON file with the keys above (feedback, poles, gaussian, ...)");
    cmd->add_option("--boundary", args->boundaries, "Boundaries, comma-separated")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--sizes", args->sizes,
                    "Sizes N or WxH, comma-separated (default cuda: 2048,4096,8192; cpu: "
                    "1024,4096)")
        ->delimiter(',');
    add_device_option(*cmd, args->device);
    cmd->add_option("--repetitions", args->options.repetitions, "Timed calls per realisation (median)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd->add_option("--warmup", args->options.warmup, "Untimed calls first")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    // Interleaved by default: the winner is a comparison, which a drift between two candidates'
    // timings would decide (docs/tuning.md).
    args->options.rounds = 5;
    cmd->add_option("--rounds", args->options.rounds,
                    "Time the realisations in turn, repetitions/rounds calls each a round")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd->add_option("--out", args->out, "The tuning table to write (JSON; entries already there are kept)");
    cmd->add_option("--emit-manifest", args->manifest,
                    "Write (or extend) the manifest of extra tile schedules for this filter, then stop");
    cmd->add_flag("--list", args->list, "Enumerate and verify only; time nothing");
    cmd->add_flag(
        "--check-auto", args->check_auto,
        "Time --algorithm auto too, in the same runs, as the tables in force (CASCADE_TUNING_TABLE) "
        "direct it");
    return {cmd, [args] { run(*args); }};
}

}  // namespace cascade::cli
