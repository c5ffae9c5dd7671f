#include "block_matrices.h"

#include "cascade/error.h"
#include "reference.h"

namespace cascade {

using Eigen::MatrixXd;

MatrixXd tail(const MatrixXd &M, int r) { return M.bottomRows(r); }
MatrixXd head(const MatrixXd &M, int r) { return M.topRows(r); }
MatrixXd tail_cols(const MatrixXd &M, int r) { return M.rightCols(r); }
MatrixXd head_cols(const MatrixXd &M, int r) { return M.leftCols(r); }

namespace {

// Eq. 49: shift up, last row (−a_r, …, −a_1).
MatrixXd companion(const RecursiveFilter &f) {
    const int r = f.order();
    MatrixXd A = MatrixXd::Zero(r, r);
    for (int i = 0; i + 1 < r; i++) A(i, i + 1) = 1;
    for (int k = 1; k <= r; k++) A(r - 1, r - k) = -f.feedback[k - 1];
    return A;
}

MatrixXd power(const MatrixXd &A, int n) {
    MatrixXd P = MatrixXd::Identity(A.rows(), A.cols());
    for (int i = 0; i < n; i++) P = A * P;
    return P;
}

}  // namespace

BlockMatrices block_matrices(const RecursiveFilter &causal, const RecursiveFilter &anticausal, int b) {
    const int r = causal.order();
    if (r < 1 || anticausal.order() != r)
        throw Error("block matrices need a causal and an anticausal filter of the same order >= 1");
    if (b < r) throw Error("block size " + std::to_string(b) + " is smaller than the filter order");
    namespace ref = reference;
    BlockMatrices M;
    M.r = r;
    M.b = b;
    const MatrixXd Ir = MatrixXd::Identity(r, r), Ib = MatrixXd::Identity(b, b);
    // Eq. 11: each column is the response to one unit prologue / epilogue / input entry.
    M.A_FP = ref::causal(causal, Ir, MatrixXd::Zero(b, r));
    M.A_FB = ref::causal(causal, MatrixXd::Zero(r, b), Ib);
    M.A_RE = ref::anticausal(anticausal, MatrixXd::Zero(b, r), Ir);
    M.A_RB = ref::anticausal(anticausal, Ib, MatrixXd::Zero(r, b));

    // Appendix A. On the reversed signal R is a causal filter with feedback a'_k, and ż_i is that
    // filter's ẏ read backwards, so A_R = J A_F(a') J with J the r×r reversal.
    const MatrixXd J = Ir.rowwise().reverse();
    M.AF = companion(causal);
    M.AR = J * companion(anticausal) * J;
    M.AbF = power(M.AF, b);  // eqs. 56–58
    M.AbR = power(M.AR, b);
    M.ArF = power(M.AF, r);
    M.ArR = power(M.AR, r);
    // Eqs. 51–52 with the gain: ẏ_i = Σ_k A_F^k b0 ẍ_{i−k} + A_F^r ẏ_{i−r}, and ẍ_{i−k} is
    // x_{i−k−1} (entry r−k−1 of ẋ_i) in the last slot.
    M.AbarF.resize(r, r);
    M.AbarR.resize(r, r);
    for (int k = 0; k < r; k++) {
        M.AbarF.col(k) = causal.gain * power(M.AF, r - k - 1).col(r - 1);
        M.AbarR.col(k) = anticausal.gain * power(M.AR, k).col(0);
    }

    M.T_AFB = tail(M.A_FB, r);               // eq. 37
    M.H_ARB_AFP = head(M.A_RB, r) * M.A_FP;  // eqs. 34, 39
    M.ARB_AFP = M.A_RB * M.A_FP;             // eqs. 37, 39
    M.H_ARB_AFB = head(M.A_RB, r) * M.A_FB;  // eq. 39
    return M;
}

RecursiveFilter summed_area_filter() { return RecursiveFilter{1.0, {-1.0}}; }

}  // namespace cascade
