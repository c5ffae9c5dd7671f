// `cascade bench`: throughput of the SAT, IIR and Gaussian pipelines and the CUDA baselines, as a fraction
// of the rate the machine copies an image at (docs/bench.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

#include "bench/bench.h"
#include "cascade/device.h"
#include "cascade/error.h"
#include "cascade/sat.h"
#include "commands.h"
#include "common.h"

namespace cascade::cli {

namespace {

struct BenchArgs {
    std::vector<std::string> ops = bench_ops(), variants, sizes;
    std::string device = "auto";
    BenchOptions options;
    bool json = false;
};

bool is_variant_of(const std::string &op, const std::string &variant) {
    if (op == "sat") {
        try {
            parse_sat_algorithm(variant);
            return true;
        } catch (const Error &) {
            return false;
        }
    }
    const std::vector<std::string> known = bench_variants(op);
    std::string name = op == "iir" || op == "gaussian" ? split_variant(variant).name : variant;
    // The B-spline's prefilter runs only when named, on any algorithm that runs order1.
    const std::string bspline = "-bspline3";
    if (op == "iir" && name.size() > bspline.size() &&
        name.compare(name.size() - bspline.size(), bspline.size(), bspline) == 0)
        name = name.substr(0, name.size() - bspline.size()) + "-order1";
    return std::find(known.begin(), known.end(), name) != known.end();
}

// Size-major, ops in the order given: each size's rows read as one comparison.
std::vector<BenchCase> make_cases(const BenchArgs &args, Device device) {
    for (const std::string &v : args.variants)
        if (std::none_of(args.ops.begin(), args.ops.end(),
                         [&](const std::string &op) { return is_variant_of(op, v); }))
            throw Error("--variants: '" + v + "' is no variant of the ops selected (see --help)");
    std::vector<std::string> sizes = args.sizes;
    if (sizes.empty())
        sizes = device == Device::cuda
                    ? std::vector<std::string>{"1024", "2048", "4096", "8192", "16384", "5000x3001"}
                    : std::vector<std::string>{"512", "1024", "2048"};
    std::vector<BenchCase> cases;
    for (const std::string &size : sizes) {
        const auto [width, height] = parse_size(size);
        for (const std::string &op : args.ops) {
            std::vector<std::string> variants = bench_variants(op);
            if (!args.variants.empty() && variants != std::vector<std::string>{""}) {
                variants.clear();
                for (const std::string &v : args.variants)
                    if (is_variant_of(op, v)) variants.push_back(v);
            }
            // By default the 1D signal's variants run on 1xN and Nx1 sizes only.
            const bool signal = (width == 1) != (height == 1);
            for (const std::string &v : variants)
                if (!args.variants.empty() || signal || v.rfind("line", 0) != 0)
                    cases.push_back({op, v, width, height, device});
        }
    }
    return cases;
}

std::string cuda_device_text() {
    if (cuda_info().devices == 0) return "none (" + cuda_info().reason + ")";
    return cuda_info().name;
}

std::string json_string(const std::string &text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
            out += escaped;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

std::string json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char text[32];
    std::snprintf(text, sizeof(text), "%.6g", value);
    return text;
}

void print_json(const BenchArgs &args, const std::vector<BenchResult> &results) {
    const BenchOptions &o = args.options;
    std::printf(
        "{\"command\": %s, \"cuda_device\": %s, \"warmup\": %d, \"repetitions\": %d, \"rounds\": %d, "
        "\"seed\": %u}\n",
        json_string(command_line()).c_str(), json_string(cuda_device_text()).c_str(), o.warmup, o.repetitions,
        o.rounds, o.seed);
    for (const BenchResult &r : results)
        std::printf(
            "{\"op\": %s, \"variant\": %s, \"width\": %d, \"height\": %d, \"device\": %s, \"median_ms\": %s, "
            "\"gips\": %s, \"floor_fraction\": %s, \"bytes_per_pixel\": %s, \"note\": %s}\n",
            json_string(r.c.op).c_str(), json_string(r.c.variant).c_str(), r.c.width, r.c.height,
            json_string(device_name(r.c.device)).c_str(), json_number(r.median_ms).c_str(),
            json_number(r.gips).c_str(), json_number(r.floor_fraction).c_str(),
            json_number(r.bytes_per_pixel).c_str(), json_string(r.note).c_str());
}

void print_table(const BenchArgs &args, const std::vector<BenchResult> &results) {
    const BenchOptions &o = args.options;
    std::printf("command: %s\ncuda device: %s\n", command_line().c_str(), cuda_device_text().c_str());
    std::printf(
        "median of %d calls after %d warm-up calls (in %d round%s), seed %u; CUDA: event pairs on the\n"
        "default stream, calls back to back. floor = the copy measured at the same size: floor GiP/s =\n"
        "copy bytes/s / B/px / 2^30, of_floor = GiP/s / floor GiP/s.\n\n",
        o.repetitions, o.warmup, o.rounds, o.rounds == 1 ? "" : "s", o.seed);
    std::printf("%-14s %-18s %-12s %-6s %12s %10s %5s %9s  %s\n", "op", "variant", "size", "device",
                "median_ms", "GiP/s", "B/px", "of_floor", "note");
    auto number = [](double value, const char *format) {
        char text[32] = "-";
        if (std::isfinite(value)) std::snprintf(text, sizeof(text), format, value);
        return std::string(text);
    };
    for (const BenchResult &r : results) {
        const std::string size = std::to_string(r.c.width) + "x" + std::to_string(r.c.height);
        std::printf("%-14s %-18s %-12s %-6s %12s %10s %5s %9s  %s\n", r.c.op.c_str(),
                    r.c.variant.empty() ? "-" : r.c.variant.c_str(), size.c_str(), device_name(r.c.device),
                    number(r.median_ms, "%.4f").c_str(), number(r.gips, "%.2f").c_str(),
                    number(r.bytes_per_pixel, "%.0f").c_str(), number(r.floor_fraction, "%.3f").c_str(),
                    r.note.c_str());
    }
}

void run(const BenchArgs &args) {
    const std::vector<BenchResult> results =
        run_benchmark(make_cases(args, timing_device(args.device)), args.options);
    if (args.json) {
        print_json(args, results);
    } else {
        print_table(args, results);
    }
    std::fflush(stdout);
    const auto failed = std::count_if(results.begin(), results.end(), [](const BenchResult &r) {
        return r.note.rfind("failed", 0) == 0 || r.note.find("FAILED") != std::string::npos;
    });
    if (failed) throw Error(std::to_string(failed) + " bench case(s) failed; see their notes");
}

}  // namespace

Command add_bench_command(CLI::App &app) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App *cmd = app.add_subcommand("bench", "Time the pipelines and baselines against the copy floor");
    char sigma[16];  // the one σ of both Gaussians
    std::snprintf(sigma, sizeof(sigma), "%g", kBenchGaussianSigma);
    cmd->footer(
        "Runs every case in this process on random float32 W×H images already in place (on the GPU for\n"
        "cuda). Ops: copy (the floor: cudaMemcpyAsync device to device, or memcpy; 8 B/px), sat (the\n"
        "SAT variants; 8 B/px), cub-sat (a two-pass CUB SAT, CUDA only; 8 B/px), iir (ALG-order1: a1 =\n"
        "-0.5; ALG-order3: the van Vliet Gaussian, sigma " +
        std::string(sigma) +
        ", as sections; ALG-bspline3: the cubic B-spline's prefilter; ALG = rt, 2, 4, 5, 6, strips\n"
        "(CPU), and on 1xN or Nx1 sizes line1 (causal) or line3: the 1D algorithms 1 and 3; 12 B/px),\n"
        "gaussian (the recursive Gaussians, sigma " +
        std::string(sigma) +
        ", by method: vanvliet, deriche2 and deriche4\n"
        "(an FIR pass, then the all-pole passes), twoway; automatic algorithm; 12 B/px), cufft-gaussian "
        "(the\n"
        "Gaussian's FFT convolution with cuFFT, CUDA only; 8 B/px), cv-gaussian and cv-integral (OpenCV's\n"
        "GaussianBlur at the same sigma and float integral image, CPU only, where the build found OpenCV;\n"
        "8 B/px). The baselines are loaded from libcascade_cuda_baselines.so and\n"
        "libcascade_opencv_baselines.so beside this program (installed: in lib/cascade). Cases that\n"
        "cannot run say why in their note (unavailable, not built); exit status 1 when a case failed.\n"
        "docs/bench.md.");
    cmd->add_option("--op", args->ops,
                    "Ops, comma-separated: copy, sat, cub-sat, iir, gaussian, cufft-gaussian, cv-gaussian, "
                    "cv-integral")
        ->delimiter(',')
        ->check(CLI::IsMember(bench_ops()))
        ->capture_default_str();
    cmd->add_option(
           "--variants", args->variants,
           "Variants of sat (naive, overlapped, 2r1w, 1r1w, 1r1w-split, strips (CPU), auto), iir (rt-order1, "
           "rt-order3, 4-order1, ..., 6-order3, strips-order1, strips-order3, and ALG-bspline3 on request) "
           "and "
           "gaussian (vanvliet, "
           "deriche2, deriche4, twoway) "
           "to run, comma-separated (default: all); iir and gaussian take suffixes: 8/16-bit samples "
           "converted inside the pipeline (-u8, -u16; 3 and 6 B/px), then a boundary, e.g. "
           "rt-order1-clamp, 6-order1-u8, vanvliet-u16-mirror (docs/boundaries.md)")
        ->delimiter(',');
    cmd->add_option(
           "--sizes", args->sizes,
           "Sizes N (N×N) or WxH, comma-separated (default cuda: 1024,2048,4096,8192,16384,5000x3001; "
           "cpu: 512,1024,2048)")
        ->delimiter(',');
    add_device_option(*cmd, args->device);
    cmd->add_option("--repetitions", args->options.repetitions,
                    "Timed calls per case (the median is reported)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd->add_option("--warmup", args->options.warmup, "Untimed calls before timing (after one probe call)")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    cmd->add_option("--rounds", args->options.rounds,
                    "Time each size's cases in turn, repetitions/rounds calls each a round (1: each case's "
                    "calls together)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd->add_option("--seed", args->options.seed, "Seed of the random input")->capture_default_str();
    cmd->add_flag("--check", args->options.check,
                  "Also compare the copy, sat, cub-sat, cv-integral and gaussian outputs with a "
                  "double-precision reference (the "
                  "baselines' small-image self-checks run always)");
    cmd->add_flag("--json", args->json,
                  "One JSON object per line (a header, then one per case) instead of a table");
    return {cmd, [args] { run(*args); }};
}

}  // namespace cascade::cli
