#pragma once
#include <Halide.h>

#include <functional>
#include <vector>

#include "algebra/earlier_output.h"
#include "algebra/recursive_filter.h"

namespace cascade {

// One step of a scan in place that computes `lanes` consecutive outputs at once, `lane` the
// block's lane (a vector across the block where the step is vectorised). A causal block at
// samples n0 … n0 + L − 1 is
//     y[n0 + k] = Σ_{j ≤ k} h[k − j] · x[n0 + j] + Σ_d s_d[k] · y[n0 − d],
// h the section's impulse response and s_d[k] its response at k to a 1 left d samples before the
// block; an anticausal block the mirror image, its state after the block. So a block waits on the
// previous block's last outputs once, and its samples are a matrix–vector product across lanes:
// the recursion vectorised along the line itself, which needs no other line in lockstep.
// `in(j)` reads the block's input j (0 … lanes − 1), `state(d)` the output d samples before
// (causal) or after (anticausal) the block, read only where `exists(d)` holds (else zero).
inline Halide::Expr block_step(const Coefficients &k, int lanes, bool causal, Halide::Expr lane,
                               const std::function<Halide::Expr(int)> &in,
                               const std::function<Halide::Expr(int)> &state,
                               const std::function<Halide::Expr(int)> &exists) {
    using namespace Halide;
    const Type t = k.b0.type();
    const Expr zero = Internal::make_zero(t), one = Internal::make_one(t);
    const int r = k.order();
    // The recursion's own steps from samples `before` (before[i] holds y[−1 − i]), zero input.
    auto run = [&](std::vector<Expr> y, Expr first) {
        std::vector<Expr> out;
        for (int n = 0; n < lanes; n++) {
            Expr v = n == 0 ? first : zero;
            for (int e = 1; e <= r; e++) v += -k.a[e - 1] * y[e - 1];
            v = Internal::simplify(v);
            out.push_back(v);
            y.insert(y.begin(), v);
        }
        return out;
    };
    const std::vector<Expr> h = run(std::vector<Expr>(r, zero), k.b0);
    // The value of lane `lane` among per-lane values (a vector of constants across the block).
    auto per_lane = [&](const std::function<Expr(int)> &value) {
        Expr v = value(lanes - 1);
        for (int n = lanes - 2; n >= 0; n--) v = select(lane == n, value(n), v);
        return v;
    };
    // Lane k's distance from the block's start in the scan's direction.
    auto step = [&](int n) { return causal ? n : lanes - 1 - n; };
    Expr value = zero;
    for (int j = 0; j < lanes; j++)
        value += per_lane([&](int n) { return step(n) >= step(j) ? h[step(n) - step(j)] : zero; }) * in(j);
    for (int d = r; d >= 1; d--) {
        std::vector<Expr> before(r, zero);
        before[d - 1] = one;
        const std::vector<Expr> s = run(before, zero);
        value += per_lane([&](int n) { return s[step(n)]; }) * earlier_output(exists(d), state(d));
    }
    return value;
}

}  // namespace cascade
