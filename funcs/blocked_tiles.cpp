#include "funcs/blocked_tiles.h"

#include <stdexcept>

#include "algebra/iir_blocked.h"
#include "schedules/blocked_schedule.h"

namespace cascade::funcs {

using namespace Halide;

StagesPtr tiles(Func input, Func output, Expr width, Expr height, const SectionCascade &vertical,
                const SectionCascade &horizontal, Func down, Func across, const ExactEdges *edges,
                const TileChoice &choice, const Target &target) {
    auto s = std::make_shared<Filtered::Stages>();
    s->view = output;
    if (choice.algorithm == 2) {
        if (edges) throw std::invalid_argument("algorithm 2 takes boundary none");
        IirBlockedFuncs f = define_iir_blocked(input, width, height, output, vertical, horizontal, down,
                                               across, choice.tile, choice.output_type);
        s->schedules.push_back([f, choice](const Target &t, Func) mutable {
            f.output.compute_root();
            if (t.has_gpu_feature()) {
                schedule_iir_blocked_cuda(f, choice.rows);
            } else {
                schedule_iir_blocked_cpu(f);
            }
        });
        return s;
    }
    IirTiledFuncs f = define_iir_tiled(
        input, width, height, output, vertical, horizontal, down, across, choice.tile, choice.algorithm,
        edges, choice.output_type,
        rows_in_registers(choice.scan, edges != nullptr, choice.tile, horizontal.state(), target),
        carry_form(choice.carries, target));
    if (f.full.defined() && choice.output_full) f.output_full = choice.output_full(f.full);
    if (choice.over_image) f.output.bound(f.x, 0, width).bound(f.y, 0, height);
    s->schedules.push_back([f, choice](const Target &t, Func) mutable {
        f.output.compute_root();
        if (t.has_gpu_feature()) {
            schedule_iir_tiled_cuda(f, choice.rows, choice.carries);
        } else {
            schedule_iir_tiled_cpu(f, choice.lanes ? choice.lanes : t.natural_vector_size(Float(32)));
        }
    });
    return s;
}

}  // namespace cascade::funcs
