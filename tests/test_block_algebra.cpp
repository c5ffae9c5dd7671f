// Identities of the block algebra of Nehab et al. 2011 (sections 4–6, appendices A and B),
// checked against the serial reference on random data with non-zero prologues and epilogues.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "block_matrices.h"
#include "cascade/error.h"
#include "reference.h"
#include "test_support.h"

namespace {

using cascade::BlockMatrices;
using cascade::head;
using cascade::head_cols;
using cascade::RecursiveFilter;
using cascade::tail;
using cascade::tail_cols;
using Eigen::MatrixXd;
namespace ref = cascade::reference;
namespace ct = cascade::testing;

constexpr double kTol = 1e-10;
constexpr double kMaxPole = 0.97;
constexpr int kBlocks1D = 5;                   // 1D signal of 5 blocks
constexpr int kBlockRows = 3, kBlockCols = 4;  // 2D image of 3×4 blocks

MatrixXd F(const RecursiveFilter &f, const MatrixXd &P, const MatrixXd &X) { return ref::causal(f, P, X); }
MatrixXd R(const RecursiveFilter &f, const MatrixXd &Y, const MatrixXd &E) {
    return ref::anticausal(f, Y, E);
}
MatrixXd Ft(const RecursiveFilter &f, const MatrixXd &P, const MatrixXd &X) {
    return ref::causal_rows(f, P, X);
}
MatrixXd Rt(const RecursiveFilter &f, const MatrixXd &Y, const MatrixXd &E) {
    return ref::anticausal_rows(f, Y, E);
}
MatrixXd zeros(int rows, int cols) { return MatrixXd::Zero(rows, cols); }

// ‖a − expected‖ / ‖expected‖ ≤ kTol, with matching shapes and a non-zero reference.
::testing::AssertionResult Close(const MatrixXd &a, const MatrixXd &expected) {
    return ct::within_relative_l2(a, expected, kTol);
}

// A causal/anticausal pair of order r and a 1D signal of kBlocks1D blocks with its serial
// results y = F(p, x), z = R(y, e).
struct Signal1D {
    RecursiveFilter f, g;
    BlockMatrices M;
    MatrixXd x, p, e, y, z;
    int r, b;

    MatrixXd block(const MatrixXd &v, int m) const { return v.middleRows(m * b, b); }
    // P_m(y) = T(B_m(y)) with P_{−1}(y) = p; E_m(z) = H(B_m(z)) with E_M(z) = e (eq. 7).
    MatrixXd P(int m) const { return m < 0 ? p : tail(block(y, m), r); }
    MatrixXd E(int m) const { return m >= kBlocks1D ? e : head(block(z, m), r); }
};

Signal1D make_signal(std::mt19937_64 &rng, int r, int b, bool complex_poles) {
    Signal1D s;
    s.r = r;
    s.b = b;
    s.f = ct::random_stable_filter(rng, r, kMaxPole, complex_poles);
    s.g = ct::random_stable_filter(rng, r, kMaxPole, !complex_poles);
    s.M = cascade::block_matrices(s.f, s.g, b);
    s.x = ct::random_matrix(rng, kBlocks1D * b, 1);
    s.p = ct::random_matrix(rng, r, 1);
    s.e = ct::random_matrix(rng, r, 1);
    s.y = F(s.f, s.p, s.x);
    s.z = R(s.g, s.y, s.e);
    return s;
}

class BlockAlgebra : public ::testing::TestWithParam<std::tuple<int, int>> {
protected:
    int r() const { return std::get<0>(GetParam()); }
    int b() const { return std::get<1>(GetParam()); }
    // Both pole kinds for each pass: the causal filter gets complex poles when the anticausal
    // one gets real poles, and the other way around.
    std::vector<Signal1D> signals() {
        auto rng = ct::rng_for_test();
        return {make_signal(rng, r(), b(), false), make_signal(rng, r(), b(), true)};
    }
};

// Eqs. 15 and 25: blocks filtered with the true carries reproduce the serial result; eqs. 9 and
// 10: superposition of input and prologue / epilogue.
TEST_P(BlockAlgebra, Superposition_Eq9_Eq10_Eq15_Eq25) {
    for (const auto &s : signals()) {
        for (int m = 0; m < kBlocks1D; m++) {
            const MatrixXd x = s.block(s.x, m), y = s.block(s.y, m);
            const MatrixXd p = s.P(m - 1), e = s.E(m + 1);
            EXPECT_TRUE(Close(F(s.f, p, x), s.block(s.y, m))) << "eq. 15, m = " << m;
            EXPECT_TRUE(Close(R(s.g, y, e), s.block(s.z, m))) << "eq. 25, m = " << m;
            EXPECT_TRUE(Close(F(s.f, zeros(r(), 1), x) + F(s.f, p, zeros(b(), 1)), F(s.f, p, x)))
                << "eq. 9, m = " << m;
            EXPECT_TRUE(Close(R(s.g, y, zeros(r(), 1)) + R(s.g, zeros(b(), 1), e), R(s.g, y, e)))
                << "eq. 10, m = " << m;
        }
    }
}

// Eqs. 11 and 12: the filters as products with A_FP, A_RE, A_FB, A_RB (columns and rows).
TEST_P(BlockAlgebra, MatrixForms_Eq11_Eq12) {
    auto rng = ct::rng_for_test();
    const int k = 7;  // independent columns (eq. 11) / rows (eq. 12)
    for (bool complex_poles : {false, true}) {
        const auto f = ct::random_stable_filter(rng, r(), kMaxPole, complex_poles);
        const auto g = ct::random_stable_filter(rng, r(), kMaxPole, !complex_poles);
        const BlockMatrices M = cascade::block_matrices(f, g, b());
        ASSERT_EQ(M.A_FP.rows(), b());
        ASSERT_EQ(M.A_FP.cols(), r());
        ASSERT_EQ(M.A_FB.rows(), b());
        ASSERT_EQ(M.A_FB.cols(), b());
        const MatrixXd p = ct::random_matrix(rng, r(), k), e = ct::random_matrix(rng, r(), k);
        const MatrixXd x = ct::random_matrix(rng, b(), k), y = ct::random_matrix(rng, b(), k);
        EXPECT_TRUE(Close(M.A_FP * p, F(f, p, zeros(b(), k)))) << "eq. 11, A_FP";
        EXPECT_TRUE(Close(M.A_RE * e, R(g, zeros(b(), k), e))) << "eq. 11, A_RE";
        EXPECT_TRUE(Close(M.A_FB * x, F(f, zeros(r(), k), x))) << "eq. 11, A_FB";
        EXPECT_TRUE(Close(M.A_RB * y, R(g, y, zeros(r(), k)))) << "eq. 11, A_RB";
        const MatrixXd pt = p.transpose(), et = e.transpose(), xt = x.transpose(), yt = y.transpose();
        EXPECT_TRUE(Close(pt * M.A_FP.transpose(), Ft(f, pt, zeros(k, b())))) << "eq. 12, A_FP";
        EXPECT_TRUE(Close(et * M.A_RE.transpose(), Rt(g, zeros(k, b()), et))) << "eq. 12, A_RE";
        EXPECT_TRUE(Close(xt * M.A_FB.transpose(), Ft(f, zeros(k, r()), xt))) << "eq. 12, A_FB";
        EXPECT_TRUE(Close(yt * M.A_RB.transpose(), Rt(g, yt, zeros(k, r())))) << "eq. 12, A_RB";
        // Eq. 11 also for the precomputed products (eqs. 34, 37, 39).
        EXPECT_TRUE(Close(M.ARB_AFP * p, R(g, F(f, p, zeros(b(), k)), zeros(r(), k)))) << "A_RB A_FP";
        EXPECT_TRUE(Close(M.H_ARB_AFP * p, head(R(g, F(f, p, zeros(b(), k)), zeros(r(), k)), r())))
            << "H(A_RB) A_FP";
        EXPECT_TRUE(Close(M.H_ARB_AFB * x, head(R(g, F(f, zeros(r(), k), x), zeros(r(), k)), r())))
            << "H(A_RB) A_FB";
        EXPECT_TRUE(Close(M.T_AFB * x, tail(F(f, zeros(r(), k), x), r()))) << "T(A_FB)";
    }
}

// Eq. 14 (appendix A): the tail of A_FP is the companion matrix to the power b, the head of A_RE
// its anticausal analogue.
TEST_P(BlockAlgebra, TailHead_Eq14) {
    for (const auto &s : signals()) {
        ASSERT_EQ(s.M.AbF.rows(), r());
        ASSERT_EQ(s.M.AbF.cols(), r());
        EXPECT_TRUE(Close(tail(s.M.A_FP, r()), s.M.AbF)) << "T(A_FP) = A_F^b";
        EXPECT_TRUE(Close(head(s.M.A_RE, r()), s.M.AbR)) << "H(A_RE) = A_R^b";
    }
}

// Eq. 48: one step of the r-vector recurrence, ẏ_i = b0 ẍ_i + A_F ẏ_{i−1}, and its anticausal
// analogue ż_i = b0' y_i e_0 + A_R ż_{i+1}, at every position of the signal.
TEST_P(BlockAlgebra, CompanionStep_Eq48) {
    for (const auto &s : signals()) {
        const int h = int(s.x.rows()), r = s.r;
        MatrixXd y_ext(r + h, 1), z_ext(h + r, 1);  // y_ext(i + r) = y_i, z_ext(i) = z_i
        y_ext << s.p, s.y;
        z_ext << s.z, s.e;
        MatrixXd lhs(r, h), rhs(r, h), lhs_r(r, h), rhs_r(r, h);
        for (int i = 1; i <= h; i++) {
            MatrixXd xdd = zeros(r, 1);
            xdd(r - 1) = s.x(i - 1);
            lhs.col(i - 1) = y_ext.middleRows(i, r);
            rhs.col(i - 1) = s.f.gain * xdd + s.M.AF * y_ext.middleRows(i - 1, r);
        }
        for (int i = 0; i < h; i++) {
            MatrixXd yd = zeros(r, 1);
            yd(0) = s.y(i);
            lhs_r.col(i) = z_ext.middleRows(i, r);
            rhs_r.col(i) = s.g.gain * yd + s.M.AR * z_ext.middleRows(i + 1, r);
        }
        EXPECT_TRUE(Close(rhs, lhs)) << "causal";
        EXPECT_TRUE(Close(rhs_r, lhs_r)) << "anticausal";
    }
}

// Eq. 52: r outputs at a time, ẏ_i = Ā_F ẋ_i + A_F^r ẏ_{i−r} and ż_i = Ā_R ẏ_i + A_R^r ż_{i+r}
// (ẏ_i = (y_i … y_{i+r−1}) in the latter). Ā_F and Ā_R include the gains b0, b0'.
TEST_P(BlockAlgebra, RVectorForm_Eq52) {
    for (const auto &s : signals()) {
        const int h = int(s.x.rows()), r = s.r;
        MatrixXd y_ext(r + h, 1), z_ext(h + r, 1);
        y_ext << s.p, s.y;
        z_ext << s.z, s.e;
        const int n = h - r + 1;
        MatrixXd lhs(r, n), rhs(r, n), lhs_r(r, n), rhs_r(r, n);
        for (int j = 0; j < n; j++) {
            const int i = j + r;  // causal: i = r … h
            lhs.col(j) = y_ext.middleRows(i, r);
            rhs.col(j) = s.M.AbarF * s.x.middleRows(i - r, r) + s.M.ArF * y_ext.middleRows(i - r, r);
            const int k = j;  // anticausal: i = 0 … h − r
            lhs_r.col(j) = z_ext.middleRows(k, r);
            rhs_r.col(j) = s.M.AbarR * s.y.middleRows(k, r) + s.M.ArR * z_ext.middleRows(k + r, r);
        }
        EXPECT_TRUE(Close(rhs, lhs)) << "causal";
        EXPECT_TRUE(Close(rhs_r, lhs_r)) << "anticausal";
        // With the gain folded in, Ā_F = F(0, I_r) and Ā_R = R(I_r, 0).
        const MatrixXd I = MatrixXd::Identity(r, r);
        EXPECT_TRUE(Close(s.M.AbarF, F(s.f, zeros(r, r), I))) << "Ā_F = F(0, I_r)";
        EXPECT_TRUE(Close(s.M.AbarR, R(s.g, I, zeros(r, r)))) << "Ā_R = R(I_r, 0)";
        if (r == 2) {  // eq. 54, scaled by the gain
            const double a1 = s.f.feedback[0], a2 = s.f.feedback[1], b0 = s.f.gain;
            MatrixXd abar(2, 2), a2f(2, 2);
            abar << b0, 0, -a1 * b0, b0;
            a2f << -a2, -a1, a1 * a2, a1 * a1 - a2;
            EXPECT_TRUE(Close(s.M.AbarF, abar)) << "eq. 54, Ā_F";
            EXPECT_TRUE(Close(s.M.ArF, a2f)) << "eq. 54, A_F^2";
        }
    }
}

// Eq. 24: prologues completed block after block from the incomplete P_m(ȳ) (algorithm 1).
TEST_P(BlockAlgebra, PrologueCompletion_Eq24) {
    for (const auto &s : signals()) {
        MatrixXd P = s.p;
        for (int m = 0; m < kBlocks1D; m++) {
            const MatrixXd ybar = F(s.f, zeros(r(), 1), s.block(s.x, m));  // eq. 17
            P = tail(ybar, r()) + s.M.AbF * P;
            EXPECT_TRUE(Close(P, s.P(m))) << "m = " << m;
        }
    }
}

// Eq. 27: epilogues completed backwards from the incomplete E_m(z̄), z̄ = R(B_m(y), 0) (eq. 26).
TEST_P(BlockAlgebra, EpilogueCompletion_Eq27) {
    for (const auto &s : signals()) {
        MatrixXd E = s.e;
        for (int m = kBlocks1D - 1; m >= 0; m--) {
            const MatrixXd zbar = R(s.g, s.block(s.y, m), zeros(r(), 1));
            E = head(zbar, r()) + s.M.AbR * E;
            EXPECT_TRUE(Close(E, s.E(m))) << "m = " << m;
        }
    }
}

// Eq. 34: epilogues from the twice-incomplete ẑ = R(F(0, B_m(x)), 0) (eq. 35) and the completed
// causal prologues (algorithm 3).
TEST_P(BlockAlgebra, CausalAnticausalOverlap_Eq34) {
    for (const auto &s : signals()) {
        std::vector<MatrixXd> P(kBlocks1D + 1), Ehat(kBlocks1D);  // P[m + 1] = P_m(y)
        P[0] = s.p;
        for (int m = 0; m < kBlocks1D; m++) {
            const MatrixXd ybar = F(s.f, zeros(r(), 1), s.block(s.x, m));
            P[m + 1] = tail(ybar, r()) + s.M.AbF * P[m];       // eq. 24
            Ehat[m] = head(R(s.g, ybar, zeros(r(), 1)), r());  // eqs. 35–36
        }
        MatrixXd E = s.e;
        for (int m = kBlocks1D - 1; m >= 0; m--) {
            E = s.M.AbR * E + s.M.H_ARB_AFP * P[m] + Ehat[m];
            EXPECT_TRUE(Close(E, s.E(m))) << "m = " << m;
        }
    }
}

// Eqs. 37 and 39 (appendix B) in the full 2D causal-anticausal row-column cascade with non-zero
// outer prologues and epilogues (algorithm 5): every completed carry P(Y), E(Z), P^T(U), E^T(V)
// equals the true tail / head of the serial result, and the blocks rebuilt from them (eq. 8)
// equal V. The horizontal filters have order 6 − r, so orders differ between the two directions.
TEST_P(BlockAlgebra, RowColumnOverlap_Eq37_Eq39) {
    auto rng = ct::rng_for_test();
    const int b = this->b(), rv = r(), rh = 6 - r(), Mb = kBlockRows, Nb = kBlockCols;
    const int H = Mb * b, W = Nb * b;
    for (bool complex_poles : {false, true}) {
        const auto fv = ct::random_stable_filter(rng, rv, kMaxPole, complex_poles);
        const auto gv = ct::random_stable_filter(rng, rv, kMaxPole, !complex_poles);
        const auto fh = ct::random_stable_filter(rng, rh, kMaxPole, !complex_poles);
        const auto gh = ct::random_stable_filter(rng, rh, kMaxPole, complex_poles);
        const BlockMatrices V_ = cascade::block_matrices(fv, gv, b), H_ = cascade::block_matrices(fh, gh, b);
        const MatrixXd X = ct::random_matrix(rng, H, W);
        const MatrixXd P = ct::random_matrix(rng, rv, W), E = ct::random_matrix(rng, rv, W);
        const MatrixXd Pt = ct::random_matrix(rng, H, rh), Et = ct::random_matrix(rng, H, rh);
        // Eq. 6, serially.
        const MatrixXd Y = F(fv, P, X), Z = R(gv, Y, E), U = Ft(fh, Pt, Z), V = Rt(gh, U, Et);
        auto B = [&](const MatrixXd &A, int m, int n) -> MatrixXd { return A.block(m * b, n * b, b, b); };

        // Carries indexed with one extra slot on each side for the outer boundaries.
        auto grid = [&] { return std::vector<std::vector<MatrixXd>>(Mb + 2, std::vector<MatrixXd>(Nb + 2)); };
        auto PYbar = grid(), EZhat = grid(), PUbar = grid(), EVbar = grid();
        auto PY = grid(), EZ = grid(), PU = grid(), EV = grid();  // [m + 1][n + 1]

        // 5.1: the incomplete carries of every block, from its input alone (eqs. 17, 35, 38, 40).
        for (int m = 0; m < Mb; m++)
            for (int n = 0; n < Nb; n++) {
                const MatrixXd Ybar = F(fv, zeros(rv, b), B(X, m, n));
                const MatrixXd Zhat = R(gv, Ybar, zeros(rv, b));
                const MatrixXd Ubar = Ft(fh, zeros(b, rh), Zhat);
                const MatrixXd Vbar = Rt(gh, Ubar, zeros(b, rh));
                PYbar[m + 1][n + 1] = tail(Ybar, rv);
                EZhat[m + 1][n + 1] = head(Zhat, rv);
                PUbar[m + 1][n + 1] = tail_cols(Ubar, rh);
                EVbar[m + 1][n + 1] = head_cols(Vbar, rh);
            }
        for (int n = 0; n < Nb; n++) {
            PY[0][n + 1] = P.middleCols(n * b, b);
            EZ[Mb + 1][n + 1] = E.middleCols(n * b, b);
        }
        for (int m = 0; m < Mb; m++) {
            PU[m + 1][0] = Pt.middleRows(m * b, b);
            EV[m + 1][Nb + 1] = Et.middleRows(m * b, b);
        }
        // 5.2 (eq. 24) and 5.3 (eq. 34), down and up each column of blocks.
        for (int n = 1; n <= Nb; n++) {
            for (int m = 1; m <= Mb; m++) PY[m][n] = PYbar[m][n] + V_.AbF * PY[m - 1][n];
            for (int m = Mb; m >= 1; m--)
                EZ[m][n] = V_.AbR * EZ[m + 1][n] + V_.H_ARB_AFP * PY[m - 1][n] + EZhat[m][n];
        }
        // 5.4 (eq. 37) and 5.5 (eq. 39), along each row of blocks.
        for (int m = 1; m <= Mb; m++) {
            for (int n = 1; n <= Nb; n++)
                PU[m][n] = PU[m][n - 1] * H_.AbF.transpose() +
                           V_.A_RE * (EZ[m + 1][n] * H_.T_AFB.transpose()) +
                           V_.ARB_AFP * (PY[m - 1][n] * H_.T_AFB.transpose()) + PUbar[m][n];
            for (int n = Nb; n >= 1; n--)
                EV[m][n] = EV[m][n + 1] * H_.AbR.transpose() + PU[m][n - 1] * H_.H_ARB_AFP.transpose() +
                           V_.A_RE * (EZ[m + 1][n] * H_.H_ARB_AFB.transpose()) +
                           V_.ARB_AFP * (PY[m - 1][n] * H_.H_ARB_AFB.transpose()) + EVbar[m][n];
        }
        // Every completed carry against the serial result.
        MatrixXd rebuilt(H, W);
        for (int m = 0; m < Mb; m++)
            for (int n = 0; n < Nb; n++) {
                const int i = m + 1, j = n + 1;
                EXPECT_TRUE(Close(PY[i][j], tail(B(Y, m, n), rv))) << "eq. 24, block " << m << "," << n;
                EXPECT_TRUE(Close(EZ[i][j], head(B(Z, m, n), rv))) << "eq. 34, block " << m << "," << n;
                EXPECT_TRUE(Close(PU[i][j], tail_cols(B(U, m, n), rh))) << "eq. 37, block " << m << "," << n;
                EXPECT_TRUE(Close(EV[i][j], head_cols(B(V, m, n), rh))) << "eq. 39, block " << m << "," << n;
                // 5.6: eq. 8 from the completed carries.
                const MatrixXd by = F(fv, PY[i - 1][j], B(X, m, n));
                const MatrixXd bz = R(gv, by, EZ[i + 1][j]);
                const MatrixXd bu = Ft(fh, PU[i][j - 1], bz);
                rebuilt.block(m * b, n * b, b, b) = Rt(gh, bu, EV[i][j + 1]);
            }
        EXPECT_TRUE(Close(rebuilt, V)) << "eq. 8, the whole image";
    }
}

std::string order_block_name(const ::testing::TestParamInfo<std::tuple<int, int>> &info) {
    return "r" + std::to_string(std::get<0>(info.param)) + "_b" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Orders, BlockAlgebra,
                         ::testing::Combine(::testing::Range(1, 6), ::testing::Values(8, 32, 64)),
                         order_block_name);

// Section 6: the summed-area table as S then S^T, S the prefix-sum filter, with non-zero outer
// prologues. Eqs. 44 and 45, and eq. 45 as the causal-only case of eq. 37.
class SummedAreaTable : public ::testing::TestWithParam<int> {};

TEST_P(SummedAreaTable, Completion_Eq44_Eq45) {
    auto rng = ct::rng_for_test();
    const int b = GetParam(), Mb = kBlockRows, Nb = kBlockCols, H = Mb * b, W = Nb * b;
    const RecursiveFilter S = cascade::summed_area_filter();
    const BlockMatrices M = cascade::block_matrices(S, S, b);  // no stability required
    EXPECT_TRUE(Close(M.AbF, MatrixXd::Ones(1, 1))) << "A_F^b = 1";
    EXPECT_TRUE(Close(M.A_FP, MatrixXd::Ones(b, 1))) << "A_FP = 1";
    EXPECT_TRUE(Close(M.T_AFB, MatrixXd::Ones(1, b))) << "T(A_FB) = 1";

    const MatrixXd X = ct::random_matrix(rng, H, W);
    const MatrixXd P = ct::random_matrix(rng, 1, W), Pt = ct::random_matrix(rng, H, 1);
    const MatrixXd Y = F(S, P, X), V = Ft(S, Pt, Y);  // eq. 41, serially
    // Spot-check that this is a summed-area table: V(i, j) = Σ X(0..i, 0..j) + boundary terms.
    {
        const int i = H - 2, j = W - 3;
        const double expected = X.topLeftCorner(i + 1, j + 1).sum() + P.leftCols(j + 1).sum() + Pt(i);
        EXPECT_NEAR(V(i, j), expected, 1e-10 * std::abs(expected) + 1e-12);
    }
    auto B = [&](const MatrixXd &A, int m, int n) -> MatrixXd { return A.block(m * b, n * b, b, b); };
    std::vector<std::vector<MatrixXd>> PY(Mb + 1, std::vector<MatrixXd>(Nb)),
        PV(Mb, std::vector<MatrixXd>(Nb + 1));
    for (int n = 0; n < Nb; n++) PY[0][n] = P.middleCols(n * b, b);   // PY[m + 1][n] = P_{m,n}(Y)
    for (int m = 0; m < Mb; m++) PV[m][0] = Pt.middleRows(m * b, b);  // PV[m][n + 1] = P^T_{m,n}(V)
    for (int m = 0; m < Mb; m++)
        for (int n = 0; n < Nb; n++) {
            const MatrixXd Ybar = F(S, zeros(1, b), B(X, m, n));  // eq. 42
            const MatrixXd Vbar = Ft(S, zeros(b, 1), Ybar);       // eq. 43
            PY[m + 1][n] = PY[m][n] + tail(Ybar, 1);              // eq. 44
            const MatrixXd s = MatrixXd::Constant(b, 1, PY[m][n].sum());
            PV[m][n + 1] = PV[m][n] + s + tail_cols(Vbar, 1);  // eq. 45
            EXPECT_TRUE(Close(PY[m + 1][n], tail(B(Y, m, n), 1))) << "eq. 44, block " << m << "," << n;
            EXPECT_TRUE(Close(PV[m][n + 1], tail_cols(B(V, m, n), 1))) << "eq. 45, block " << m << "," << n;
            const MatrixXd eq37 =
                PV[m][n] * M.AbF.transpose() + M.A_FP * (PY[m][n] * M.T_AFB.transpose()) + tail_cols(Vbar, 1);
            EXPECT_TRUE(Close(eq37, PV[m][n + 1])) << "eq. 45 as eq. 37, block " << m << "," << n;
        }
}

INSTANTIATE_TEST_SUITE_P(Blocks, SummedAreaTable, ::testing::Values(8, 32, 64),
                         [](const ::testing::TestParamInfo<int> &info) {
                             return "b" + std::to_string(info.param);
                         });

TEST(BlockMatricesArguments, RejectsMismatchedOrdersAndSmallBlocks) {
    const RecursiveFilter first{1.0, {-0.5}}, second{1.0, {0.1, 0.2}};
    EXPECT_THROW(cascade::block_matrices(first, second, 8), cascade::Error);
    EXPECT_THROW(cascade::block_matrices(second, second, 1), cascade::Error);
    EXPECT_THROW(cascade::block_matrices(RecursiveFilter{}, RecursiveFilter{}, 8), cascade::Error);
    EXPECT_NO_THROW(cascade::block_matrices(second, second, 2));
}

}  // namespace
