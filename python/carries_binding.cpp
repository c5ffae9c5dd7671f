// The carries of chunked recursions (cascade/carries.h) for the package's Dask arrays: a chunk
// length's matrices, every chunk's entering states solved for many lines at once, and the
// summaries' sums and the corrections over a host chunk's rows.
#include <cascade/carries.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "dlpack_buffers.h"

namespace cascade_python {
namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

Array matrix(const std::vector<double> &values, int rows, int columns) {
    Array out({rows, columns});
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

py::tuple chunk_matrices(double gain, const std::vector<double> &feedback, int n) {
    const cascade::ChunkCarries c = cascade::chunk_carries({gain, feedback}, n);
    return py::make_tuple(matrix(c.we, n, c.r), matrix(c.wh, n, c.r), matrix(c.gu, n, c.r),
                          matrix(c.gv, n, c.r), matrix(c.lc, c.r, c.r), matrix(c.mu, c.r, c.r),
                          matrix(c.mv, c.r, c.r));
}

Array solve(double gain, const std::vector<double> &feedback, const std::string &boundary,
            const std::vector<int> &lengths, const Array &summaries) {
    const cascade::RecursiveFilter filter{gain, feedback};
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    const int r = filter.order(), K = int(lengths.size());
    const int width = cascade::carry_summary_width(r, b);
    if (summaries.ndim() != 3 || summaries.shape(1) != K || summaries.shape(2) != width)
        throw Error("internal: summaries are lines × chunks × " + std::to_string(width));
    const int64_t lines = summaries.shape(0);
    Array states({int64_t(lines), int64_t(K), int64_t(2 * r)});
    const double *in = summaries.data();
    double *out = states.mutable_data();
    {
        py::gil_scoped_release release;
        cascade::solve_carries(filter, b, lengths, in, lines, out);
    }
    return states;
}

// The lines of a chunk as (before, n, after) with element strides: the rows a summary sums and a
// correction updates, read and written where the chunk lives (host arrays; CuPy's go through
// CuPy's own products).
struct Lines {
    py::buffer_info info;
    int64_t before, n, after, sb, si, sc;
    Lines(const py::array &a, bool writable) : info(a.request(writable)) {
        if (info.ndim != 3) throw Error("internal: lines are (before, n, after)");
        before = info.shape[0], n = info.shape[1], after = info.shape[2];
        sb = info.strides[0] / info.itemsize, si = info.strides[1] / info.itemsize,
        sc = info.strides[2] / info.itemsize;
        if (after > 1 && sc != 1) throw Error("internal: lines' last axis must be contiguous");
        if (after == 1) sc = 1;
    }
};

// Columns of a row handled together: K·kBlock accumulators stay in registers.
constexpr int kBlock = 8;

using Double4 = double __attribute__((vector_size(32)));

template <typename T>
inline __attribute__((always_inline)) Double4 load4(const T *p) {
    if constexpr (std::is_same_v<T, double>) {
        Double4 v;
        std::memcpy(&v, p, sizeof v);
        return v;
    } else {
        using Float4 = float __attribute__((vector_size(16)));
        Float4 v;
        std::memcpy(&v, p, sizeof v);
        return __builtin_convertvector(v, Double4);
    }
}

// o0[j] = Σ_i wt[j, i]·x0[i] and o1 likewise for x1: two contiguous lines, 2K independent sums
// four samples wide (one line alone keeps too few sums in flight to hide the multiply-add latency).
template <typename T, int K>
inline __attribute__((always_inline)) void sum_two_lines(const T *x0, const T *x1, const double *wt,
                                                         int64_t m, double *o0, double *o1) {
    Double4 a0[K] = {}, a1[K] = {};
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) {
        const Double4 v0 = load4(x0 + i), v1 = load4(x1 + i);
        for (int j = 0; j < K; j++) {
            const Double4 w = load4(wt + j * m + i);
            a0[j] += w * v0;
            a1[j] += w * v1;
        }
    }
    for (int j = 0; j < K; j++) {
        double s0 = a0[j][0] + a0[j][1] + a0[j][2] + a0[j][3], s1 = a1[j][0] + a1[j][1] + a1[j][2] + a1[j][3];
        for (int64_t k = i; k < m; k++) {
            s0 += wt[j * m + k] * double(x0[k]);
            s1 += wt[j * m + k] * double(x1[k]);
        }
        o0[j] = s0;
        o1[j] = s1;
    }
}

// out[b, j, c] = Σ_i w[i, j]·x[b, a + i, c] over K sums: blocks of columns, or where each line is
// one column (after = 1) blocks of rows, partial sums added at the end.
template <typename T, int K>
inline __attribute__((always_inline)) void sum_rows(const Lines &x, const T *data, int64_t a, const double *w,
                                                    const double *wt, int64_t m, double *out) {
    for (int64_t b = 0; b < x.before; b++) {
        const T *base = data + b * x.sb + a * x.si;
        double *o = out + b * K * x.after;
        if (x.after == 1) {
            if (x.si == 1 && b + 1 < x.before) {  // two lines at a time, sharing the weights' loads
                sum_two_lines<T, K>(base, base + x.sb, wt, m, o, o + K);
                b++;
                continue;
            }
            for (int j = 0; j < K; j++) {
                double v = 0;
                for (int64_t k = 0; k < m; k++) v += wt[j * m + k] * double(base[k * x.si]);
                o[j] = v;
            }
            continue;
        }
        int64_t c0 = 0;
        for (; c0 + kBlock <= x.after; c0 += kBlock) {
            double acc[K][kBlock] = {};
            for (int64_t i = 0; i < m; i++) {
                const T *row = base + i * x.si + c0;
                double v[kBlock];
                for (int t = 0; t < kBlock; t++) v[t] = double(row[t]);
                for (int j = 0; j < K; j++)
                    for (int t = 0; t < kBlock; t++) acc[j][t] += w[i * K + j] * v[t];
            }
            for (int j = 0; j < K; j++)
                for (int t = 0; t < kBlock; t++) o[j * x.after + c0 + t] = acc[j][t];
        }
        for (int64_t c = c0; c < x.after; c++)
            for (int j = 0; j < K; j++) {
                double v = 0;
                for (int64_t i = 0; i < m; i++) v += w[i * K + j] * double(base[i * x.si + c]);
                o[j * x.after + c] = v;
            }
    }
}

// lines[b, a + i, c] += Σ_j g[i, j]·s[b, j, c] over R states.
template <typename T, int R>
inline __attribute__((always_inline)) void add_to_rows(const Lines &y, T *data, int64_t a, const double *g,
                                                       const double *gt, int64_t m, const double *s) {
    for (int64_t b = 0; b < y.before; b++) {
        const double *sb = s + b * R * y.after;
        T *base = data + b * y.sb + a * y.si;
        if (y.after == 1) {  // along the line, from g by state (gt): the rows' sums side by side
            for (int64_t i = 0; i < m; i++) {
                double v = 0;
                for (int j = 0; j < R; j++) v += gt[j * m + i] * sb[j];
                base[i * y.si] = T(double(base[i * y.si]) + v);
            }
            continue;
        }
        for (int64_t i = 0; i < m; i++) {
            T *__restrict row = base + i * y.si;
            double gi[R];
            for (int j = 0; j < R; j++) gi[j] = g[i * R + j];
            for (int64_t c = 0; c < y.after; c++) {
                double v = 0;
                for (int j = 0; j < R; j++) v += gi[j] * sb[j * y.after + c];
                row[c] = T(double(row[c]) + v);
            }
        }
    }
}

// K (or R) of 1 to 6 compiled for each (2r for an order up to 3); more by the general loops.
template <typename T, int K>
inline __attribute__((always_inline)) void sums_of(const Lines &x, int64_t a, const double *w,
                                                   const double *wt, int64_t m, int k, double *out) {
    const T *data = static_cast<const T *>(x.info.ptr);
    if constexpr (K > 6) {
        for (int64_t b = 0; b < x.before; b++)
            for (int j = 0; j < k; j++)
                for (int64_t c = 0; c < x.after; c++) {
                    double v = 0;
                    for (int64_t i = 0; i < m; i++)
                        v += w[i * k + j] * double(data[b * x.sb + (a + i) * x.si + c * x.sc]);
                    out[(b * k + j) * x.after + c] = v;
                }
    } else if (k == K) {
        sum_rows<T, K>(x, data, a, w, wt, m, out);
    } else {
        sums_of<T, K + 1>(x, a, w, wt, m, k, out);
    }
}

template <typename T, int R>
inline __attribute__((always_inline)) void add_of(const Lines &y, int64_t a, const double *g,
                                                  const double *gt, int64_t m, int r, const double *s) {
    T *data = static_cast<T *>(y.info.ptr);
    if constexpr (R > 6) {
        for (int64_t b = 0; b < y.before; b++)
            for (int64_t i = 0; i < m; i++)
                for (int64_t c = 0; c < y.after; c++) {
                    double v = 0;
                    for (int j = 0; j < r; j++) v += g[i * r + j] * s[(b * r + j) * y.after + c];
                    T &t = data[b * y.sb + (a + i) * y.si + c * y.sc];
                    t = T(double(t) + v);
                }
    } else if (r == R) {
        add_to_rows<T, R>(y, data, a, g, gt, m, s);
    } else {
        add_of<T, R + 1>(y, a, g, gt, m, r, s);
    }
}

// The same code twice: for AVX2 with FMA where the CPU has them (4 doubles a vector, not SSE2's 2),
// chosen when called.
template <typename T>
__attribute__((target("avx2,fma"))) void sums_avx2(const Lines &x, int64_t a, const double *w,
                                                   const double *wt, int64_t m, int k, double *out) {
    sums_of<T, 1>(x, a, w, wt, m, k, out);
}
template <typename T>
void sums_plain(const Lines &x, int64_t a, const double *w, const double *wt, int64_t m, int k, double *out) {
    sums_of<T, 1>(x, a, w, wt, m, k, out);
}
template <typename T>
__attribute__((target("avx2,fma"))) void add_avx2(const Lines &y, int64_t a, const double *g,
                                                  const double *gt, int64_t m, int r, const double *s) {
    add_of<T, 1>(y, a, g, gt, m, r, s);
}
template <typename T>
void add_plain(const Lines &y, int64_t a, const double *g, const double *gt, int64_t m, int r,
               const double *s) {
    add_of<T, 1>(y, a, g, gt, m, r, s);
}

bool has_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
}

// By kind and size, not by the dtype object: an array unpickled on a Dask worker may carry an
// equal dtype that is not NumPy's own instance.
bool is_f64(const py::array &a) {
    const py::dtype t = a.dtype();
    if (t.kind() != 'f' || (a.itemsize() != 4 && a.itemsize() != 8) || !t.attr("isnative").cast<bool>())
        throw Error("internal: float32 or float64 lines");
    return a.itemsize() == 8;
}

// Σ_i weights[i, j]·lines[:, a + i, :] in float64, (before, k, after): a chunk's summary terms.
Array weighted_rows(const py::array &lines, int64_t a, const Array &weights) {
    const Lines x(lines, false);
    if (weights.ndim() != 2 || a < 0 || a + weights.shape(0) > x.n)
        throw Error("internal: weights past the lines");
    const int64_t m = weights.shape(0);
    const int k = int(weights.shape(1));
    Array out({x.before, int64_t(k), x.after});
    std::vector<double> wt(size_t(m) * k);  // the weights by column, for lines along the last axis
    for (int64_t i = 0; i < m; i++)
        for (int j = 0; j < k; j++) wt[size_t(j) * m + i] = weights.data()[i * k + j];
    const bool f64 = is_f64(lines);
    double *o = out.mutable_data();
    const double *w = weights.data();
    py::gil_scoped_release release;
    if (f64) {
        (has_avx2() ? sums_avx2<double> : sums_plain<double>)(x, a, w, wt.data(), m, k, o);
    } else {
        (has_avx2() ? sums_avx2<float> : sums_plain<float>)(x, a, w, wt.data(), m, k, o);
    }
    return out;
}

// lines[:, a + i, :] += Σ_j g[i, j]·states[:, j, :], in place: a chunk's response to its entering
// states on the rows it reaches.
void add_rows(const py::array &lines, int64_t a, const Array &g, const Array &states) {
    const Lines y(lines, true);
    const int64_t m = g.shape(0);
    const int r = int(g.shape(1));
    if (g.ndim() != 2 || a < 0 || a + m > y.n || states.ndim() != 3 || states.shape(0) != y.before ||
        states.shape(1) != r || states.shape(2) != y.after)
        throw Error("internal: a correction's shapes disagree with the lines'");
    const bool f64 = is_f64(lines);
    std::vector<double> gt(y.after == 1 ? size_t(m) * r : 0);  // g by state, for lines along the last axis
    if (y.after == 1)
        for (int64_t i = 0; i < m; i++)
            for (int j = 0; j < r; j++) gt[size_t(j) * m + i] = g.data()[i * r + j];
    py::gil_scoped_release release;
    if (f64) {
        (has_avx2() ? add_avx2<double> : add_plain<double>)(y, a, g.data(), gt.data(), m, r, states.data());
    } else {
        (has_avx2() ? add_avx2<float> : add_plain<float>)(y, a, g.data(), gt.data(), m, r, states.data());
    }
}

// Every line of `lines` (before, n, after: float64) filtered exactly under `boundary` (none: from
// zero state at both ends) by plain loops over the carries' matrices: a chunk of one line. For
// the short arrays of summaries, where a pipeline's call costs more than the work.
Array filter_lines(double gain, const std::vector<double> &feedback, const std::string &boundary,
                   const Array &lines) {
    const cascade::RecursiveFilter filter{gain, feedback};
    const cascade::Boundary b = cascade::parse_boundary(boundary);
    if (lines.ndim() != 3) throw Error("internal: lines are (before, n, after)");
    const int64_t before = lines.shape(0), after = lines.shape(2);
    const int n = int(lines.shape(1)), r = filter.order();
    Array out({before, int64_t(n), after});
    const double *in = lines.data();
    double *o = out.mutable_data();
    py::gil_scoped_release release;
    // The lines side by side, the lines innermost, so that each step reads its rows once, in order:
    // lines along the last axis (after = 1) transposed there and back.
    const bool transpose = after == 1 && before > 1;
    const int64_t groups = transpose ? 1 : before, width = transpose ? before : after;
    std::vector<double> t(transpose ? size_t(n) * size_t(before) : 0);
    if (transpose)
        for (int64_t k = 0; k < before; k++)
            for (int i = 0; i < n; i++) t[size_t(i) * before + k] = in[k * n + i];
    std::vector<double> summary(size_t(cascade::carry_summary_width(r, b)) * width),
        states(size_t(2 * r) * width);
    for (int64_t k = 0; k < groups; k++) {
        const double *x = transpose ? t.data() : in + k * n * after;
        double *y = transpose ? t.data() : o + k * n * after;
        cascade::summarize_chunk(filter, b, x, n, width, true, true, summary.data(), width);
        cascade::solve_carries(filter, b, {n}, summary.data(), width, states.data());
        cascade::recurse_from_states(filter, states.data(), x, y, n, width, width);
    }
    if (transpose)
        for (int64_t k = 0; k < before; k++)
            for (int i = 0; i < n; i++) o[k * n + i] = t[size_t(i) * before + k];
    return out;
}

}  // namespace
}  // namespace cascade_python

void bind_carries(pybind11::module_ &m) {
    using namespace cascade_python;
    m.def("chunk_carries", &chunk_matrices);
    m.def("solve_carries", &solve);
    m.def("weighted_rows", &weighted_rows);
    m.def("add_rows", &add_rows);
    m.def("filter_lines", &filter_lines);
    m.def("carry_reach", [](double gain, const std::vector<double> &feedback) {
        return cascade::carry_reach({gain, feedback});
    });
    m.def("carry_summary_width", [](int order, const std::string &boundary) {
        return cascade::carry_summary_width(order, cascade::parse_boundary(boundary));
    });
}
