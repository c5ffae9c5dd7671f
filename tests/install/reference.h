#pragma once
// The separable causal–anticausal filter in double, written from its definition: each line
// extended `pad` samples past both ends, filtered causally then anticausally from zero states.
#include <cmath>
#include <functional>
#include <vector>

using Line = std::vector<double>;
using Extension = std::function<long(long i, long n)>;  // the sample index position i holds

inline Line filter_line(const Line &x, double gain, const std::vector<double> &a, const Extension &at,
                        long pad) {
    const long n = long(x.size()), m = n + 2 * pad;
    Line y(m, 0.0), z(m, 0.0);
    for (long i = 0; i < m; i++) {
        y[i] = gain * x[at(i - pad, n)];
        for (size_t k = 1; k <= a.size(); k++)
            if (i >= long(k)) y[i] -= a[k - 1] * y[i - k];
    }
    for (long i = m - 1; i >= 0; i--) {
        z[i] = gain * y[i];
        for (size_t k = 1; k <= a.size(); k++)
            if (i + long(k) < m) z[i] -= a[k - 1] * z[i + k];
    }
    return Line(z.begin() + pad, z.begin() + pad + n);
}

// An image as rows; columns first, then rows, as Cascade defines the 2D filter.
inline std::vector<Line> filter_2d(std::vector<Line> image, double gain, const std::vector<double> &a,
                                   const Extension &at, long pad) {
    const size_t h = image.size(), w = image[0].size();
    for (size_t x = 0; x < w; x++) {
        Line column(h);
        for (size_t y = 0; y < h; y++) column[y] = image[y][x];
        column = filter_line(column, gain, a, at, pad);
        for (size_t y = 0; y < h; y++) image[y][x] = column[y];
    }
    for (Line &row : image) row = filter_line(row, gain, a, at, pad);
    return image;
}

inline long clamp_at(long i, long n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
inline long reflect_at(long i, long n) {
    long p = ((i % (2 * n)) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
}
