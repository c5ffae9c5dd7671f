// One stage of Kasagi et al.'s 1R1W summed-area table: the tiles of one anti-diagonal, each
// finished from the table's values above and left of it, which earlier stages wrote. The runtime
// (runtime/sat_one_read.cpp) walks the diagonals and passes each stage strided views of the
// image and the table, so every sample is read once and written once.
#include <Halide.h>

namespace {

using namespace Halide;

template <typename Table>
class SatStage : public Generator<SatStage<Table>> {
public:
    GeneratorParam<int> rows{"rows", 4};  // GPU: tile rows moved per pass

    GeneratorInput<Buffer<>> input{"input", 4};          // (xi, yi, t, c): tile t of the stage
    GeneratorInput<Buffer<Table>> top{"top", 3};         // (xi, t, c): the table just above tile t
    GeneratorInput<Buffer<Table>> left{"left", 3};       // (yi, t, c): the table just left of it
    GeneratorInput<Buffer<Table>> corner{"corner", 2};   // (t, c): the table above-left of it
    GeneratorOutput<Buffer<Table>> output{"output", 4};  // (xi, yi, t, c): the finished tile

    void generate() {
        Var xi("xi"), yi("yi"), t("t"), c("c");
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();
        Func local("local");
        local(xi, yi, t, c) = cast(output.type(), input(xi, yi, t, c));
        RDom down(1, max(height - 1, 0), "down"), across(1, max(width - 1, 0), "across");
        local(xi, down, t, c) += local(xi, down - 1, t, c);
        local(across, yi, t, c) += local(across - 1, yi, t, c);
        // Inclusion–exclusion: V = local table + V above + V left − V above-left. Each stage
        // inherits the rounding of the tiles before it along the wavefront, so floats combine in
        // double, the small terms first: one rounding per stage (8192²: 2.1e-6 relative L2 in
        // float, left to right).
        const Type wide = output.type().is_float() ? Float(64) : output.type();
        Expr sum = (cast(wide, left(yi, t, c)) - cast(wide, corner(t, c)) + cast(wide, local(xi, yi, t, c))) +
                   cast(wide, top(xi, t, c));
        output(xi, yi, t, c) = cast(output.type(), sum);
        // The edges are strided views into the table (a column, a diagonal of corners) or one
        // zero seen with stride 0: none is dense.
        top.dim(0).set_stride(Expr());
        left.dim(0).set_stride(Expr());
        corner.dim(0).set_stride(Expr());

        if (this->get_target().has_gpu_feature()) {
            Var yo("yo"), yr("yr");
            output.split(yi, yo, yr, rows, TailStrategy::GuardWithIf)
                .reorder(yo, xi, yr, t, c)
                .gpu_blocks(t, c)
                .gpu_threads(xi, yr);
            local.compute_at(output, t)
                .split(yi, yo, yr, rows, TailStrategy::GuardWithIf)
                .reorder(yo, xi, yr)
                .gpu_threads(xi, yr);
            local.update(0).reorder(down.x, xi).gpu_threads(xi);
            local.update(1).reorder(across.x, yi).gpu_threads(yi);
        } else {
            output.parallel(t).vectorize(xi, 8, TailStrategy::GuardWithIf);
            local.compute_at(output, t).vectorize(xi, 8, TailStrategy::GuardWithIf);
            local.update(0).reorder(xi, down.x).vectorize(xi, 8, TailStrategy::GuardWithIf);
            local.update(1).reorder(yi, across.x).vectorize(yi, 8, TailStrategy::GuardWithIf);
        }
    }
};

}  // namespace

using SatStageF32 = SatStage<float>;
using SatStageU32 = SatStage<uint32_t>;
using SatStageU64 = SatStage<uint64_t>;
HALIDE_REGISTER_GENERATOR(SatStageF32, sat_stage_float32)
HALIDE_REGISTER_GENERATOR(SatStageU32, sat_stage_uint32)
HALIDE_REGISTER_GENERATOR(SatStageU64, sat_stage_uint64)
