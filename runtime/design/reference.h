#pragma once
// Serial double-precision definitions of the recursive filters, in the notation of Nehab et al.
// 2011 (section 3). They are the ground truth every other computation is tested against, and
// the block matrices are derived from them.
#include <Eigen/Dense>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/deriche.h"
#include "cascade/filter.h"
#include "cascade/image.h"
#include "cascade/twoway.h"

namespace cascade::reference {

using Matrix = Eigen::MatrixXd;

// Column filters act on each column of an h×w matrix.
// F(P, X): P is r×w, its row j holding y_{j−r} (the last r outputs before the block).
Matrix causal(const RecursiveFilter &f, const Matrix &P, const Matrix &X);
// R(Y, E): E is r×w, its row j holding z_{h+j} (the first r outputs after the block).
Matrix anticausal(const RecursiveFilter &f, const Matrix &Y, const Matrix &E);

// Row filters F^T and R^T act on each row; their prologue P' and epilogue E' are h×r, column j
// holding y_{·, j−r} and z_{·, w+j} respectively.
Matrix causal_rows(const RecursiveFilter &f, const Matrix &Pt, const Matrix &X);
Matrix anticausal_rows(const RecursiveFilter &f, const Matrix &X, const Matrix &Et);

// The 2D filter of one h×w plane with zero prologues and epilogues (boundary `none`):
// V = R^T(F^T(0, R(F(0, X), 0)), 0).
Matrix filter_2d(const Filter2D &filter, const Matrix &X);

// The 2D filter of one plane extended by `boundary` (boundary.h): the extension written out past
// the filter's decay (1e−20) on every side, filtered with zero feedbacks, cropped. The definition
// the exact boundaries are checked against; `none` is the plain filter_2d.
Matrix filter_2d(const Filter2D &filter, const Matrix &X, Boundary boundary);

// The plane with its extension by `boundary` written out `pad` samples past every side (zeros
// for none and zero).
Matrix extended(const Matrix &X, Boundary boundary, int pad);

// The separable FIR of one plane, the plane zero outside (boundary `none`): taps of odd length
// 2R+1 centred on tap R, down the columns (`vertical`), then along the rows (`horizontal`).
Matrix fir_2d(const std::vector<double> &vertical, const std::vector<double> &horizontal, const Matrix &X);

// A Gaussian in cascade form (deriche.h): the numerator FIR on the zero-extended plane, then
// filter_2d with the pass in both dimensions.
Matrix fir_iir_2d(const FirIirGaussian &g, const Matrix &X);

// Lee et al.'s two-way partitioned Gaussian (twoway.h) of one plane, down the columns, then along
// the rows, as the pipeline computes it: each line extended by `boundary` (none: zeros) where
// the centre point's taps reach past it and where the first pass starts, which runs over the
// extension written out until the recursion's response has decayed (to 1e−15).
Matrix two_way_2d(const TwoWayGaussian &g, const Matrix &X, Boundary boundary = Boundary::none);

// The inclusive summed-area table of one plane, in double.
Matrix summed_area_table(const Matrix &X);

// One plane of an Image as doubles, and the 2D filter of every channel of an image.
Matrix plane(const Image &image, int channel);
std::vector<Matrix> filter_2d(const Filter2D &filter, const Image &image);

}  // namespace cascade::reference
