// The serial reference filters against first principles: closed-form impulse responses, direct
// scalar loops, transposition, reversal, composition and linearity.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "reference.h"
#include "test_support.h"

namespace {

using cascade::RecursiveFilter;
using Eigen::MatrixXd;
namespace ref = cascade::reference;
namespace ct = cascade::testing;

constexpr double kTol = 1e-10;

::testing::AssertionResult Close(const MatrixXd &a, const MatrixXd &expected) {
    return ct::within_relative_l2(a, expected, kTol);
}

// Eq. 1 with our gain, one scalar at a time: y_i = b0 x_i − Σ a_k y_{i−k}, y_{−k} = p[r − k].
std::vector<double> direct_causal(const RecursiveFilter &f, const std::vector<double> &p,
                                  const std::vector<double> &x) {
    const int r = f.order(), h = int(x.size());
    std::vector<double> y(h);
    for (int i = 0; i < h; i++) {
        double value = f.gain * x[i];
        for (int k = 1; k <= r; k++) value -= f.feedback[k - 1] * (i - k >= 0 ? y[i - k] : p[r + i - k]);
        y[i] = value;
    }
    return y;
}

// Eq. 3 with our gain: z_i = b0 y_i − Σ a_k z_{i+k}, z_{h+j} = e[j].
std::vector<double> direct_anticausal(const RecursiveFilter &f, const std::vector<double> &y,
                                      const std::vector<double> &e) {
    const int r = f.order(), h = int(y.size());
    std::vector<double> z(h);
    for (int i = h - 1; i >= 0; i--) {
        double value = f.gain * y[i];
        for (int k = 1; k <= r; k++) value -= f.feedback[k - 1] * (i + k < h ? z[i + k] : e[i + k - h]);
        z[i] = value;
    }
    return z;
}

std::vector<double> column(const MatrixXd &m, int j) {
    return std::vector<double>(m.col(j).data(), m.col(j).data() + m.rows());
}
std::vector<double> row(const MatrixXd &m, int i) {
    std::vector<double> v(m.cols());
    for (int j = 0; j < m.cols(); j++) v[j] = m(i, j);
    return v;
}
MatrixXd as_column(const std::vector<double> &v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
}

MatrixXd impulse(int h, int at) {
    MatrixXd x = MatrixXd::Zero(h, 1);
    x(at) = 1;
    return x;
}

TEST(Reference, FirstOrderImpulseResponse) {
    auto rng = ct::rng_for_test();
    std::uniform_real_distribution<double> pole(-0.95, 0.95), gain(0.2, 3.0);
    const int h = 60;
    for (int trial = 0; trial < 8; trial++) {
        const double a1 = pole(rng), b0 = gain(rng);
        const RecursiveFilter f{b0, {a1}};
        MatrixXd expected(h, 1), from_prologue(h, 1);
        for (int n = 0; n < h; n++) {
            expected(n) = b0 * std::pow(-a1, n);      // b0·(−a1)^n
            from_prologue(n) = std::pow(-a1, n + 1);  // y_{−1} = 1, no input
        }
        EXPECT_TRUE(Close(ref::causal(f, MatrixXd::Zero(1, 1), impulse(h, 0)), expected)) << "a1 = " << a1;
        EXPECT_TRUE(Close(ref::causal(f, MatrixXd::Ones(1, 1), MatrixXd::Zero(h, 1)), from_prologue));
        // Anticausal: the same responses read from the end.
        EXPECT_TRUE(
            Close(ref::anticausal(f, impulse(h, h - 1), MatrixXd::Zero(1, 1)), expected.colwise().reverse()));
        EXPECT_TRUE(Close(ref::anticausal(f, MatrixXd::Zero(h, 1), MatrixXd::Ones(1, 1)),
                          from_prologue.colwise().reverse()));
    }
}

// Second order with poles q1, q2: h_n = b0 (q1^{n+1} − q2^{n+1}) / (q1 − q2); for complex
// conjugate poles ρe^{±iθ} this is b0 ρ^n sin((n+1)θ) / sin θ.
TEST(Reference, SecondOrderClosedForm) {
    const int h = 80;
    const double b0 = 0.7;
    {
        const double q1 = 0.8, q2 = -0.45;
        const RecursiveFilter f{b0, {-(q1 + q2), q1 * q2}};
        MatrixXd expected(h, 1);
        for (int n = 0; n < h; n++)
            expected(n) = b0 * (std::pow(q1, n + 1) - std::pow(q2, n + 1)) / (q1 - q2);
        EXPECT_TRUE(Close(ref::causal(f, MatrixXd::Zero(2, 1), impulse(h, 0)), expected)) << "real poles";
    }
    {
        const double rho = 0.9, theta = 0.7;
        const RecursiveFilter f{b0, {-2 * rho * std::cos(theta), rho * rho}};
        MatrixXd expected(h, 1);
        for (int n = 0; n < h; n++)
            expected(n) = b0 * std::pow(rho, n) * std::sin((n + 1) * theta) / std::sin(theta);
        EXPECT_TRUE(Close(ref::causal(f, MatrixXd::Zero(2, 1), impulse(h, 0)), expected)) << "complex poles";
        EXPECT_TRUE(
            Close(ref::anticausal(f, impulse(h, h - 1), MatrixXd::Zero(2, 1)), expected.colwise().reverse()));
    }
}

// Orders 1–5, random prologues / epilogues, several columns, lengths shorter and longer than r.
TEST(Reference, MatchesDirectScalarLoops) {
    auto rng = ct::rng_for_test();
    for (int r = 1; r <= 5; r++)
        for (int h : {1, 2, 7, 50}) {
            const auto f = ct::random_stable_filter(rng, r, 0.95, r % 2 == 0);
            const int w = 3;
            const MatrixXd X = ct::random_matrix(rng, h, w), P = ct::random_matrix(rng, r, w),
                           E = ct::random_matrix(rng, r, w);
            const MatrixXd Y = ref::causal(f, P, X), Z = ref::anticausal(f, X, E);
            for (int j = 0; j < w; j++) {
                EXPECT_TRUE(Close(Y.col(j), as_column(direct_causal(f, column(P, j), column(X, j)))))
                    << "causal, r = " << r << ", h = " << h;
                EXPECT_TRUE(Close(Z.col(j), as_column(direct_anticausal(f, column(X, j), column(E, j)))))
                    << "anticausal, r = " << r << ", h = " << h;
            }
        }
}

TEST(Reference, RowFiltersAreColumnFiltersOfTheTranspose) {
    auto rng = ct::rng_for_test();
    for (int r = 1; r <= 5; r++) {
        const auto f = ct::random_stable_filter(rng, r, 0.9, true);
        const int h = 11, w = 19;
        const MatrixXd X = ct::random_matrix(rng, h, w), Pt = ct::random_matrix(rng, h, r),
                       Et = ct::random_matrix(rng, h, r);
        EXPECT_TRUE(
            Close(ref::causal_rows(f, Pt, X), ref::causal(f, Pt.transpose(), X.transpose()).transpose()));
        EXPECT_TRUE(Close(ref::anticausal_rows(f, X, Et),
                          ref::anticausal(f, X.transpose(), Et.transpose()).transpose()));
        // And row by row against the scalar loops.
        const MatrixXd U = ref::causal_rows(f, Pt, X), V = ref::anticausal_rows(f, X, Et);
        for (int i = 0; i < h; i++) {
            EXPECT_TRUE(Close(U.row(i).transpose(), as_column(direct_causal(f, row(Pt, i), row(X, i)))));
            EXPECT_TRUE(Close(V.row(i).transpose(), as_column(direct_anticausal(f, row(X, i), row(Et, i)))));
        }
    }
}

// R(y, e) reversed is F(reversed e, reversed y): epilogue row j (z_{h+j}) becomes prologue row
// r−1−j (y_{−1−j}).
TEST(Reference, AnticausalIsCausalOnTheReversedSignal) {
    auto rng = ct::rng_for_test();
    for (int r = 1; r <= 5; r++) {
        const auto f = ct::random_stable_filter(rng, r, 0.9, false);
        const MatrixXd Y = ct::random_matrix(rng, 40, 4), E = ct::random_matrix(rng, r, 4);
        const MatrixXd reversed = ref::causal(f, E.colwise().reverse(), Y.colwise().reverse());
        EXPECT_TRUE(Close(ref::anticausal(f, Y, E), reversed.colwise().reverse())) << "r = " << r;
    }
}

// V = R^T(F^T(0, R(F(0, X), 0)), 0), each pass by the scalar loops, on a non-square image with
// different vertical and horizontal filters; and the Image overload plane by plane.
TEST(Reference, Filter2dIsTheFourPasses) {
    auto rng = ct::rng_for_test();
    const cascade::Filter2D filter{ct::random_stable_filter(rng, 3, 0.9, true),
                                   ct::random_stable_filter(rng, 2, 0.9, false)};
    const int h = 37, w = 53, rv = 3, rh = 2;
    const MatrixXd X = ct::random_matrix(rng, h, w);
    MatrixXd Z(h, w), V(h, w);
    for (int j = 0; j < w; j++) {
        auto y = direct_causal(filter.vertical, std::vector<double>(rv, 0.0), column(X, j));
        Z.col(j) = as_column(direct_anticausal(filter.vertical, y, std::vector<double>(rv, 0.0)));
    }
    for (int i = 0; i < h; i++) {
        auto u = direct_causal(filter.horizontal, std::vector<double>(rh, 0.0), row(Z, i));
        V.row(i) =
            as_column(direct_anticausal(filter.horizontal, u, std::vector<double>(rh, 0.0))).transpose();
    }
    EXPECT_TRUE(Close(ref::filter_2d(filter, X), V));

    const cascade::Image image = ct::random_image(rng, w, h, 3);
    const auto planes = ref::filter_2d(filter, image);
    ASSERT_EQ(planes.size(), 3u);
    for (int c = 0; c < 3; c++) {
        const MatrixXd p = ref::plane(image, c);
        EXPECT_EQ(p(5, 7), double(image.at(7, 5, c)));
        EXPECT_TRUE(Close(planes[c], ref::filter_2d(filter, p))) << "channel " << c;
    }
}

TEST(Reference, Linearity) {
    auto rng = ct::rng_for_test();
    const double alpha = 0.37, beta = -1.9;
    for (int r = 1; r <= 5; r++) {
        const auto f = ct::random_stable_filter(rng, r, 0.9, true);
        const int h = 30, w = 5;
        auto rm = [&](int rows, int cols) { return ct::random_matrix(rng, rows, cols); };
        const MatrixXd X1 = rm(h, w), X2 = rm(h, w), P1 = rm(r, w), P2 = rm(r, w);
        EXPECT_TRUE(Close(ref::causal(f, alpha * P1 + beta * P2, alpha * X1 + beta * X2),
                          alpha * ref::causal(f, P1, X1) + beta * ref::causal(f, P2, X2)));
        EXPECT_TRUE(Close(ref::anticausal(f, alpha * X1 + beta * X2, alpha * P1 + beta * P2),
                          alpha * ref::anticausal(f, X1, P1) + beta * ref::anticausal(f, X2, P2)));
        const MatrixXd Q1 = rm(h, r), Q2 = rm(h, r);
        EXPECT_TRUE(Close(ref::causal_rows(f, alpha * Q1 + beta * Q2, alpha * X1 + beta * X2),
                          alpha * ref::causal_rows(f, Q1, X1) + beta * ref::causal_rows(f, Q2, X2)));
        EXPECT_TRUE(Close(ref::anticausal_rows(f, alpha * X1 + beta * X2, alpha * Q1 + beta * Q2),
                          alpha * ref::anticausal_rows(f, X1, Q1) + beta * ref::anticausal_rows(f, X2, Q2)));
        const cascade::Filter2D filter{f, ct::random_stable_filter(rng, 6 - r, 0.9, false)};
        EXPECT_TRUE(Close(ref::filter_2d(filter, alpha * X1 + beta * X2),
                          alpha * ref::filter_2d(filter, X1) + beta * ref::filter_2d(filter, X2)));
    }
}

}  // namespace
