#pragma once
// The precomputed matrices of Nehab et al. 2011, "GPU-efficient recursive filtering and
// summed-area tables" (sections 4–6, appendices A and B), for a causal filter F and an
// anticausal filter R of the same order r on blocks of b elements.
//
// Conventions (see reference.h): a prologue p holds (y_{-r}, …, y_{-1}), an epilogue e holds
// (z_b, …, z_{b+r-1}); both passes carry a gain b0 (the paper has b0 = 1):
//   y_i = b0·x_i − Σ a_k y_{i−k},   z_i = b0'·y_i − Σ a'_k z_{i+k}.
#include <Eigen/Dense>

#include "cascade/filter.h"

namespace cascade {

// T(M): the last r rows (prologue-shaped); H(M): the first r rows (epilogue-shaped), eq. 7.
Eigen::MatrixXd tail(const Eigen::MatrixXd &M, int r);
Eigen::MatrixXd head(const Eigen::MatrixXd &M, int r);
// Their transposed counterparts T^T, H^T: the last / first r columns.
Eigen::MatrixXd tail_cols(const Eigen::MatrixXd &M, int r);
Eigen::MatrixXd head_cols(const Eigen::MatrixXd &M, int r);

struct BlockMatrices {
    int r = 0, b = 0;
    // Eq. 11, derived by running the serial reference on identity / zero matrices.
    Eigen::MatrixXd A_FP;  // b×r  F(I_r, 0)
    Eigen::MatrixXd A_FB;  // b×b  F(0, I_b)
    Eigen::MatrixXd A_RE;  // b×r  R(0, I_r)
    Eigen::MatrixXd A_RB;  // b×b  R(I_b, 0)
    // Companion matrices (eq. 49) advancing the r-vectors ẏ_i = (y_{i−r}, …, y_{i−1}) and
    // ż_i = (z_i, …, z_{i+r−1}):  ẏ_i = b0·ẍ_i + A_F ẏ_{i−1},  ż_i = b0'·y_i·e_0 + A_R ż_{i+1}.
    // A_R is A_F of the a'_k with rows and columns reversed.
    Eigen::MatrixXd AF, AR;    // r×r
    Eigen::MatrixXd AbF, AbR;  // r×r  A_F^b, A_R^b (eq. 14: T(A_FP) = A_F^b, H(A_RE) = A_R^b)
    Eigen::MatrixXd ArF, ArR;  // r×r  A_F^r, A_R^r (eq. 52)
    // Eq. 52, ẏ_i = Ā_F ẋ_i + A_F^r ẏ_{i−r} and ż_i = Ā_R ẏ_i + A_R^r ż_{i+r} (ẏ_i there being
    // (y_i, …, y_{i+r−1})). The gain is folded in: Ā_F's column k is b0 times the last column of
    // A_F^{r−k−1}, Ā_R's column k is b0' times the first column of A_R^k. So Ā_F = F(0, I_r) and
    // Ā_R = R(I_r, 0) exactly (lower / upper triangular, b0 on the diagonal).
    Eigen::MatrixXd AbarF, AbarR;  // r×r
    // Products of eqs. 24, 34, 37, 39 (and 60, 65).
    Eigen::MatrixXd T_AFB;      // r×b  T(A_FB)            eqs. 37, 60
    Eigen::MatrixXd H_ARB_AFP;  // r×r  H(A_RB)·A_FP       eqs. 34, 39
    Eigen::MatrixXd ARB_AFP;    // b×r  A_RB·A_FP          eqs. 37, 39
    Eigen::MatrixXd H_ARB_AFB;  // r×b  H(A_RB)·A_FB       eq. 39
};

// Throws cascade::Error unless both filters have the same order r ≥ 1 and b ≥ r. Stability is
// not required (the summed-area filter below has its pole on the unit circle).
BlockMatrices block_matrices(const RecursiveFilter &causal, const RecursiveFilter &anticausal, int b);

// The prefix-sum filter S of section 6 (a_1 = −1, b0 = 1): S(p, x)_i = p + x_0 + … + x_i. Its
// A_F^b is 1, A_FP and T(A_FB) are all ones, so eq. 37 without the anticausal terms becomes
// eq. 45: P^T_{m,n}(V) = P^T_{m,n−1}(V) + s(P_{m−1,n}(Y)) + P^T_{m,n}(V̄).
RecursiveFilter summed_area_filter();

}  // namespace cascade
