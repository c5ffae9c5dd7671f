#pragma once
// Cascade: recursive (IIR) image filters as ahead-of-time compiled Halide pipelines for the CPU
// and CUDA. The library applications link (Cascade::runtime); docs/embedding.md shows its use.
//
// Filter design: filter.h (any causal–anticausal recursion), gaussian.h, deriche.h, twoway.h,
// bspline.h. Running them: iir.h (IirPlan, iir_2d), gaussian_blur.h (GaussianPlan,
// gaussian_blur), sat.h (summed-area tables), box.h (box means), correlate.h (one axis's FIR of
// any length, scipy's correlate1d), on host or device buffers
// (planes.h, cuda.h), exact at the borders (boundary.h); data held in chunks filtered exactly
// by their carries (carries.h). Failures throw cascade::Error (error.h).
#include "cascade/boundary.h"
#include "cascade/box.h"
#include "cascade/bspline.h"
#include "cascade/carries.h"
#include "cascade/correlate.h"
#include "cascade/cuda.h"
#include "cascade/deriche.h"
#include "cascade/device.h"
#include "cascade/error.h"
#include "cascade/filter.h"
#include "cascade/gaussian.h"
#include "cascade/gaussian_blur.h"
#include "cascade/iir.h"
#include "cascade/image.h"
#include "cascade/planes.h"
#include "cascade/sat.h"
#include "cascade/twoway.h"
