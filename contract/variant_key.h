#pragma once
// The key of one AOT-compiled pipeline: what it computes (family, algorithm, form, passes,
// boundary handling, samples, order) and how (schedule knobs, device). The build and the runtime
// share it: the catalogue manifests list keys, the build generates one library per key, named by
// `name()`, and the runtime finds a pipeline by asking for a key. The name is the one spelling a
// key has; `parse` reads it back. Standard C++ only: the build runs this file before anything else
// is compiled.
#include <string>

namespace cascade {

// Which generator computes the pipeline.
enum class Family {
    iir_rt,       // one thread per line: the sequential baseline (Nehab et al.'s RT)
    iir_tiled,    // block-parallel 2D: Nehab et al.'s algorithms 2, 4, 5, 6
    iir_strips,   // the CPU's row strips with overlapped column windows
    iir_line,     // one long signal, block-parallel: algorithms 1 (causal) and 3 (both passes)
    line_strips,  // one long signal by overlapped segments
    sat,          // summed-area tables
    fir,          // separable FIR with run-time taps
    correlate,    // one axis's FIR, run-time taps of any length and extension (scipy's correlate1d)
    fir2d,        // separable 2D FIR, run-time taps up to a built radius and run-time extension
    twoway,       // Lee et al.'s two-way partitioned Gaussian
};

struct VariantKey {
    Family family = Family::iir_tiled;
    // iir_tiled: 2, 4, 5 or 6; iir_line and line_strips: 1 (causal) or 3 (causal, then anticausal).
    int algorithm = 0;
    bool sections = false;  // cascaded sections of order ≤ 2; else the direct form
    // iir_rt: "" (all), columns, rows, causal, anticausal; correlate: the axis, columns or rows.
    std::string passes;
    bool exact = false;   // exact boundaries from the edges' initial feedbacks
    bool margin = false;  // ... read through a margin past the edges (Deriche's all-pole passes)
    bool level = false;   // filtered about the image's level (poles near 1)
    // "" (float32), f64 (float64 throughout: coefficients, tables, arithmetic), u8, u16 (iir_tiled:
    // converted in the first and last pass); sat: input and table types, f32_f32, u8_u32, u16_u64, ...
    std::string samples;
    // sat: naive, strips, 1r1w_stage, 2r1w_bounded, overlapped, 2r1w, 2r1w_corner_kernel;
    // fir: "" (zero outside), periodic, reflect, mirror, margin; twoway: "", first_order_last.
    std::string kind;
    int overlap = 0;  // line_strips: samples each segment's window reaches back
    // The order the variant holds: the direct form's order, the sections' count, the FIR's radius
    // (fir, fir2d).
    int order = 0;
    // Schedule knobs: the tile b and threads per tile column (iir_tiled), the autoscheduler that
    // schedules the pipeline instead of its hand schedule, and the others "scan=shared,vector=16"
    // in kKnobOrder's order.
    int tile = 0, rows = 0;
    std::string autoscheduler;
    std::string knobs;
    std::string device = "cpu";  // cpu, cuda

    // The key's one spelling, also its library's and (prefixed "cascade_") its function's name:
    // iir_a6_sections_exact_level_t64r2_o2_cuda, sat_2r1w_u8_u32_o0_cpu, line_strips3_sections_w64_o2_cuda.
    std::string name() const;
    // Its first part, what the pipeline computes: iir_a6_sections_exact_level.
    std::string computes() const;
    // The key `text` spells; throws std::invalid_argument saying what is wrong.
    static VariantKey parse(const std::string &text);

    // The same pipeline but for the schedule and the order: what a lookup matches.
    bool same_filter(const VariantKey &o) const;
    bool same_schedule(const VariantKey &o) const {
        return tile == o.tile && rows == o.rows && autoscheduler == o.autoscheduler && knobs == o.knobs;
    }
    bool operator==(const VariantKey &o) const {
        return same_filter(o) && same_schedule(o) && order == o.order;
    }
};

// The schedule knobs other than tile and rows, in the order a key spells them.
constexpr const char *kKnobOrder[] = {"scan", "carries", "vector", "grain", "block"};

// True when `knobs` is "key=value" items joined by commas, known keys in kKnobOrder's order, each
// once, values alphanumeric.
bool canonical_knobs(const std::string &knobs);

}  // namespace cascade
