#pragma once
// The filter algebra as Halide Funcs: a causal or anticausal recursive pass of any order along
// one dimension of a (x, y, c) Func, in the project's convention
//   causal      y_i = b0·x_i − Σ_{k=1..r} a_k·y_{i−k}
//   anticausal  z_i = b0·y_i − Σ_{k=1..r} a_k·z_{i+k}.
// Each pass only defines values; schedules/ decides where and how they are computed.
#include <Halide.h>

#include <string>
#include <vector>

namespace cascade {

// Coefficients of one pass as Halide expressions (usually run-time Inputs).
struct Coefficients {
    Halide::Expr b0;
    std::vector<Halide::Expr> a;  // a[k-1] = a_k

    int order() const { return int(a.size()); }
};

// The dimension a pass runs along: x along the rows, y down the columns.
enum class Dim { x = 0, y = 1 };

// A defined pass: the Func holding its output and the reduction over the samples it scans.
struct Pass {
    Halide::Func func;
    Halide::RDom scan;
    Dim dim;
};

// Defines `out` as the causal pass over `in` along `dim`, on samples [0, extent). Outputs before
// sample 0 are zero (boundary `none`); the pass never reads outside [0, extent), so `out` can be
// a pipeline Output.
Pass causal(Halide::Func out, Halide::Func in, const Coefficients &k, Dim dim, Halide::Expr extent);

// Defines `out` as the anticausal pass over `in` along `dim`; samples at and after `extent` are
// zero.
Pass anticausal(Halide::Func out, Halide::Func in, const Coefficients &k, Dim dim, Halide::Expr extent);

// Defines `out` as the running sum of `in` along `dim` (the causal pass with b0 = 1, a_1 = −1,
// written without the multiply so that it is exact in integer types too). `out` takes the type
// of `in`.
Pass prefix_sum(Halide::Func out, Halide::Func in, Dim dim, Halide::Expr extent);

}  // namespace cascade
