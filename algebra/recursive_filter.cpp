#include "recursive_filter.h"

#include "earlier_output.h"
#include "feedback_term.h"

namespace cascade {

using namespace Halide;

namespace {

// The arguments of `f` with the scanned dimension replaced by `position`.
std::vector<Expr> at(const Func &f, Dim dim, Expr position) {
    std::vector<Expr> args;
    for (const Var &v : f.args()) args.push_back(v);
    args[int(dim)] = position;
    return args;
}

// Shared body of both directions: step = −1 looks back (causal), +1 looks ahead (anticausal).
Pass recursive_pass(Func out, Func in, const Coefficients &k, Dim dim, Expr extent, int step) {
    const std::string name = out.name();
    Var x("x"), y("y"), c("c");
    // Every sample is written by the scan; the pure definition only names the dimensions.
    out(x, y, c) = undef<float>();
    RDom i(0, extent, name + "_i");
    Expr position = step < 0 ? Expr(i.x) : extent - 1 - i.x;
    Expr value = k.b0 * in(at(out, dim, position));
    for (int j = k.order(); j >= 1; j--) {
        Expr neighbour = position + step * j;
        Expr inside = step < 0 ? neighbour >= 0 : neighbour < extent;
        // The clamp keeps the footprint inside [0, extent); outside it, the feedback is zero.
        Expr clamped = clamp(neighbour, 0, extent - 1);
        value += feedback_term(k.a[j - 1], earlier_output(inside, out(at(out, dim, clamped))));
    }
    out(at(out, dim, position)) = value;
    return Pass{out, i, dim};
}

}  // namespace

Pass prefix_sum(Func out, Func in, Dim dim, Expr extent) {
    Var x("x"), y("y"), c("c");
    const Type type = in.output_types()[0];
    out(x, y, c) = undef(type);
    RDom i(0, extent, out.name() + "_i");
    Expr previous = out(at(out, dim, max(i.x - 1, 0)));
    out(at(out, dim, i.x)) = in(at(out, dim, i.x)) + earlier_output(i.x > 0, previous);
    return Pass{out, i, dim};
}

Pass causal(Func out, Func in, const Coefficients &k, Dim dim, Expr extent) {
    return recursive_pass(out, in, k, dim, extent, -1);
}

Pass anticausal(Func out, Func in, const Coefficients &k, Dim dim, Expr extent) {
    return recursive_pass(out, in, k, dim, extent, +1);
}

}  // namespace cascade
