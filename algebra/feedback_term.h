#pragma once
#include <Halide.h>

namespace cascade {

// A recursion step's feedback term −a·y, as (−a)·y with −a made by flipping a's sign bit; steps
// add their terms nearest output last. Why: Halide's simplifier turns `v − a_q·y_{p−q} − … −
// a_1·y_{p−1}` into `v − (a_q·y_{p−q} + … + a_1·y_{p−1})`, and a written −a back into that, so
// every step waits on a multiply, the sum and a negation after the previous output (PTX: mul,
// fma, neg, fma). The bit flip is opaque to it: `(v + (−a_q)·y_{p−q} + …) + (−a_1)·y_{p−1}` is one
// FMA from each output to the next.
inline Halide::Expr feedback_term(Halide::Expr a, Halide::Expr y) {
    using namespace Halide;
    const Type t = a.type();
    if (!t.is_float()) return -(a * y);
    const Type bits = UInt(t.bits());
    Expr sign = Internal::make_const(bits, uint64_t(1) << (t.bits() - 1));
    return reinterpret(t, reinterpret(bits, a) ^ sign) * y;
}

}  // namespace cascade
