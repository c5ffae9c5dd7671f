#pragma once
#include <Halide.h>

namespace cascade {

// A scan's feedback: `value` (an earlier output of the Func being scanned) where `exists` holds,
// else zero, and `value` is read only where it exists. select() would evaluate both sides: at
// the first step it loads the very slot that step is about to write, a discarded read but an
// uninitialised one to compute-sanitizer's initcheck. The branch costs nothing measurable: LLVM
// peels the first step off the loop (CUDA and the vectorised CPU loops alike).
inline Halide::Expr earlier_output(Halide::Expr exists, Halide::Expr value) {
    using namespace Halide::Internal;
    return Call::make(value.type(), Call::if_then_else, {exists, value, make_zero(value.type())},
                      Call::PureIntrinsic);
}

}  // namespace cascade
