#pragma once
// Exact boundaries (runtime/boundary.h) as Halide Funcs: the zero-feedback passes of one
// dimension give up their observables, a run-time matrix turns them into the exact feedbacks,
// and tables of the dimension's responses to those feedbacks say what they add to each sample.
#include <Halide.h>

#include <string>
#include <vector>

#include "generators/recursive_filter.h"

namespace cascade {

// A dimension's run-time tables: `matrix` (2K + 2, 2K), the map from observables to feedbacks;
// `start` (K, m_s) and `end` (K, m_e), the responses at the first m_s and last m_e samples (the
// latter counted from the end).
struct BoundaryInputs {
    Halide::Func matrix, start, end;
    Halide::Expr start_rows, end_rows;
};

// The names of an exact variant's six table inputs, in the order the runtime passes them:
// boundary_{y,x}_{matrix,start,end} (runtime/iir.cpp binds them by these names).
std::vector<std::string> boundary_input_names();

// feedbacks(s, across, c), s ∈ [0, 2K): the causal state before each line along `dim` (K),
// then the anticausal state after it (K), from the outputs of its zero-feedback sections
// (`causal`, `anticausal`, each of order q) and the line's edge samples in `input`.
Halide::Func exact_feedbacks(const std::string &name, const std::vector<Halide::Func> &causal,
                             const std::vector<Halide::Func> &anticausal, Halide::Func input, Dim dim,
                             Halide::Expr extent, int q, const BoundaryInputs &tables);

// `out` (x, y, c): `in` with what the feedbacks add near both ends of each line along `dim`: a
// copy, then two updates over the first m_s and the last m_e samples of every line (the start
// and end tables' rows), which the schedule maps across the lines.
struct CorrectedLines {
    Halide::Func func;
    Dim dim;
};
CorrectedLines add_boundary_correction(Halide::Func out, Halide::Func in, Halide::Func feedbacks,
                                       const BoundaryInputs &tables, int K, Dim dim, Halide::Expr extent);

}  // namespace cascade
