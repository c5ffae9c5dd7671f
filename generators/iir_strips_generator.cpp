// Row strips with overlapped column windows (algebra/iir_strips.h): the CPU's realisation of a
// separable causal–anticausal filter, boundary none or (exact) any extension, on float32 or
// float64 samples (computed in their own type). The coefficients and the overlaps are run-time
// inputs (runtime/strips.h chooses the overlaps and the strips' height); the section count is a
// build parameter. sections = S: S sections of order 2 (feedback_{y,x}_{2s, 2s+1}), the gain on
// the first. passes = columns: the vertical filter alone (no x coefficients, no row_overlap), for
// the axes of volumes that are not their last.
#include <stdexcept>
#include <string>

#include "algebra/boundary.h"
#include "funcs/blocked_strips.h"

namespace {

using namespace Halide;
using cascade::Coefficients;

class IirStrips : public Generator<IirStrips> {
public:
    GeneratorParam<int> sections{"sections", 1, 1, 16};
    GeneratorParam<Type> samples{"samples", Float(32)};  // float32, float64
    // Exact boundaries: the run-time `extension` (include/cascade/boundary.h's Boundary, not none)
    // and `row_overlap`, the columns the row passes reach past each end of a row.
    GeneratorParam<bool> exact{"exact", false};
    // With exact: filtered about the image's level, `level_gain` the filter's response to 1.
    GeneratorParam<bool> level{"level", false};
    GeneratorParam<std::string> passes{"passes", "all"};  // all, columns

    void configure() {
        const Type type = samples;
        if (type != Float(32) && type != Float(64))
            throw std::invalid_argument("samples are float32 or float64");
        if (level && !exact) throw std::invalid_argument("level takes exact");
        if (std::string(passes) != "all" && !columns_only())
            throw std::invalid_argument("passes are all or columns");
        const bool columns = columns_only();
        input = add_input<Buffer<>>("input", type, 3);
        for (const char *axis : {"y", "x"}) {
            if (columns && std::string(axis) == "x") break;
            gains.push_back(add_input<Expr>(std::string("gain_") + axis, type));
            feedbacks.emplace_back();
            for (int k = 0; k < 2 * sections; k++)
                feedbacks.back().push_back(
                    add_input<Expr>(std::string("feedback_") + axis + "_" + std::to_string(k), type));
        }
        overlap = add_input<int>("overlap");
        strip = add_input<int>("strip");  // rows per strip, a power of two ≥ 64 (runtime/strips.h)
        if (exact) {
            extension = add_input<int>("extension");
            if (!columns) row_overlap = add_input<int>("row_overlap");
        }
        if (level) level_gain = add_input<Expr>(cascade::kLevelGainInput, type);
        output = add_output<Buffer<>>("output", type, 3);
    }

    void generate() {
        if (get_target().has_gpu_feature()) throw std::invalid_argument("iir_strips is a CPU realisation");
        Input<Buffer<>> &in = *input;
        std::optional<cascade::StripsExtension> extended;
        const bool columns = columns_only();
        if (exact)
            extended = cascade::StripsExtension{*extension, columns ? Expr(0) : Expr(*row_overlap),
                                                level ? Expr(*level_gain) : Expr()};
        const cascade::funcs::Filtered filtered(cascade::funcs::strips(
            in, *output, in.dim(0).extent(), in.dim(1).extent(), filters(0),
            columns ? std::vector<Coefficients>{} : filters(1), *overlap, *strip, extended, samples));
        filtered.schedule(get_target());
    }

private:
    Input<Buffer<>> *input = nullptr;

    bool columns_only() const { return std::string(passes) == "columns"; }
    Output<Buffer<>> *output = nullptr;
    std::vector<Input<Expr> *> gains;
    std::vector<std::vector<Input<Expr> *>> feedbacks;
    Input<int> *overlap = nullptr, *strip = nullptr, *extension = nullptr, *row_overlap = nullptr;
    Input<Expr> *level_gain = nullptr;

    // Dimension d's (0: down the columns, 1: along the rows) sections.
    std::vector<Coefficients> filters(int d) {
        const Type type = samples;
        std::vector<Coefficients> result;
        for (int s = 0; s < sections; s++)
            result.push_back({s == 0 ? Expr(*gains[d]) : Internal::make_one(type),
                              {Expr(*feedbacks[d][2 * s]), Expr(*feedbacks[d][2 * s + 1])}});
        return result;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirStrips, iir_strips)
