#include "reference.h"

namespace cascade::reference {

Matrix causal(const RecursiveFilter &f, const Matrix &P, const Matrix &X) {
    const int r = f.order();
    const Eigen::Index h = X.rows();
    // Stack prologue and block so that y_{i−k} is a plain row lookup.
    Matrix Y(r + h, X.cols());
    Y.topRows(r) = P;
    for (Eigen::Index i = 0; i < h; i++) {
        Y.row(r + i) = f.gain * X.row(i);
        for (int k = 1; k <= r; k++) Y.row(r + i) -= f.feedback[k - 1] * Y.row(r + i - k);
    }
    return Y.bottomRows(h);
}

Matrix anticausal(const RecursiveFilter &f, const Matrix &Y, const Matrix &E) {
    const int r = f.order();
    const Eigen::Index h = Y.rows();
    Matrix Z(h + r, Y.cols());
    Z.bottomRows(r) = E;
    for (Eigen::Index i = h - 1; i >= 0; i--) {
        Z.row(i) = f.gain * Y.row(i);
        for (int k = 1; k <= r; k++) Z.row(i) -= f.feedback[k - 1] * Z.row(i + k);
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
