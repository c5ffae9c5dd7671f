// Block-parallel causal–anticausal 2D recursive filters: algorithms 4, 5 and 6
// (algebra/iir_tiled.h) and 2 (algebra/iir_blocked.h, boundary none). The coefficients and the
// per-dimension matrix tables are run-time inputs, of the working type (float64 for float64 samples,
// float32 for the others: algebra/samples.h); the section count and order, the sample type, the
// algorithm and the tile size are build parameters.
//   sections = 0: one direct-form section of order feedback.size() per direction;
//   sections = S: S sections of order 2 (a_1, a_2 each), the gain on the first.
#include <stdexcept>

#include "algebra/boundary.h"
#include "algebra/samples.h"
#include "funcs/blocked_tiles.h"

namespace {

using namespace Halide;

class IirTiled : public Generator<IirTiled> {
public:
    GeneratorParam<int> algorithm{"algorithm", 6};
    GeneratorParam<int> sections{"sections", 0, 0, 16};
    GeneratorParam<int> tile{"tile", 64};
    GeneratorParam<int> rows{"rows", 4};         // GPU: tile rows loaded per pass, threads = tile × rows
    GeneratorParam<bool> exact{"exact", false};  // exact boundaries: the tables below are inputs
    // With `exact`: filter about the image's level (algebra/boundary.h), for poles near 1.
    GeneratorParam<bool> level{"level", false};
    // With `exact`: the run-time margin of algebra/boundary.h (Deriche's zero and clamp).
    GeneratorParam<bool> margin{"margin", false};
    // Schedule knobs a tuning manifest may set (docs/tuning.md), algorithms 4, 5, 6:
    // `scan` (GPU, 5 and 6): the first pass's rows scanned in registers or in shared memory;
    // `carries` (GPU): where the carries are completed (both schedules/tiled_schedule.h);
    // `vector` (CPU): the vector width.
    GeneratorParam<std::string> scan{"scan", "auto"};  // auto, registers, shared
    GeneratorParam<std::string> carries{"carries", "auto"};
    GeneratorParam<int> vector{"vector", cascade::kCpuLanes, 1, 64};
    GeneratorParam<Type> samples{"samples", Float(32)};  // float32, float64, uint8 or uint16
    // The feedback coefficients a dimension holds: the order, or 2 per section.
    GeneratorParam<int> coefficients{"coefficients", 1, 1, 32};

    // input and output (W×H×C samples); gain_{y,x}, feedback_{y,x}_k; vertical and horizontal,
    // the tables of tiled_layout.h down the columns and along the rows. With `exact`:
    // boundary_{y,x}_{matrix,start,end}, the tables of iir_tiled.h (TiledEdges), with `margin` the
    // margin's inputs and with `level` level_gain.
    void configure() {
        const Type working = cascade::working_type(samples);
        input = add_input<Buffer<>>("input", samples, 3);
        for (const char *axis : {"y", "x"}) {
            gains.push_back(add_input<Expr>(std::string("gain_") + axis, working));
            feedbacks.emplace_back();
            for (int k = 0; k < coefficients; k++)
                feedbacks.back().push_back(
                    add_input<Expr>(std::string("feedback_") + axis + "_" + std::to_string(k), working));
        }
        vertical = add_input<Buffer<>>("vertical", working, 2);
        horizontal = add_input<Buffer<>>("horizontal", working, 2);
        if (exact) {
            if (level) level_gain = add_input<Expr>(cascade::kLevelGainInput, working);
            if (margin) {
                margin_size = add_input<int>(cascade::kMarginInput);
                margin_clamped = add_input<bool>(cascade::kMarginClampedInput);
            }
            for (const std::string &name : cascade::boundary_input_names())
                boundary_inputs.push_back(add_input<Buffer<>>(name, working, 2));
        }
        output = add_output<Buffer<>>("output", samples, 3);
    }

    void generate() {
        Input<Buffer<>> &input = *this->input;
        Output<Buffer<>> &output = *this->output;
        const cascade::SectionCascade down = cascade_of(0), across = cascade_of(1);
        cascade::funcs::TileChoice choice;
        choice.tile = tile;
        choice.algorithm = algorithm;
        choice.rows = rows;
        choice.scan = cascade::parse_scan_style(scan);
        choice.carries = cascade::parse_carry_kernels(carries);
        choice.lanes = vector;
        choice.output_type = output.type();
        choice.output_full = [&](Expr full) {
            return full && output.dim(0).extent() % tile == 0 && output.dim(1).extent() % tile == 0;
        };
        if (algorithm == 2 &&
            (choice.scan != cascade::ScanStyle::automatic ||
             choice.carries != cascade::CarryKernels::automatic || vector != cascade::kCpuLanes))
            throw std::invalid_argument("the scan, carries and vector knobs apply to algorithms 4, 5 and 6");
        cascade::ExactEdges edges;
        if (exact)
            edges = {edges_of(0, down.state()), edges_of(3, across.state()),
                     level ? Expr(*level_gain) : Expr()};
        Func source = input;
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();
        if (margin_size) {
            const cascade::WithMargin m =
                cascade::with_margin(input, input.type(), width, height, *margin_size, *margin_clamped);
            source = m.repeated;
            width = m.width;
            height = m.height;
            edges.margin = m;
        }
        const cascade::funcs::Filtered filtered(
            cascade::funcs::tiles(source, output, width, height, down, across, *vertical, *horizontal,
                                  exact ? &edges : nullptr, choice, get_target()));
        set_bounds(down.state());
        filtered.schedule(get_target());
    }

private:
    Input<Buffer<>> *input = nullptr, *vertical = nullptr, *horizontal = nullptr;
    Output<Buffer<>> *output = nullptr;
    std::vector<Input<Expr> *> gains;
    std::vector<std::vector<Input<Expr> *>> feedbacks;
    Input<Expr> *level_gain = nullptr;
    Input<int> *margin_size = nullptr;
    Input<bool> *margin_clamped = nullptr;

    void set_bounds(int state) {
        Input<Buffer<>> &input = *this->input, &vertical = *this->vertical, &horizontal = *this->horizontal;
        Output<Buffer<>> &output = *this->output;
        for (int d = 0; d < 2; d++) {
            input.dim(d).set_min(0);
            output.dim(d).set_min(0);
            vertical.dim(d).set_min(0);
            horizontal.dim(d).set_min(0);
        }
        // Tables built for another tile size or state size are refused, not misread.
        const int table_rows = cascade::TiledLayout{tile, state}.rows();
        vertical.dim(0).set_extent(tile).dim(1).set_extent(table_rows);
        horizontal.dim(0).set_extent(tile).dim(1).set_extent(table_rows);
    }
    std::vector<Input<Buffer<>> *> boundary_inputs;

    // One dimension's tables, from boundary_inputs[first…first + 2], for state size K; tables for
    // another K are refused, not misread.
    cascade::TiledEdges edges_of(int first, int K) {
        Input<Buffer<>> &matrix = *boundary_inputs[first], &start = *boundary_inputs[first + 1],
                        &end = *boundary_inputs[first + 2];
        matrix.dim(0).set_bounds(0, 2 * K + 2).dim(1).set_bounds(0, 2 * K);
        start.dim(0).set_bounds(0, 2 * K).dim(1).set_min(0);
        end.dim(0).set_bounds(0, K).dim(1).set_min(0);
        return {matrix, start, end, start.dim(1).extent() / K, end.dim(1).extent() / K, true};
    }

    // Dimension d's (0: down the columns, 1: along the rows) coefficients as sections.
    cascade::SectionCascade cascade_of(int d) {
        const std::vector<Input<Expr> *> &feedback = feedbacks[d];
        cascade::SectionCascade f{Expr(*gains[d]), {}};
        const int q = sections == 0 ? int(feedback.size()) : 2;
        for (size_t j = 0; j < feedback.size(); j += q) {
            std::vector<Expr> a;
            for (int k = 0; k < q; k++) a.push_back(Expr(*feedback[j + k]));
            f.feedback.push_back(a);
        }
        return f;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirTiled, iir_tiled)
