#include "cascade/iir.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "boundary_tables.h"
#include "cascade/error.h"
#include "cascade/planes.h"
#include "companion.h"
#include "contract/tiled_layout.h"
#include "direct_form.h"
#include "level.h"
#include "line_filter.h"
#include "names.h"
#include "pipeline_call.h"
#include "realisation.h"
#include "strips.h"
#include "tile_matrices.h"
#include "tuning.h"

namespace cascade {

void require_finite(const Image &image) {
    auto bad = std::find_if(image.data.begin(), image.data.end(), [](float v) { return !std::isfinite(v); });
    if (bad == image.data.end()) return;
    size_t n = bad - image.data.begin();
    size_t plane = size_t(image.width) * image.height;
    throw Error("the input holds a non-finite sample (" + std::to_string(*bad) +
                ") at x=" + std::to_string(n % plane % image.width) +
                " y=" + std::to_string(n % plane / image.width) + " channel " + std::to_string(n / plane));
}

namespace {

constexpr Named<Form> kForms[] = {
    {Form::automatic, "auto"}, {Form::direct, "direct"}, {Form::sections, "sections"}};
constexpr Named<Algorithm> kAlgorithms[] = {
    {Algorithm::automatic, "auto"}, {Algorithm::rt, "rt"}, {Algorithm::a2, "2"},         {Algorithm::a4, "4"},
    {Algorithm::a5, "5"},           {Algorithm::a6, "6"},  {Algorithm::strips, "strips"}};
constexpr Named<Passes> kPasses[] = {{Passes::all, "all"},
                                     {Passes::columns, "columns"},
                                     {Passes::rows, "rows"},
                                     {Passes::causal, "causal"},
                                     {Passes::anticausal, "anticausal"}};

// The threads a CPU pipeline's parallel loops spread over: Halide's thread pool has one per core
// unless HL_NUM_THREADS says otherwise.
int pool_threads() { return std::max(1, int(std::thread::hardware_concurrency())); }

}  // namespace

Form parse_form(const std::string &text) { return parse_named(text, kForms, "form"); }

Algorithm parse_algorithm(const std::string &text) { return parse_named(text, kAlgorithms, "algorithm"); }

const char *algorithm_name(Algorithm algorithm) { return name_of(algorithm, kAlgorithms); }

Passes parse_passes(const std::string &text) { return parse_named(text, kPasses, "passes"); }

VariantKey iir_key(Algorithm algorithm, bool sections, bool exact, bool level) {
    VariantKey key;
    key.family = algorithm == Algorithm::rt       ? Family::iir_rt
                 : algorithm == Algorithm::strips ? Family::iir_strips
                                                  : Family::iir_tiled;
    if (key.family == Family::iir_tiled) key.algorithm = std::stoi(algorithm_name(algorithm));
    key.sections = sections || key.family == Family::iir_strips;
    key.exact = exact;
    key.level = level;
    return key;
}

std::vector<std::string> form_names() { return names_of(kForms); }

std::vector<std::string> algorithm_names() { return names_of(kAlgorithms); }

std::vector<std::string> passes_names() { return names_of(kPasses); }

const char *passes_name(Passes passes) { return name_of(passes, kPasses); }

namespace {

// The order the variant must hold: r for the direct form, the section count otherwise.
int needed_order(const RecursiveFilter &f, bool direct) {
    return direct ? f.order() : int(to_sections(f).size());
}

}  // namespace

// A dimension's boundary tables as the exact variants read them (algebra/boundary.h), in the
// variant's working type.
struct EdgeTables {
    Halide::Runtime::Buffer<> buffers[3];

    // RT's tables, or with a tile size the block-parallel variants' (boundary.h).
    EdgeTables(const std::vector<RecursiveFilter> &sections, int n, Boundary boundary, int tile,
               halide_type_t working) {
        const BoundaryTables t = tile ? tiled_boundary_tables(sections, n, tile, boundary)
                                      : boundary_tables(sections, n, boundary);
        // matrix(j, s) = seeds(s, j); start(k, i) = start(i, k); end likewise. A gain far past
        // float's range (1e28, say) gives weights no float holds (found by fuzz_design): refused.
        const Eigen::MatrixXd *tables[3] = {&t.seeds, &t.start, &t.end};
        for (int j = 0; j < 3; j++) {
            const Eigen::MatrixXd &m = *tables[j];
            std::vector<double> rows(size_t(m.size()));
            for (Eigen::Index r = 0; r < m.rows(); r++)
                for (Eigen::Index k = 0; k < m.cols(); k++) rows[size_t(r * m.cols() + k)] = m(r, k);
            buffers[j] = table_buffer(rows, int(m.cols()), int(m.rows()), working,
                                      std::string("boundary '") + boundary_name(boundary) + "'");
        }
    }
};

struct IirPlan::Edges {
    std::unique_ptr<EdgeTables> y, x;
};

struct IirPlan::Tables {
    Halide::Runtime::Buffer<> vertical, horizontal;
};

namespace {

// The variant a plan runs: its key (the order, device and schedule left to the plan), the form,
// and the order it must hold.
struct VariantChoice {
    VariantKey key;
    bool direct = false;
    int needed = 0;
    Algorithm algorithm = Algorithm::automatic;
    bool level = false;    // filtered about the image's level
    int overlap = -1;      // strips: rows each strip's column window reaches past it
    int row_overlap = -1;  // strips, exact boundaries: columns the row passes reach past a row
};

// How much of a response the strips' windows may cut off, for their samples' rounding.
double strips_tail(SampleType samples) {
    return samples == SampleType::f64 ? kStripsTailFloat64 : kStripsTail;
}

// The overlap of the column passes as the strips run them, or −1 where they do not apply.
int column_overlap(const Filter2D &filter, SampleType samples) {
    return strips_overlap(variant_sections(filter.vertical, false, int(to_sections(filter.vertical).size())),
                          strips_tail(samples));
}

// The reach of the row passes past a row's ends under an exact boundary, or −1 where the strips do
// not apply.
int row_overlap(const Filter2D &filter, SampleType samples) {
    return strips_row_overlap(
        variant_sections(filter.horizontal, false, int(to_sections(filter.horizontal).size())),
        strips_tail(samples));
}

// What `automatic` runs: on the CPU the strips (float32, float64) where they apply and the build
// has them, else a6.
Algorithm automatic_algorithm(const Filter2D &filter, Boundary boundary, SampleType samples, bool margin,
                              Device device) {
    const bool float32 = samples == SampleType::f32;
    if (device != Device::cpu || (!float32 && samples != SampleType::f64) || margin) return Algorithm::a6;
    const bool exact = boundary != Boundary::none;
    const int sections =
        std::max(needed_order(filter.vertical, false), needed_order(filter.horizontal, false));
    VariantKey key = iir_key(Algorithm::strips, true, exact, float32 && about_level(filter, boundary));
    key.samples = sample_key(samples);
    if (!lookup_variant(wanted(key, sections, Device::cpu))) return Algorithm::a6;
    return column_overlap(filter, samples) >= 0 && (!exact || row_overlap(filter, samples) >= 0)
               ? Algorithm::strips
               : Algorithm::a6;
}

// y = x: a gain of 1 and no feedback.
bool is_identity(const RecursiveFilter &f) {
    return f.gain == 1.0 &&
           std::all_of(f.feedback.begin(), f.feedback.end(), [](double a) { return a == 0.0; });
}

// Throws cascade::Error for combinations no build holds (not for a variant this build lacks).
VariantChoice choose_variant(const Filter2D &filter, Form form, Algorithm algorithm, Boundary boundary,
                             SampleType samples, Device device, bool margin = false,
                             Passes passes = Passes::all) {
    const bool exact = boundary != Boundary::none;
    if (passes != Passes::all) {
        const std::string part = std::string("passes '") + passes_name(passes) + "'";
        if (algorithm == Algorithm::automatic) algorithm = Algorithm::rt;
        if (algorithm != Algorithm::rt)
            throw Error(part +
                        " run on algorithm rt only (the block-parallel algorithms and the strips carry " +
                        "both dimensions' passes in one pipeline)");
        if (samples != SampleType::f32 || margin)
            throw Error(part + " filter float32 samples, without a margin");
        if (exact && (passes == Passes::causal || passes == Passes::anticausal))
            throw Error(part +
                        " take boundary none: an exact boundary's initial conditions come from the causal "
                        "and anticausal passes together");
    }
    if (algorithm == Algorithm::automatic)
        algorithm = automatic_algorithm(filter, boundary, samples, margin, device);
    // Algorithm 5 does the column carries' dot products inside the rows' serial step. With exact
    // boundaries Halide 14 does not build that correctly: the CUDA variant's rows come out wrong
    // near the far edges (to 5e-2 on 65x64; right with the products computed first, which is
    // algorithm 6), and lowering the CPU variant stops with a floating-point exception.
    if (exact && algorithm == Algorithm::a5)
        throw Error(std::string("boundary '") + boundary_name(boundary) +
                    "' runs with algorithms rt, 4 and 6 (6 is 5 with its dot products in parallel); "
                    "algorithm 5 takes boundary none");
    // Algorithm 2 is the blocked, not overlapped comparison point of the overlapped ones.
    if (exact && algorithm == Algorithm::a2)
        throw Error(std::string("boundary '") + boundary_name(boundary) +
                    "' runs with algorithms rt, 4 and 6; algorithm 2 (the comparison variant) takes boundary "
                    "none");
    if (algorithm == Algorithm::strips) {
        if (device != Device::cpu)
            throw Error(std::string("no ") + device_name(device) +
                        " variant of algorithm strips: it runs on the CPU only");
        if (margin)
            throw Error(
                "a margin past the image's edges runs with algorithms rt, 4 and 6; algorithm strips "
                "takes none");
    }
    if (samples != SampleType::f32 && samples != SampleType::f64 && samples != SampleType::u8 &&
        samples != SampleType::u16)
        throw Error(std::string("the filters read float32, float64, uint8 or uint16 samples, not ") +
                    sample_name(samples));
    if (samples == SampleType::f64 && algorithm != Algorithm::a6 && algorithm != Algorithm::strips)
        throw Error("float64 samples run on algorithms 6 and strips only");
    if (samples != SampleType::f32 && samples != SampleType::f64 && algorithm != Algorithm::a6)
        throw Error(std::string(sample_name(samples)) + " samples run on algorithm 6 only");
    const int order = std::max(filter.vertical.order(), filter.horizontal.order());
    // 8/16-bit variants are not built about a level: rounding to their levels hides most drift.
    const bool level = about_level(filter, boundary) && samples == SampleType::f32;
    // The direct form of order 3 (float32 only, below) runs about the level wherever the extension
    // keeps constants.
    const bool direct_level = tiles_about_level(filter, boundary, true);
    // The block-parallel direct form of order 3, where the build has it (the GPU): 3 states a
    // dimension where sections carry 4, so a quarter fewer carries.
    const bool block_direct =
        order == kBlockDirectOrder && is_tiled(algorithm) && !margin && samples == SampleType::f32 &&
        lookup_variant(wanted(iir_key(algorithm, false, exact, direct_level), kBlockDirectOrder, device));
    if (form == Form::automatic)
        form = order <= 2 || (block_direct && tiles_in_direct_form(filter)) ? Form::direct : Form::sections;
    VariantChoice choice;
    choice.algorithm = algorithm;
    choice.direct = form == Form::direct;
    if (algorithm == Algorithm::strips) {
        if (choice.direct && order > 2)
            throw Error("the direct form of order " + std::to_string(order) +
                        " runs only with --algorithm rt; algorithm strips uses sections");
        choice.direct = false;  // order ≤ 2: the direct form is one section
        choice.overlap = column_overlap(filter, samples);
        if (choice.overlap < 0)
            throw Error("the vertical filter's response fades too slowly for algorithm strips (past " +
                        std::to_string(kStripsMaxOverlap) + " rows); use algorithm 6");
        if (exact) {
            choice.row_overlap = row_overlap(filter, samples);
            if (choice.row_overlap < 0)
                throw Error(
                    "the horizontal filter's response fades too slowly for algorithm strips under an "
                    "exact boundary (past " +
                    std::to_string(kStripsMaxOverlap) + " columns); use algorithm 6");
        }
    } else if (algorithm != Algorithm::rt) {
        // The block-parallel direct form is built for order 1 (and on the GPU for order 3); order
        // 2 is one section of order 2.
        if (choice.direct && order > 2 && !block_direct)
            throw Error("the direct form of order " + std::to_string(order) +
                        " runs only with --algorithm rt; the block-parallel algorithms use sections");
        // (The margin variants are built as sections only.)
        if (order == 2 || margin) choice.direct = false;
    }
    choice.level = choice.direct && block_direct ? direct_level : level;
    choice.key = iir_key(algorithm, !choice.direct, exact, choice.level);
    if (passes != Passes::all) choice.key.passes = passes_name(passes);
    // Built for Deriche's all-pole passes (order 2, 2 sections): reading through the margin costs.
    choice.key.margin = margin;
    choice.key.samples = sample_key(samples);
    choice.needed = std::max(needed_order(filter.vertical, choice.direct),
                             needed_order(filter.horizontal, choice.direct));
    // Rows that filter nothing (an axis of a volume before its last, the columns of a wide image):
    // the columns alone, where the build has them, neither restaged nor filtered along the rows
    // (the cubic spline down a 256 × 65536 float64 image, 2 cores: 11.4 ms against 20.4).
    if (algorithm == Algorithm::strips && is_identity(filter.horizontal)) {
        VariantKey columns = choice.key;
        columns.passes = "columns";
        if (lookup_variant(wanted(columns, choice.needed, device))) choice.key = columns;
    }
    return choice;
}

// The product of the sections' gains, squared: what one dimension's causal and anticausal passes
// multiply a sample by.
double total_gain(const std::vector<RecursiveFilter> &sections) {
    double gain = 1.0;
    for (const RecursiveFilter &s : sections) gain *= s.gain;
    return gain * gain;
}

// The pipeline runs the float-rounded coefficients. Rounding a direct form of order ≥ 3 with
// clustered poles near 1 can move a pole past the unit circle (van Vliet's Gaussian at σ 1960,
// RT direct, found by fuzz_design: the periodic tables of the unstable filter were Inf); so can
// a pole within float's spacing of 1 in any form. Refused, saying what would work.
void require_stable_in_float(const std::vector<RecursiveFilter> &sections, bool direct, SampleType samples) {
    if (samples == SampleType::f64) return;
    for (const RecursiveFilter &s : sections) {
        try {
            require_stable(s);
        } catch (const Error &e) {
            throw Error(std::string("rounded to float32 as the pipeline runs it, the ") +
                        (direct ? "direct form" : "section") + " is no longer stable (" + e.what() + ")" +
                        (direct ? "; run it as sections, the automatic form above order 2" : ""));
        }
    }
}

// The single-stage realisation the tuning tables name for a plan left to `automatic`, or none
// where no table names one this build can run (tuning.h).
std::optional<Realisation> tuned_for(const Filter2D &filter, Boundary boundary, Device device, int width,
                                     int height) {
    // An unreadable or malformed table is the user's error to hear about.
    const std::string name = tuned_realisation(filter, boundary, device, width, height);
    if (name.empty()) return std::nullopt;
    try {
        return parse_realisation(name, filter, boundary);
    } catch (const Error &) {
        return std::nullopt;  // a table naming what this filter cannot run: the fixed choice
    }
}

// Whether a W×H image fits the GPU's algorithms 4, 5 and 6 with tile `tile` (tiled_layout.h); any
// other algorithm or device takes it.
bool fits(Algorithm algorithm, Device device, int width, int height, int tile) {
    return device != Device::cuda || !is_tiled(algorithm) || algorithm == Algorithm::a2 ||
           TiledLayout::fits_gpu(width, height, tile > 0 ? tile : default_tile_schedule().tile);
}

// A single-stage realisation's stage for a W×H image, where this build holds its variant.
std::optional<Stage> runnable_stage(const Realisation &r, const Filter2D &filter, Boundary boundary,
                                    Device device, int width, int height) {
    if (r.stages.size() != 1) return std::nullopt;
    const Stage &s = r.stages[0];
    if (!fits(s.algorithm, device, width, height, s.schedule.tile)) return std::nullopt;
    try {
        const VariantChoice choice =
            choose_variant(filter, s.form, s.algorithm, boundary, SampleType::f32, device);
        if (!lookup_variant(wanted(choice.key, choice.needed, device, s.schedule))) return std::nullopt;
    } catch (const Error &) {
        return std::nullopt;
    }
    return s;
}

std::optional<Stage> tuned_stage(const Filter2D &filter, Boundary boundary, Device device, int width,
                                 int height) {
    const std::optional<Realisation> r = tuned_for(filter, boundary, device, width, height);
    return r ? runnable_stage(*r, filter, boundary, device, width, height) : std::nullopt;
}

std::unique_ptr<RealisedPlan> chain_of(const std::optional<Realisation> &r, int width, int height,
                                       Device device, Boundary boundary) {
    if (!r || r->stages.size() < 2) return nullptr;
    try {
        return std::make_unique<RealisedPlan>(*r, width, height, device, boundary);
    } catch (const Error &) {
        return nullptr;  // a table naming what this build cannot run: the fixed choice
    }
}

}  // namespace

std::string fixed_realisation(const Filter2D &filter, Boundary boundary, Device device) {
    const Algorithm algorithm = automatic_algorithm(filter, boundary, SampleType::f32, false, device);
    const int order = std::max(filter.vertical.order(), filter.horizontal.order());
    return realisation_name(Decomposition::whole, {}, algorithm, order <= 2 ? Form::direct : Form::sections,
                            is_tiled(algorithm) ? default_tile_schedule() : TileSchedule{});
}

bool converts_samples(const Filter2D &filter, const IirOptions &options, SampleType samples, Device device) {
    if (samples == SampleType::f32) return true;
    if (options.algorithm != Algorithm::automatic && options.algorithm != Algorithm::a6) return false;
    if (options.passes != Passes::all) return false;  // parts run on RT, float32
    try {
        const VariantChoice choice =
            choose_variant(filter, options.form, options.algorithm, options.boundary, samples, device);
        return lookup_variant(wanted(choice.key, choice.needed, device)) != nullptr;
    } catch (const Error &) {
        return false;  // the float plan then says what is wrong
    }
}

namespace {

// The filter a part runs: the other dimension's filter replaced by the identity, which the
// part's variant leaves out (its tables and level gain then describe what runs).
Filter2D part_of(const Filter2D &filter, Passes passes) {
    const RecursiveFilter identity = RecursiveFilter::identity();
    if (passes == Passes::columns) return {filter.vertical, identity};
    if (passes == Passes::rows) return {identity, filter.horizontal};
    return filter;
}

// The exact boundaries of algorithm 6's direct form of order 3 on the GPU also have variants on
// the tiles of its `none` variant (generators/CMakeLists.txt): taken where the image is whole
// tiles of them, where the last tiles need no rescan. On ragged images the build's tiles stay:
// the rescan of larger tiles costs more than they gain (H100, 6-order3-clamp, GiP/s, tiles of
// 64 → 128: 8192² 115.2 → 127.5, 5000×3001 71.6 → 67.7).
TileSchedule exact_schedule(const VariantChoice &choice, Boundary boundary, Device device, int width,
                            int height, TileSchedule schedule) {
    if (!schedule.is_default() || boundary == Boundary::none || device != Device::cuda ||
        choice.algorithm != Algorithm::a6 || !choice.direct || choice.needed != 3)
        return schedule;
    const Variant *none = lookup_variant(wanted(iir_key(Algorithm::a6, false), 3, device));
    if (!none || none->key.tile <= 0 || width % none->key.tile != 0 || height % none->key.tile != 0)
        return schedule;
    const TileSchedule whole{none->key.tile, none->key.rows, "", ""};
    return lookup_variant(wanted(choice.key, choice.needed, device, whole)) ? whole : schedule;
}

}  // namespace

IirPlan::IirPlan(const Filter2D &filter, int width, int height, const IirOptions &options, SampleType samples,
                 int margin)
    : IirPlan(filter, width, height, options, samples, margin, false) {}

std::unique_ptr<IirPlan> IirPlan::converting(const Filter2D &filter, int width, int height,
                                             const IirOptions &options, SampleType samples) {
    std::unique_ptr<IirPlan> plan(new IirPlan(filter, width, height, options, samples, 0, true));
    if (!plan->variant_) return nullptr;
    return plan;
}

IirPlan::IirPlan(const Filter2D &whole, int width, int height, const IirOptions &options, SampleType samples,
                 int margin, bool refusable)
    : variant_(nullptr), samples_(samples), width_(width), height_(height), margin_(margin) {
    const Device device = plan_device(options.device);
    const Boundary boundary = options.boundary;
    const Passes passes = options.passes;
    Form form = options.form;
    Algorithm algorithm = options.algorithm;
    TileSchedule schedule = options.schedule;
    // Float32 is always filtered; other samples only where a variant converts them (as
    // converts_samples says), else the caller converts them itself.
    refusable = refusable && samples != SampleType::f32;
    if (refusable &&
        ((algorithm != Algorithm::automatic && algorithm != Algorithm::a6) || passes != Passes::all))
        return;
    const Filter2D filter = part_of(whole, passes);
    if (width < 1 || height < 1) throw Error("the input image is empty");
    // Past the edges the padded image must extend as the image does: true of zeros and repeated
    // edge samples only.
    if (margin < 0 || (margin > 0 && boundary != Boundary::zero && boundary != Boundary::clamp))
        throw Error("a margin past the image's edges takes boundary zero or clamp");
    // The pipeline filters the image with its margin: the tables are for that size.
    width += 2 * margin;
    height += 2 * margin;
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    const bool exact = boundary != Boundary::none;
    if (algorithm == Algorithm::automatic && form == Form::automatic && schedule.is_default() &&
        samples == SampleType::f32 && margin == 0 && passes == Passes::all)
        if (const std::optional<Stage> tuned = tuned_stage(filter, boundary, device, width, height)) {
            algorithm = tuned->algorithm;
            form = tuned->form;
            schedule = tuned->schedule;
        }
    // Under an exact boundary the strips round past 1e−5 on lines of a few samples (strips.h).
    if (algorithm == Algorithm::automatic && exact && device == Device::cpu && passes == Passes::all &&
        std::min(width, height) < kStripsMinExactLine)
        algorithm = Algorithm::a6;
    // Images too large for the GPU's tiled algorithms run on rt when left to `automatic`.
    if (algorithm == Algorithm::automatic && samples == SampleType::f32 &&
        !fits(automatic_algorithm(filter, boundary, samples, margin > 0, device), device, width, height,
              schedule.tile))
        algorithm = Algorithm::rt;
    VariantChoice choice;
    try {
        choice = choose_variant(filter, form, algorithm, boundary, samples, device, margin > 0, passes);
    } catch (const Error &) {
        if (refusable) return;  // the float32 plan the caller makes instead says what is wrong
        throw;
    }
    algorithm = choice.algorithm;
    const bool tiled = is_tiled(algorithm);
    if (!tiled && (schedule.tile > 0 || schedule.rows > 0))
        throw Error(std::string("algorithm ") + algorithm_name(algorithm) +
                    " has no tile schedule; tile and rows apply to algorithms 2, 4, 5 and 6");
    if (margin == 0) schedule = exact_schedule(choice, boundary, device, width, height, schedule);
    variant_ = refusable ? lookup_variant(wanted(choice.key, choice.needed, device, schedule))
                         : &find_variant(wanted(choice.key, choice.needed, device, schedule));
    if (!variant_) return;
    if (!fits(algorithm, device, width, height, variant_->key.tile))
        throw Error(std::string("algorithm ") + algorithm_name(algorithm) + " on the GPU takes at most " +
                    std::to_string(TiledLayout::kMostGpuTiles) + " tiles of " +
                    std::to_string(variant_->key.tile) +
                    " samples along a dimension; algorithms rt and 2 take larger images");
    if (const auto [min_width, min_height] = minimum_size(*variant_);
        width < min_width || height < min_height)
        throw Error("the variant scheduled by " + schedule.autoscheduler + " runs on images of at least " +
                    std::to_string(min_width) + "x" + std::to_string(min_height) +
                    " (the autoscheduler's estimates)");
    const bool float32 = samples != SampleType::f64;
    const auto vertical = variant_sections(filter.vertical, choice.direct, variant_->key.order, float32);
    const auto horizontal = variant_sections(filter.horizontal, choice.direct, variant_->key.order, float32);
    require_stable_in_float(vertical, choice.direct, samples);
    require_stable_in_float(horizontal, choice.direct, samples);
    add_filter_scalars(scalars_, vertical, "gain_y", "feedback_y_");
    add_filter_scalars(scalars_, horizontal, "gain_x", "feedback_x_");
    if (algorithm == Algorithm::strips) {
        scalars_["overlap"] = float(choice.overlap);
        scalars_["strip"] =
            float(strips_height(choice.overlap, height, pool_threads(), samples == SampleType::f64 ? 8 : 4));
        if (exact) {
            scalars_["extension"] = int(boundary);
            scalars_["row_overlap"] = choice.row_overlap;
        }
    }
    // Algorithms 4, 5 and 6 may scan with unit gains and scale the samples by the gains instead:
    // their tables are then the unit-gain filter's.
    const bool unit_gain = tiled && algorithm != Algorithm::a2 && TiledLayout::unit_gain_scans(exact);
    const auto vertical_tables = unit_gain ? with_unit_gains(vertical) : vertical;
    const auto horizontal_tables = unit_gain ? with_unit_gains(horizontal) : horizontal;
    const halide_type_t working =
        samples == SampleType::f64 ? halide_type_of<double>() : halide_type_of<float>();
    if (unit_gain && samples != SampleType::f64 &&
        !std::isfinite(float(total_gain(vertical) * total_gain(horizontal))))
        throw Error(
            "this filter's gains multiply past float32's range (a gain too extreme for a float32 pipeline)");
    if (exact) {
        if (choice.level) scalars_["level_gain"] = dc_response(vertical) * dc_response(horizontal);
        if (margin > 0) {
            scalars_["margin"] = margin;
            scalars_["margin_clamped"] = boundary == Boundary::clamp ? 1 : 0;
        }
        // The strips read the extension itself: no tables.
        if (algorithm != Algorithm::strips) {
            edges_ = std::make_unique<Edges>();
            const int tile = tiled ? variant_->key.tile : 0;
            edges_->y = std::make_unique<EdgeTables>(vertical_tables, height, boundary, tile, working);
            edges_->x = std::make_unique<EdgeTables>(horizontal_tables, width, boundary, tile, working);
        }
    }
    if (tiled) {
        const int b = variant_->key.tile;  // the variant's tile size; the pipeline checks the tables' shape
        tables_ = std::make_unique<Tables>();
        const std::vector<double> down = tiled_table(vertical_tables, b, height),
                                  across = tiled_table(horizontal_tables, b, width);
        const int rows = int(down.size()) / b;
        tables_->vertical = table_buffer(down, b, rows, working, "the tile tables");
        tables_->horizontal = table_buffer(across, b, rows, working, "the tile tables");
    }
}

IirPlan::~IirPlan() = default;

namespace {

bool same_host_memory(const halide_buffer_t *a, const halide_buffer_t *b) {
    return a->host && a->host == b->host;
}

int planes_of_buffer(const halide_buffer_t *b) { return b->dimensions > 2 ? b->dim[2].extent : 1; }

}  // namespace

int IirPlan::whole_strip(const halide_buffer_t *input, bool in_place) const {
    if (scalars_.count("strip") == 0 || margin_ != 0 || planes_of_buffer(input) < pool_threads()) return 0;
    int rows = 1;
    while (rows < height_) rows *= 2;
    // In place: one strip a plane reads all of its plane before it writes any of it, where the
    // plane stays in the core's cache (256 planes of 256² float64 in place: 22 ms against 27 into
    // another array).
    if (in_place) return double(rows) * width_ * (input->type.bits / 8) <= kWholeStripBytes ? rows : 0;
    // Into another array: no window overlaps another inside a plane, up to the tallest strips the
    // float32 filters take (the cubic spline down the first axis of a 256³ float64 volume, 64
    // planes of 256 × 1024: 16.6 ms against 21.6 in 128-row strips, 2 cores, 2026-11-30).
    return rows <= 256 ? rows : 0;
}

PipelineCall IirPlan::call(halide_buffer_t *input, halide_buffer_t *output) const {
    if (input->dim[0].extent != width_ || input->dim[1].extent != height_ ||
        output->dim[0].extent != width_ + 2 * margin_ || output->dim[1].extent != height_ + 2 * margin_)
        throw Error("the image's size differs from the plan's");
    PipelineCall call;
    call.buffer("input", input).buffer("output", output);
    for (const auto &[name, value] : scalars_) call.scalar(name, value);
    if (const int rows = whole_strip(input, same_host_memory(input, output))) call.scalar("strip", rows);
    if (tables_) {
        call.buffer("vertical", tables_->vertical.raw_buffer());
        call.buffer("horizontal", tables_->horizontal.raw_buffer());
    }
    if (edges_) {
        const char *names[3] = {"matrix", "start", "end"};
        for (int n = 0; n < 3; n++) {
            call.buffer(std::string("boundary_y_") + names[n], edges_->y->buffers[n].raw_buffer());
            call.buffer(std::string("boundary_x_") + names[n], edges_->x->buffers[n].raw_buffer());
        }
    }
    return call;
}

const Variant &IirPlan::variant() const { return *variant_; }

bool IirPlan::ran_from_copy(halide_buffer_t *input, halide_buffer_t *output, bool host) {
    if (input->device && input->device == output->device)
        throw Error("the GPU's filters do not run in place: give another output buffer");
    if (!same_host_memory(input, output) || whole_strip(input, true) > 0) return false;
    // In place where the pipeline would overwrite what it has still to read: from a copy.
    Halide::Runtime::Buffer<void> copy = Halide::Runtime::Buffer<void>(*input).copy();
    host ? run_host(copy.raw_buffer(), output) : run(copy.raw_buffer(), output);
    return true;
}

void IirPlan::run(halide_buffer_t *input, halide_buffer_t *output) {
    if (ran_from_copy(input, output, false)) return;
    PipelineCall pipeline = call(input, output);
    run_shared(*variant_, pipeline, first_run_, warm_);
}

void IirPlan::run(const Image &input, Image &output) {
    run_host(planes_of(input).raw_buffer(), planes_of(output).raw_buffer());
}

void IirPlan::run_host(halide_buffer_t *input, halide_buffer_t *output) {
    const halide_type_t type = halide_type(samples_);
    if (input->type != type || output->type != type)
        throw Error(std::string("this plan filters ") + sample_name(samples_) + " samples");
    if (ran_from_copy(input, output, true)) return;
    PipelineCall pipeline = call(input, output);
    run_on_host(variant_->device, [&] { run_shared(*variant_, pipeline, first_run_, warm_); }, {input},
                {output});
}

Image iir_2d(const Image &input, const Filter2D &filter, const IirOptions &options) {
    Image output(input.width, input.height, input.channels);
    iir_2d(input, output, filter, options);
    return output;
}

namespace {

// A one-row or one-column image, the automatic algorithm: one long signal per channel, filtered
// along it (runtime/line_filter.h) instead of by tiles one sample thick. Boundary none by either
// method; the exact boundaries where a strips variant fits the filter.
bool runs_as_line(int width, int height, const Filter2D &filter, const IirOptions &options) {
    if (options.algorithm != Algorithm::automatic || options.passes != Passes::all ||
        (width == 1) == (height == 1))
        return false;
    if (options.boundary == Boundary::none) return true;
    const RecursiveFilter &along = height == 1 ? filter.horizontal : filter.vertical;
    return line_strips_fit(along, options.boundary, resolve_device(options.device));
}

// Σ h_k² over f's causal impulse response h: e1ᵀPe1, P = Σ_k F^k·Q·(F^k)ᵀ the sum of the states'
// outer products (F the feedback's companion matrix, Q = g²·e1·e1ᵀ), by doubling: each step adds
// the next 2^k terms at once (P += A·P·Aᵀ, A = A²), so a pole within 1e−9 of 1, whose response
// rings for ~10¹⁰ samples, takes 40 steps of r × r products where a sum sample by sample would take
// ~10¹⁰. Agrees with that sum to 5e−12 on random filters to order 8.
double response_energy(const RecursiveFilter &f) {
    const int r = f.order();
    if (r == 0) return f.gain * f.gain;
    Eigen::MatrixXd A = companion_matrix(f.feedback), P = Eigen::MatrixXd::Zero(r, r);
    P(0, 0) = f.gain * f.gain;
    for (int k = 0; k < 64 && A.cwiseAbs().maxCoeff() > 1e-30; k++) {
        P += A * P * A.transpose();
        A = A * A;
    }
    return P(0, 0);
}

// What a filter's passes make of a line of one sample: under none its feedbacks are zero (b0²);
// under zero the sample stands alone, so the anticausal pass sums the causal response times
// itself (Σ h_k²); the other extensions repeat it, a constant line (H(1)², dc_response).
double one_sample_gain(const RecursiveFilter &f, Boundary boundary) {
    if (boundary == Boundary::none) return f.gain * f.gain;
    if (boundary != Boundary::zero) return dc_response({f});
    return response_energy(f);
}

void iir_line_2d(const Image &input, Image &output, const Filter2D &filter, const IirOptions &options) {
    const bool row = input.height == 1;
    const RecursiveFilter &along = row ? filter.horizontal : filter.vertical;
    const RecursiveFilter &across = row ? filter.vertical : filter.horizontal;
    require_stable(across);
    iir_line(input.data.data(), output.data.data(), row ? input.width : input.height, input.channels, along,
             3, options.device, LineMethod::automatic, options.boundary);
    const float scale = float(one_sample_gain(across, options.boundary));
    if (scale != 1.0f)
        for (float &v : output.data) v *= scale;
}

}  // namespace

std::unique_ptr<RealisedPlan> tuned_chain(const Filter2D &filter, Boundary boundary, Device device, int width,
                                          int height) {
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    return chain_of(tuned_for(filter, boundary, device, width, height), width, height, device, boundary);
}

void iir_2d(const Image &input, Image &output, const Filter2D &filter, const IirOptions &options) {
    if (input.width < 1 || input.height < 1 || input.channels < 1) throw Error("the input image is empty");
    if (output.width != input.width || output.height != input.height || output.channels != input.channels)
        throw Error("the output image's shape differs from the input's");
    if (runs_as_line(input.width, input.height, filter, options))
        return iir_line_2d(input, output, filter, options);
    const Device device = resolve_device(options.device);
    IirOptions chosen = options;
    if (options.algorithm == Algorithm::automatic && options.form == Form::automatic &&
        options.schedule.is_default() && options.passes == Passes::all) {
        require_stable(filter.vertical);
        require_stable(filter.horizontal);
        // One look at the tables: a chain of stages runs here, a single stage as the plan's choice.
        const std::optional<Realisation> tuned =
            tuned_for(filter, options.boundary, device, input.width, input.height);
        if (std::unique_ptr<RealisedPlan> chain =
                chain_of(tuned, input.width, input.height, device, options.boundary))
            return chain->run(input, output);
        if (const std::optional<Stage> s =
                tuned ? runnable_stage(*tuned, filter, options.boundary, device, input.width, input.height)
                      : std::nullopt) {
            chosen.algorithm = s->algorithm;
            chosen.form = s->form;
            chosen.schedule = s->schedule;
        }
    }
    IirPlan plan(filter, input.width, input.height, chosen);
    plan.run(input, output);
}

bool iir_2d(halide_buffer_t *input, halide_buffer_t *output, const Filter2D &filter,
            const IirOptions &options) {
    const std::unique_ptr<IirPlan> plan = IirPlan::converting(
        filter, input->dim[0].extent, input->dim[1].extent, options, sample_type_of(input));
    if (!plan) return false;
    plan->run_host(input, output);
    return true;
}

}  // namespace cascade
