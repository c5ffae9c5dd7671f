#pragma once
// The tables that a Func API pipeline of run-time coefficients reads on a CUDA target
// (cascade/funcs.h, iir with `tables`), made on the host by the runtime library, so that the
// application that calls the pipeline needs no Halide compiler.
#include <HalideBuffer.h>

#include "cascade/boundary.h"
#include "cascade/filter.h"

namespace cascade::funcs {

// The tables for `vertical` down the columns and `horizontal` along the rows under `boundary` on an
// image of width × height: in milliseconds on the host (make them once per filter and size and
// reuse them; Halide copies them to the device on the first call). A pipeline refuses tables
// made for another size or boundary. Throws cascade::Error for an unstable filter, an empty image,
// an order past 31, or tables past float32's range.
Halide::Runtime::Buffer<float> tile_tables(const RecursiveFilter &vertical, const RecursiveFilter &horizontal,
                                           Boundary boundary, int width, int height);

}  // namespace cascade::funcs
