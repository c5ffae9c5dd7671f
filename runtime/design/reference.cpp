#include "reference.h"

#include <algorithm>

#include "boundary_tables.h"

namespace cascade::reference {

// One column at a time, down its contiguous storage: row-wise updates stride across the whole
// matrix, which made these references (the exact boundaries' seeds, the tests' definitions) the
// slowest part of plan setup and of the tests. Each sample sees the same operations in the same
// order as before, so the results are identical.
Matrix causal(const RecursiveFilter &f, const Matrix &P, const Matrix &X) {
    const int r = f.order();
    const Eigen::Index h = X.rows();
    // Stack prologue and block so that y_{i−k} is a plain lookup.
    Matrix Y(r + h, X.cols());
    Y.topRows(r) = P;
    for (Eigen::Index c = 0; c < X.cols(); c++) {
        double *y = Y.col(c).data();
        const double *x = X.col(c).data();
        for (Eigen::Index i = 0; i < h; i++) {
            double v = f.gain * x[i];
            for (int k = 1; k <= r; k++) v -= f.feedback[k - 1] * y[r + i - k];
            y[r + i] = v;
        }
    }
    return Y.bottomRows(h);
}

Matrix anticausal(const RecursiveFilter &f, const Matrix &Y, const Matrix &E) {
    const int r = f.order();
    const Eigen::Index h = Y.rows();
    Matrix Z(h + r, Y.cols());
    Z.bottomRows(r) = E;
    for (Eigen::Index c = 0; c < Y.cols(); c++) {
        double *z = Z.col(c).data();
        const double *y = Y.col(c).data();
        for (Eigen::Index i = h - 1; i >= 0; i--) {
            double v = f.gain * y[i];
            for (int k = 1; k <= r; k++) v -= f.feedback[k - 1] * z[i + k];
            z[i] = v;
        }
    }
    return Z.topRows(h);
}

Matrix causal_rows(const RecursiveFilter &f, const Matrix &Pt, const Matrix &X) {
    return causal(f, Pt.transpose(), X.transpose()).transpose();
}

Matrix anticausal_rows(const RecursiveFilter &f, const Matrix &X, const Matrix &Et) {
    return anticausal(f, X.transpose(), Et.transpose()).transpose();
}

Matrix filter_2d(const Filter2D &filter, const Matrix &X) {
    const auto h = X.rows(), w = X.cols();
    const int rv = filter.vertical.order(), rh = filter.horizontal.order();
    Matrix Y = causal(filter.vertical, Matrix::Zero(rv, w), X);
    Matrix Z = anticausal(filter.vertical, Y, Matrix::Zero(rv, w));
    Matrix U = causal_rows(filter.horizontal, Matrix::Zero(h, rh), Z);
    return anticausal_rows(filter.horizontal, U, Matrix::Zero(h, rh));
}

namespace {

// The rows of X extended by `boundary` `pad` past both ends.
Matrix extended_rows(const Matrix &X, Boundary boundary, Eigen::Index pad) {
    const Eigen::Index h = X.rows();
    Matrix E(h + 2 * pad, X.cols());
    for (Eigen::Index i = 0; i < E.rows(); i++) {
        const int64_t source = extended_index(boundary, i - pad, h);
        if (source < 0)
            E.row(i).setZero();
        else
            E.row(i) = X.row(source);
    }
    return E;
}

// Filters each column of X extended by `boundary` past both ends, as far as the filter decays; crops.
Matrix extended_columns(const RecursiveFilter &f, const Matrix &X, Boundary boundary) {
    const Eigen::Index h = X.rows(), pad = decay_length({f}, 1e-20);
    const Matrix E = extended_rows(X, boundary, pad);
    const int r = f.order();
    Matrix Z = anticausal(f, causal(f, Matrix::Zero(r, X.cols()), E), Matrix::Zero(r, X.cols()));
    return Z.middleRows(pad, h);
}

}  // namespace

Matrix extended(const Matrix &X, Boundary boundary, int pad) {
    return extended_rows(extended_rows(X, boundary, pad).transpose(), boundary, pad).transpose();
}

Matrix filter_2d(const Filter2D &filter, const Matrix &X, Boundary boundary) {
    if (boundary == Boundary::none) return filter_2d(filter, X);
    const Matrix Z = extended_columns(filter.vertical, X, boundary);
    return extended_columns(filter.horizontal, Z.transpose(), boundary).transpose();
}

Matrix fir_2d(const std::vector<double> &vertical, const std::vector<double> &horizontal, const Matrix &X) {
    const Eigen::Index h = X.rows(), w = X.cols();
    const int rv = int(vertical.size() / 2), rh = int(horizontal.size() / 2);
    Matrix V = Matrix::Zero(h, w), U = Matrix::Zero(h, w);
    for (Eigen::Index y = 0; y < h; y++)
        for (int k = 0; k <= 2 * rv; k++)
            if (y + k - rv >= 0 && y + k - rv < h) V.row(y) += vertical[k] * X.row(y + k - rv);
    for (Eigen::Index x = 0; x < w; x++)
        for (int k = 0; k <= 2 * rh; k++)
            if (x + k - rh >= 0 && x + k - rh < w) U.col(x) += horizontal[k] * V.col(x + k - rh);
    return U;
}

Matrix fir_iir_2d(const FirIirGaussian &g, const Matrix &X) {
    return filter_2d(Filter2D{g.pass, g.pass}, fir_2d(g.taps, g.taps, X));
}

namespace {

// One line of the two-way filter: a column vector of L samples cut at m = ⌊L/2⌋.
Matrix two_way_line(const TwoWayGaussian &g, const Matrix &x, Boundary boundary, Eigen::Index pad) {
    const Eigen::Index L = x.rows(), m = L / 2;
    const int radius = int(g.kernel.size() / 2);
    pad = std::max<Eigen::Index>(pad, radius);
    const Matrix e = extended_rows(x, boundary, pad);  // sample i at pad + i
    double centre = 0;
    for (int k = -radius; k <= radius; k++) centre += g.kernel[k + radius] * e(pad + m + k, 0);
    // First pass, from the far ends inward, from zero `pad` samples past them.
    Matrix left = e.topRows(pad + m), right = e.middleRows(pad + m + 1, L - 1 - m + pad);
    for (const RecursiveFilter &s : g.sections) {
        const Matrix zeros = Matrix::Zero(s.order(), 1);
        left = causal(s, zeros, left);
        right = anticausal(s, right, zeros);
    }
    left = left.bottomRows(m).eval();
    right = right.topRows(L - 1 - m).eval();
    // Second pass, from the centre outward, every section's state the centre value.
    for (const RecursiveFilter &s : g.sections) {
        const Matrix seed = Matrix::Constant(s.order(), 1, centre);
        left = anticausal(s, left, seed);
        right = causal(s, seed, right);
    }
    Matrix y(L, 1);
    y << left, Matrix::Constant(1, 1, centre), right;
    return y;
}

}  // namespace

Matrix two_way_2d(const TwoWayGaussian &g, const Matrix &X, Boundary boundary) {
    const Eigen::Index pad = boundary == Boundary::none || boundary == Boundary::zero
                                 ? 0
                                 : Eigen::Index(decay_length(g.sections, 1e-15));
    Matrix V(X.rows(), X.cols()), U(X.rows(), X.cols());
    for (Eigen::Index c = 0; c < X.cols(); c++) V.col(c) = two_way_line(g, X.col(c), boundary, pad);
    for (Eigen::Index r = 0; r < X.rows(); r++)
        U.row(r) = two_way_line(g, V.row(r).transpose(), boundary, pad).transpose();
    return U;
}

Matrix summed_area_table(const Matrix &X) {
    Matrix V = X;
    for (Eigen::Index i = 1; i < V.rows(); i++) V.row(i) += V.row(i - 1);
    for (Eigen::Index j = 1; j < V.cols(); j++) V.col(j) += V.col(j - 1);
    return V;
}

Matrix plane(const Image &image, int channel) {
    Matrix m(image.height, image.width);
    for (int y = 0; y < image.height; y++)
        for (int x = 0; x < image.width; x++) m(y, x) = image.at(x, y, channel);
    return m;
}

std::vector<Matrix> filter_2d(const Filter2D &filter, const Image &image) {
    std::vector<Matrix> out;
    for (int c = 0; c < image.channels; c++) out.push_back(filter_2d(filter, plane(image, c)));
    return out;
}

}  // namespace cascade::reference
