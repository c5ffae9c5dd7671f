// Algorithm RT for a separable causal–anticausal recursive filter: sequential passes (down, up,
// right, left), each parallel across the other dimension. The coefficients are run-time inputs.
//
// Two forms of each 1D filter:
// - direct (sections = 0): one pass of order r = feedback.size() per direction;
// - cascaded sections (sections = S): S passes of order ≤ 2 per direction, section j taking
//   feedback[2j], feedback[2j+1] and the gain applied by section 0. In float32 the direct form
//   of order ≥ 3 loses accuracy (coefficient rounding moves clustered poles, and rounding of the
//   state is amplified); first- and second-order sections stay within ~1e-6 of the exact result.
//
// With `exact` the image's edges are exact for any extension (algebra/boundary.h): each
// dimension's passes run with zero feedbacks, and what the exact feedbacks add is added near the
// ends of each line, to a copy (columns) and to the output (rows): one more elementwise pass per
// dimension, cheap beside RT's serial scans.
//
// `passes` runs part of the filter (include/cascade/iir.h, cascade::Passes): one dimension's
// passes (`columns`, `rows`) or one direction's in both dimensions (`causal`, `anticausal`, with
// boundary none only): the stages of the per-dimension and per-direction decompositions
// (runtime/realisation.h).
#include <stdexcept>

#include "algebra/boundary.h"
#include "algebra/recursive_filter.h"
#include "schedules/boundary_schedule.h"
#include "schedules/rt_schedule.h"

namespace {

using namespace Halide;
using cascade::Coefficients;
using cascade::Dim;
using cascade::Pass;

class IirRt : public Generator<IirRt> {
public:
    GeneratorParam<int> sections{"sections", 0, 0, 16};
    GeneratorParam<bool> exact{"exact", false};
    // With `exact`: filter about the image's level (algebra/boundary.h), for poles near 1.
    GeneratorParam<bool> level{"level", false};
    // With `exact`: the run-time margin of algebra/boundary.h (Deriche's zero and clamp).
    GeneratorParam<bool> margin{"margin", false};
    GeneratorParam<std::string> part{"passes", "all"};  // all, columns, rows, causal, anticausal
    // Schedule knobs a tuning manifest may set (docs/tuning.md, schedules/rt_schedule.h): the CPU's
    // vector width and vectors of lines per parallel task, the GPU's threads (lines) per block.
    GeneratorParam<int> vector{"vector", 8, 1, 64};
    GeneratorParam<int> grain{"grain", 1, 1, 64};
    GeneratorParam<int> block{"block", 64, 1, 1024};

    Input<Buffer<float>> input{"input", 3};
    Input<float> gain_y{"gain_y"};
    Input<float[]> feedback_y{"feedback_y"};
    Input<float> gain_x{"gain_x"};
    Input<float[]> feedback_x{"feedback_x"};
    Output<Buffer<float>> output{"output", 3};

    // With `exact`: boundary_{y,x}_{matrix,start,end}, the tables of runtime/design/boundary_tables.h, with
    // `margin` the margin's inputs and with `level` level_gain.
    void configure() {
        if (!exact) return;
        if (level) level_gain = add_input<float>(cascade::kLevelGainInput);
        if (margin) {
            margin_size = add_input<int>(cascade::kMarginInput);
            margin_clamped = add_input<bool>(cascade::kMarginClampedInput);
        }
        for (const std::string &name : cascade::boundary_input_names())
            boundary_inputs.push_back(add_input<Buffer<float>>(name, 2));
    }

    void generate() {
        std::vector<Coefficients> vertical = filters(gain_y, feedback_y);
        std::vector<Coefficients> horizontal = filters(gain_x, feedback_x);
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();

        std::vector<Pass> passes;
        Func current = input;
        if (margin_size) {
            const cascade::WithMargin image =
                cascade::with_margin(input, Float(32), width, height, *margin_size, *margin_clamped);
            current = image.samples;
            width = image.width;
            height = image.height;
        }
        // With `level` the passes filter the image about its level (algebra/boundary.h), and
        // the last correction adds the level's response back.
        Func image_level, restored("restored");
        if (exact && level) {
            Var x, y, c;
            image_level = cascade::image_level(current, width, height);
            Func centered("centered");
            centered(x, y, c) = current(x, y, c) - image_level(c);
            current = centered;
            restored(c) = image_level(c) * *level_gain;
        }
        auto add = [&](bool is_causal, const Coefficients &k, Dim dim, Expr extent, bool last) {
            std::string name =
                std::string(dim == Dim::y ? (is_causal ? "down" : "up") : (is_causal ? "right" : "left")) +
                "_" + std::to_string(passes.size());
            Func out = last && !exact ? Func(output) : Func(name);
            passes.push_back(is_causal ? cascade::causal(out, current, k, dim, extent)
                                       : cascade::anticausal(out, current, k, dim, extent));
            current = passes.back().func;
        };
        // One dimension's passes, causal then anticausal (either may be left out); with `exact`,
        // `current` then reads them corrected.
        std::vector<Func> feedbacks;
        std::vector<cascade::CorrectedLines> corrections;
        auto add_dimension = [&](const std::vector<Coefficients> &filters, Dim dim, Expr extent, bool last,
                                 bool with_causal, bool with_anticausal) {
            Func line_input = current;
            const size_t first = passes.size();
            for (size_t j = 0; with_causal && j < filters.size(); j++)
                add(true, filters[j], dim, extent, last && !with_anticausal && j + 1 == filters.size());
            for (size_t j = 0; with_anticausal && j < filters.size(); j++)
                add(false, filters[j], dim, extent, last && j + 1 == filters.size());
            if (!exact) return;
            std::vector<Func> causal, anticausal;
            for (size_t j = 0; j < filters.size(); j++) {
                causal.push_back(passes[first + j].func);
                anticausal.push_back(passes[first + filters.size() + j].func);
            }
            const int q = filters[0].order(), K = int(filters.size()) * q;
            const cascade::BoundaryInputs tables = boundary_tables(dim == Dim::y ? 0 : 3, K);
            Func f = cascade::exact_feedbacks(dim == Dim::y ? "feedbacks_y" : "feedbacks_x", causal,
                                              anticausal, line_input, dim, extent, q, tables);
            feedbacks.push_back(f);
            corrections.push_back(
                cascade::add_boundary_correction(last ? Func(output) : Func("exact_columns"), current, f,
                                                 tables, K, dim, extent, last && level ? restored : Func()));
            current = corrections.back().func;
        };
        const std::string which = part;
        const bool one_direction = which == "causal" || which == "anticausal";
        if (which != "all" && which != "columns" && which != "rows" && !one_direction)
            throw std::invalid_argument("passes must be all, columns, rows, causal or anticausal, not " +
                                        which);
        // The exact corrections come from both directions' feedbacks together.
        if (exact && one_direction)
            throw std::invalid_argument("passes " + which + " take boundary none (exact=false)");
        const bool with_causal = which != "anticausal", with_anticausal = which != "causal";
        if (which != "rows")
            add_dimension(vertical, Dim::y, height, which == "columns", with_causal, with_anticausal);
        if (which != "columns") add_dimension(horizontal, Dim::x, width, true, with_causal, with_anticausal);

        if (auto_schedule) {
            // A Halide autoscheduler (Li 2018, Adams 2019) schedules the pipeline instead: a
            // baseline of what generic tuning reaches (docs/tuning.md). Its estimates: one 1024²
            // plane, a smooth filter, the boundary tables. Its splits shift inwards,
            // so that the variant runs on images at least that large only (the runtime reads the
            // estimates from the metadata and refuses smaller ones).
            set_estimates(vertical, horizontal);
        } else if (get_target().has_gpu_feature()) {
            cascade::schedule_rt_cuda(passes, feedbacks, corrections, output, block);
            if (exact && level) cascade::schedule_level_cuda(image_level);
        } else {
            cascade::schedule_rt_cpu(passes, feedbacks, corrections, output, vector, grain);
            if (exact && level) cascade::schedule_level_cpu(image_level);
        }
    }

private:
    void set_estimates(const std::vector<Coefficients> &vertical,
                       const std::vector<Coefficients> &horizontal) {
        const int size = 1024;
        input.set_estimates({{0, size}, {0, size}, {0, 1}});
        output.set_estimates({{0, size}, {0, size}, {0, 1}});
        gain_y.set_estimate(0.1f);
        gain_x.set_estimate(0.1f);
        for (size_t j = 0; j < feedback_y.size(); j++) feedback_y.set_estimate(j, -0.3f);
        for (size_t j = 0; j < feedback_x.size(); j++) feedback_x.set_estimate(j, -0.3f);
        if (level_gain) level_gain->set_estimate(1.0f);
        if (margin_size) margin_size->set_estimate(0);
        if (margin_clamped) margin_clamped->set_estimate(false);
        for (size_t first = 0; first < boundary_inputs.size(); first += 3) {
            const std::vector<Coefficients> &k = first == 0 ? vertical : horizontal;
            const int K = int(k.size()) * k[0].order();
            boundary_inputs[first]->set_estimates({{0, 2 * K + 2}, {0, 2 * K}});
            // The tables' rows (the border's length) depend on the filter: estimated as one, so
            // that no split assumes more (quintic B-spline: 28 on the H100, Li 2018 split by 64).
            boundary_inputs[first + 1]->set_estimates({{0, K}, {0, 1}});
            boundary_inputs[first + 2]->set_estimates({{0, K}, {0, 1}});
        }
    }

    Input<float> *level_gain = nullptr;
    Input<int> *margin_size = nullptr;
    Input<bool> *margin_clamped = nullptr;
    std::vector<Input<Buffer<float>> *> boundary_inputs;

    // The tables of one dimension of state size K, from boundary_inputs[first…first + 2]; tables
    // for another K are refused, not misread.
    cascade::BoundaryInputs boundary_tables(int first, int K) {
        Input<Buffer<float>> &matrix = *boundary_inputs[first], &start = *boundary_inputs[first + 1],
                             &end = *boundary_inputs[first + 2];
        matrix.dim(0).set_bounds(0, 2 * K + 2).dim(1).set_bounds(0, 2 * K);
        start.dim(0).set_bounds(0, K).dim(1).set_min(0);
        end.dim(0).set_bounds(0, K).dim(1).set_min(0);
        return {matrix, start, end, start.dim(1).extent(), end.dim(1).extent()};
    }

    // The passes of one direction: a single direct-form filter, or the cascade of sections.
    std::vector<Coefficients> filters(Input<float> &gain, Input<float[]> &feedback) {
        std::vector<Coefficients> result;
        if (sections == 0) {
            Coefficients k{gain, {}};
            for (size_t j = 0; j < feedback.size(); j++) k.a.push_back(feedback[j]);
            result.push_back(k);
        } else {
            for (int s = 0; s < sections; s++)
                result.push_back({s == 0 ? Expr(gain) : Expr(1.0f), {feedback[2 * s], feedback[2 * s + 1]}});
        }
        return result;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirRt, iir_rt)
