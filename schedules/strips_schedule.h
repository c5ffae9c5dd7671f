#pragma once
// Schedule of the row strips with overlapped column windows (algebra/iir_strips.h), CPU only.
#include "algebra/iir_strips.h"

namespace cascade {

// `lanes`: the target's natural vector width for the samples. `consumer`, where defined, takes the
// strips' loop in place of f.output (then inlined into it): a Func of (x, y) or (x, y, c) that
// reads the filter's result where it writes, e.g. the pipeline's output, so that no image-sized
// buffer holds the result between them.
void schedule_strips_cpu(IirStripsFuncs &f, int lanes, Halide::Func consumer = Halide::Func());

// Samples a step of the row passes (iir_strips' row_block) for samples of `type`: a block of one
// 256-bit vector (the CPU variants' AVX2 width) along the row, or 1, a sample a step down
// rows-innermost vectors.
int strips_row_block(Halide::Type type);

}  // namespace cascade
