// Lee et al. 2014's two-way partitioned recursive Gaussian (algebra/twoway.h): down the
// columns, then along the rows, each line split at its centre. The recursion is a cascade of
// unit-gain sections (van Vliet's Gaussian in the runtime) and the centre points' Gaussian a
// sampled kernel, both run-time inputs.
#include <optional>

#include "algebra/twoway.h"
#include "algebra/twoway_tiled.h"
#include "schedules/twoway_schedule.h"
#include "schedules/twoway_tiled_schedule.h"

namespace {

using namespace Halide;
using cascade::Dim;

class TwoWayGaussian : public Generator<TwoWayGaussian> {
public:
    GeneratorParam<int> sections{"sections", 2, 1, 8};
    // Exact boundaries (algebra/twoway.h, TwoWayEdges): the extension and, per dimension, the
    // weights giving each half's first-pass states past the line's end.
    GeneratorParam<bool> exact{"exact", false};
    // Samples per block of the GPU's block-parallel form (algebra/twoway_tiled.h).
    GeneratorParam<int> block{"block", 32, 8, 128};
    // The last section is first order (its a2 is not read): van Vliet's real pole, whose one state
    // is all the GPU's carries keep of it (algebra/twoway_tiled.h).
    GeneratorParam<bool> first_order_last{"first_order_last", false};

    Input<Buffer<float>> input{"input", 3};
    Input<Buffer<float>> coefficients{"coefficients", 2};  // (k, n): gain, a1, a2 of section n
    Input<Buffer<float>> kernel{"kernel", 1};              // 2K+1 taps of the centre points' Gaussian
    Output<Buffer<float>> output{"output", 3};

    Input<int> *extension = nullptr, *near_y = nullptr, *near_x = nullptr;
    Input<Buffer<float>> *edges_y = nullptr, *edges_x = nullptr;

    void configure() {
        if (!exact) return;
        extension = add_input<int>("extension");
        edges_y = add_input<Buffer<float>>("edges_y", 3);
        near_y = add_input<int>("near_y");
        edges_x = add_input<Buffer<float>>("edges_x", 3);
        near_x = add_input<int>("near_x");
    }

    void generate() {
        std::vector<cascade::TwoWaySection> q;
        for (int n = 0; n < sections; n++) {
            const bool first_order = first_order_last && n == sections - 1;
            q.push_back(
                {coefficients(0, n), coefficients(1, n), first_order ? Expr(0.0f) : coefficients(2, n)});
        }
        coefficients.dim(0).set_bounds(0, 3);
        coefficients.dim(1).set_bounds(0, sections);
        kernel.dim(0).set_min(0);
        Expr radius = (kernel.dim(0).extent() - 1) / 2;
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();

        std::optional<cascade::TwoWayEdges> edges_down, edges_across;
        if (exact) {
            auto edges = [&](Input<Buffer<float>> *weights, Input<int> *near) {
                (*weights).dim(0).set_min(0);
                (*weights).dim(1).set_bounds(0, 2 * sections);
                (*weights).dim(2).set_bounds(0, 2);
                return cascade::TwoWayEdges{*weights, (*weights).dim(0).extent(), *near, *extension};
            };
            edges_down = edges(edges_y, near_y);
            edges_across = edges(edges_x, near_x);
        }
        Func columns("columns");
        if (get_target().has_gpu_feature() && !exact) {
            // Block-parallel on the GPU (algebra/twoway_tiled.h).
            const int b = block;
            auto matrices = cascade::two_way_block_matrices("twoway", q, b);
            auto down = cascade::two_way_tiled_step(columns, input, Dim::y, height, width, q, kernel, radius,
                                                    matrices, b);
            auto across = cascade::two_way_tiled_step(output, columns, Dim::x, width, height, q, kernel,
                                                      radius, matrices, b, true);
            cascade::schedule_two_way_block_matrices_cuda(matrices);
            cascade::schedule_two_way_tiled_cuda(down, false);
            cascade::schedule_two_way_tiled_cuda(across, true);
            return;
        }
        auto down = cascade::two_way_step(columns, input, Dim::y, height, q, kernel, radius,
                                          edges_down ? &*edges_down : nullptr);
        auto across = cascade::two_way_step(output, columns, Dim::x, width, q, kernel, radius,
                                            edges_across ? &*edges_across : nullptr);
        const int states = 2 * sections;
        if (get_target().has_gpu_feature()) {
            cascade::schedule_two_way_cuda(down, false, states);
            cascade::schedule_two_way_cuda(across, true, states);
        } else {
            cascade::schedule_two_way_cpu(down, false, states);
            cascade::schedule_two_way_cpu(across, true, states);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(TwoWayGaussian, twoway)
