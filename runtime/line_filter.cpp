#include "line_filter.h"

#include <HalideBuffer.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "cascade/error.h"
#include "contract/line_layout.h"
#include "pipeline_call.h"
#include "strips.h"
#include "tile_matrices.h"

// The build parameters of the iir_line variants (generators/CMakeLists.txt); the pipelines check
// the table's shape, so a mismatch fails loudly.
#ifndef CASCADE_LINE_BLOCK
#error "CASCADE_LINE_BLOCK, CASCADE_LINE_CHUNK and CASCADE_LINE_LEVELS come from runtime/CMakeLists.txt"
#endif

namespace cascade {

using Eigen::MatrixXd;

std::vector<float> line_table(const std::vector<RecursiveFilter> &sections, int b, int chunk, int levels,
                              int64_t length) {
    if (length < 1) throw Error("an empty signal has no blocks");
    const TileMatrices full = tile_matrices(sections, b, b);
    const TileMatrices last = tile_matrices(sections, b, int(length - (length - 1) / b * b));
    const LineLayout layout{int(full.Mf.rows()), chunk, levels};
    const int K = layout.K;
    std::vector<float> table(size_t(layout.rows()) * K, 0.0f);
    // Row `row` + s holds row s of M. Entries below float's smallest normal number are flushed to
    // zero: they change nothing, and denormal operands cost the CPU a microcode assist per product
    // (high powers of a fast filter pass through that range).
    auto put = [&](int row, const MatrixXd &M) {
        for (int s = 0; s < K; s++)
            for (int k = 0; k < K; k++) {
                const double v = M(s, k);
                table[size_t(row + s) * K + k] = std::abs(v) < FLT_MIN ? 0.0f : float(v);
            }
    };
    put(layout.mc(0), full.Mc);
    put(layout.mc(1), last.Mc);
    // Level l steps by M^(C^l) and carries a chunk's entering state with M^(C^l·(v+1)); the next
    // level's step is the last of these.
    auto powers = [&](const MatrixXd &M, const std::function<int(int)> &first) {
        MatrixXd step = M;
        for (int l = 0; l <= levels; l++) {
            MatrixXd power = step;
            for (int v = 0; v < chunk; v++) {
                put(first(l) + v * K, power);
                if (v + 1 < chunk) power = step * power;
            }
            step = power;
        }
    };
    powers(full.Mf, [&](int l) { return layout.f_power(l); });
    powers(full.Mr, [&](int l) { return layout.r_power(l); });
    return table;
}

namespace {

// The filter's sections as a variant of `count` of them runs them: order 1 in direct form, higher
// orders as sections of order 2 (the direct form of order ≥ 3 loses float32's accuracy:
// docs/algorithms.md).
std::vector<RecursiveFilter> as_run(const RecursiveFilter &filter, int count) {
    return variant_sections(filter, filter.order() == 1, count);
}

int section_count(const RecursiveFilter &filter) {
    return filter.order() == 1 ? 1 : int(to_sections(filter).size());
}

// The key of a 1D variant of `algorithm` (1 or 3) for `filter`: order 1 in direct form, sections
// above.
VariantKey line_key(Family family, const RecursiveFilter &filter, int algorithm, bool exact = false) {
    VariantKey key;
    key.family = family;
    key.algorithm = algorithm;
    key.sections = filter.order() != 1;
    key.exact = exact;
    return key;
}

// The overlapped-segments variant (algebra/line_strips.h) for `filter` with the smallest
// overlap the build holds at or above its response's, or null.
const Variant *strips_variant(const RecursiveFilter &filter, int algorithm, bool exact, Device device) {
    const int count = section_count(filter);
    const int overlap = strips_overlap(as_run(filter, count));
    if (overlap < 0) return nullptr;
    VariantKey key = wanted(line_key(Family::line_strips, filter, algorithm, exact), count, device);
    std::vector<int> overlaps;
    for (const Variant &v : variants()) {
        VariantKey any_overlap = v.key;
        any_overlap.overlap = 0;
        if (any_overlap.same_filter(key)) overlaps.push_back(v.key.overlap);
    }
    std::sort(overlaps.begin(), overlaps.end());
    for (int w : overlaps)
        if (w >= overlap) {
            key.overlap = w;
            if (const Variant *v = lookup_variant(key)) return v;
        }
    return nullptr;
}

}  // namespace

struct LinePlan::Call {
    std::map<std::string, double> scalars;
    std::vector<float> table;
    Halide::Runtime::Buffer<float> table_buffer;
};

LinePlan::LinePlan(const RecursiveFilter &filter, int64_t length, int algorithm, Device device,
                   LineMethod method, Boundary boundary)
    : boundary_(boundary), length_(length), call_(std::make_unique<Call>()) {
    if (algorithm != 1 && algorithm != 3)
        throw Error("the 1D filters run algorithm 1 (causal) or 3 (causal, then anticausal), not " +
                    std::to_string(algorithm));
    if (length < 1) throw Error("the signal is empty");
    if (length > INT32_MAX) throw Error("a pipeline takes at most 2^31 − 1 samples per channel");
    require_stable(filter);
    const int count = section_count(filter);
    const bool exact = boundary != Boundary::none;
    if (exact && algorithm != 3)
        throw Error("the 1D filters take a boundary other than none on both passes (algorithm 3)");
    if (exact && method == LineMethod::blocks)
        throw Error("the 1D blocks (algorithms 1 and 3) take boundary none; the strips take the others");
    // The CPU's automatic choice keeps the blocks under boundary none: there the segments' windows
    // load across vector lanes S samples apart, and took 30.3 ms against the blocks' 13.7
    // (algorithm 3, order 1, 2^24 samples, this 2-core build machine; docs/performance.md).
    if (exact || method == LineMethod::strips ||
        (method == LineMethod::automatic && device == Device::cuda)) {
        variant_ = strips_variant(filter, algorithm, exact, device);
        if (!variant_ && (exact || method == LineMethod::strips)) {
            const int overlap = strips_overlap(as_run(filter, count));
            throw Error(
                "no line_strips variant of this build fits the filter: its response needs " +
                (overlap < 0 ? "more than " + std::to_string(kStripsMaxOverlap) : std::to_string(overlap)) +
                " samples of overlap");
        }
        strips_ = variant_ != nullptr;
    }
    if (strips_) {
        add_filter_scalars(call_->scalars, as_run(filter, variant_->key.order), "gain", "feedback_");
        return;
    }
    variant_ = &find_variant(wanted(line_key(Family::iir_line, filter, algorithm), count, device));
    const std::vector<RecursiveFilter> sections = as_run(filter, variant_->key.order);
    add_filter_scalars(call_->scalars, sections, "gain", "feedback_");
    call_->table = line_table(sections, CASCADE_LINE_BLOCK, CASCADE_LINE_CHUNK, CASCADE_LINE_LEVELS, length);
    const int K = int(sections.size()) * sections[0].order();
    call_->table_buffer =
        Halide::Runtime::Buffer<float>(call_->table.data(), K, int(call_->table.size() / size_t(K)));
    // Copied to the device on a CUDA plan's first call, then kept there.
    call_->table_buffer.set_host_dirty(true);
}

LinePlan::~LinePlan() = default;

void LinePlan::run(halide_buffer_t *input, halide_buffer_t *output) {
    if (input->dim[0].extent != length_ || output->dim[0].extent != length_ ||
        output->dim[1].extent != input->dim[1].extent)
        throw Error("the signal's length or channels differ from the plan's");
    PipelineCall call;
    call.buffer("input", input).buffer("output", output);
    if (!strips_) call.buffer("table", call_->table_buffer.raw_buffer());
    if (boundary_ != Boundary::none) call.scalar("extension", double(int(boundary_)));
    for (const auto &[name, value] : call_->scalars) call.scalar(name, value);
    call.run(*variant_);
}

void LinePlan::run_host(halide_buffer_t *input, halide_buffer_t *output) {
    run_on_host(variant_->device, [&] { run(input, output); }, {input}, {output});
}

void iir_line(const float *input, float *output, int64_t length, int channels, const RecursiveFilter &filter,
              int algorithm, DeviceChoice device, LineMethod method, Boundary boundary) {
    if (channels < 1) throw Error("the signal has no channels");
    LinePlan plan(filter, length, algorithm, resolve_device(device), method, boundary);
    // A pipeline buffer addresses at most 2 GiB: as many channels per call as fit.
    require_addressable("a channel", double(length), 1, 1, sizeof(float));
    const int64_t limit = (int64_t(1) << 31) - 1;
    const int per_call = int(std::min<int64_t>(channels, limit / (length * int64_t(sizeof(float)))));
    for (int first = 0; first < channels; first += per_call) {
        const int n = std::min(per_call, channels - first);
        const size_t offset = size_t(first) * size_t(length);
        Halide::Runtime::Buffer<float> in(const_cast<float *>(input) + offset, int(length), n);
        Halide::Runtime::Buffer<float> out(output + offset, int(length), n);
        plan.run_host(in.raw_buffer(), out.raw_buffer());
    }
}

bool line_strips_fit(const RecursiveFilter &filter, Boundary boundary, Device device) {
    return strips_variant(filter, 3, boundary != Boundary::none, device) != nullptr;
}

}  // namespace cascade
