#pragma once
#include <Halide.h>

#include <functional>

#include "algebra/earlier_output.h"
#include "algebra/feedback_term.h"
#include "algebra/recursive_filter.h"

namespace cascade {

// One step of a scan in place: gain · in − Σ a_k · (the output k steps back), each earlier output
// read only where `exists(k)` holds (else zero), the nearest added last (feedback_term.h).
inline Halide::Expr recursion_step(const Coefficients &k, Halide::Expr in,
                                   const std::function<Halide::Expr(int)> &earlier,
                                   const std::function<Halide::Expr(int)> &exists) {
    Halide::Expr value = k.b0 * in;
    for (int j = k.order(); j >= 1; j--)
        value += feedback_term(k.a[j - 1], earlier_output(exists(j), earlier(j)));
    return value;
}

}  // namespace cascade
