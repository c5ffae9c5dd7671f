#include "funcs/table_tiles.h"

#include "schedules/sat_schedule.h"

namespace cascade::funcs {

using namespace Halide;

StagesPtr table_tiles(Func input, Func output, Expr width, Expr height, Type type, const TableChoice &choice,
                      const SatBoundary *boundary) {
    auto s = std::make_shared<Filtered::Stages>();
    s->view = output;
    SatTiledFuncs f =
        define_sat_tiled(input, width, height, output, type, choice.tile, choice.algorithm, boundary);
    if (choice.over_image) output.bound(f.x, 0, width).bound(f.y, 0, height);
    s->schedules.push_back([f, choice](const Target &t, Func) mutable {
        f.output.compute_root();
        if (t.has_gpu_feature()) {
            schedule_sat_tiled_cuda(f, choice.rows, choice.corner_in_block);
        } else {
            schedule_sat_tiled_cpu(f);
        }
    });
    return s;
}

}  // namespace cascade::funcs
