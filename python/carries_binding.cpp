// The carries of chunked recursions (cascade/carries.h) for the package's Dask arrays: a chunk
// length's matrices, and every chunk's entering states solved for many lines at once.
#include <cascade/carries.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
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

}  // namespace
}  // namespace cascade_python

void bind_carries(pybind11::module_ &m) {
    using namespace cascade_python;
    m.def("chunk_carries", &chunk_matrices);
    m.def("solve_carries", &solve);
    m.def("carry_reach", [](double gain, const std::vector<double> &feedback) {
        return cascade::carry_reach({gain, feedback});
    });
    m.def("carry_summary_width", [](int order, const std::string &boundary) {
        return cascade::carry_summary_width(order, cascade::parse_boundary(boundary));
    });
}
