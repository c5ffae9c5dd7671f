#include "twoway_schedule.h"

namespace cascade {

using namespace Halide;

namespace {

// The scans of `step` with the RDom each runs over.
std::vector<std::pair<Func, RVar>> scans(const TwoWayStep &step) {
    std::vector<std::pair<Func, RVar>> result;
    for (const Func &f : step.inward) result.push_back({f, step.inward_scan.x});
    for (const Func &f : step.outward) result.push_back({f, step.outward_scan.x});
    return result;
}

}  // namespace

void schedule_two_way_cpu(TwoWayStep step, bool last, int states) {
    Var o = step.centre.args()[0], c = step.centre.args()[1], oo("oo"), oi("oi"), t("t"), u("u");
    RVar k = step.centre_taps.x;
    step.centre.compute_root().vectorize(o, 8, TailStrategy::GuardWithIf);
    step.centre.update()
        .split(o, oo, oi, 8, TailStrategy::GuardWithIf)
        .reorder(oi, k, oo, c)
        .vectorize(oi)
        .fuse(oo, c, t)
        .parallel(t);
    if (step.edge_states.defined()) {
        // Eight lines per vector, as the scans that read them.
        const auto a = step.edge_states.args();  // (k, side, o, c)
        RVar q = step.edge_samples.x;
        step.edge_states.compute_root().bound(a[0], 0, states).unroll(a[0]);
        step.edge_states.update()
            .split(a[2], oo, oi, 8, TailStrategy::GuardWithIf)
            .reorder(oi, a[0], q, oo, a[1], a[3])
            .unroll(a[0])
            .vectorize(oi)
            .fuse(oo, a[1], t)
            .fuse(t, a[3], u)
            .parallel(u);
    }
    for (auto [f, r] : scans(step)) {
        const auto args = f.args();  // (j, s, o, c)
        // Lines are contiguous in o, so eight neighbouring lines scan in lockstep as one vector.
        f.compute_root().reorder_storage(args[2], args[0], args[1], args[3]);
        f.update()
            .split(args[2], oo, oi, 8, TailStrategy::GuardWithIf)
            .reorder(oi, r, oo, args[1], args[3])
            .vectorize(oi)
            .fuse(oo, args[1], t)
            .fuse(t, args[3], u)
            .parallel(u);
    }
    const auto args = step.out.args();  // (x, y, c)
    if (!last) step.out.compute_root();
    step.out.vectorize(args[0], 8, TailStrategy::GuardWithIf).parallel(args[1]);
}

void schedule_two_way_centre_cuda(Func centre) {
    Var o = centre.args()[0], c = centre.args()[1], oo("oo"), oi("oi");
    centre.compute_root().gpu_tile(o, oo, oi, 64, TailStrategy::GuardWithIf);
    centre.update().split(o, oo, oi, 64, TailStrategy::GuardWithIf).gpu_blocks(oo, c).gpu_threads(oi);
}

void schedule_two_way_cuda(TwoWayStep step, bool last, int states) {
    Var oo("oo"), oi("oi");
    schedule_two_way_centre_cuda(step.centre);
    if (step.edge_states.defined()) {
        // One thread per half line, as the scans that read them.
        const auto a = step.edge_states.args();  // (k, side, o, c)
        RVar q = step.edge_samples.x;
        step.edge_states.compute_root()
            .bound(a[0], 0, states)
            .reorder(a[0], a[2], a[1], a[3])
            .split(a[2], oo, oi, 64, TailStrategy::GuardWithIf)
            .gpu_blocks(oo, a[1], a[3])
            .gpu_threads(oi)
            .unroll(a[0]);
        step.edge_states.update()
            .reorder(a[0], q, a[2], a[1], a[3])
            .split(a[2], oo, oi, 64, TailStrategy::GuardWithIf)
            .gpu_blocks(oo, a[1], a[3])
            .gpu_threads(oi)
            .unroll(a[0]);
    }
    for (auto [f, r] : scans(step)) {
        const auto args = f.args();  // (j, s, o, c)
        f.compute_root().reorder_storage(args[2], args[0], args[1], args[3]);
        // One thread per half line: the two halves of a line run in different blocks, at once.
        f.update()
            .split(args[2], oo, oi, 64, TailStrategy::GuardWithIf)
            .reorder(r, oi, oo, args[1], args[3])
            .gpu_blocks(oo, args[1], args[3])
            .gpu_threads(oi);
    }
    const auto args = step.out.args();  // (x, y, c)
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    if (!last) step.out.compute_root();
    step.out.tile(args[0], args[1], xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
        .gpu_blocks(xo, yo, args[2])
        .gpu_threads(xi, yi);
}

}  // namespace cascade
