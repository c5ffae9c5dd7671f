#pragma once
#include <Halide.h>

namespace cascade {

// A scan's feedback: `value` (an earlier output of the Func being scanned) where `exists` holds,
// else zero (or `otherwise`), and `value` is read only where it exists. select() would evaluate both sides:
// at the first step it loads the very slot that step is about to write, a discarded read but an uninitialised
// one to compute-sanitizer's initcheck. The branch costs nothing measurable: LLVM peels the first step off
// the loop (CUDA and the vectorised CPU loops alike). `otherwise`: what stands in for it where it does not (a
// seed, a state past the edge).
inline Halide::Expr earlier_output(Halide::Expr exists, Halide::Expr value, Halide::Expr otherwise) {
    using namespace Halide::Internal;
    return Call::make(value.type(), Call::if_then_else,
                      {exists, value, Halide::cast(value.type(), otherwise)}, Call::PureIntrinsic);
}

inline Halide::Expr earlier_output(Halide::Expr exists, Halide::Expr value) {
    return earlier_output(exists, value, Halide::Internal::make_zero(value.type()));
}

}  // namespace cascade
