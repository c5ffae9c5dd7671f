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

// feedbacks(s, across, c), s ∈ [0, 2K): the causal state before each line along `dim` (K),
// then the anticausal state after it (K), from the outputs of its zero-feedback sections
// (`causal`, `anticausal`, each of order q) and the line's edge samples in `input`.
Halide::Func exact_feedbacks(const std::string &name, const std::vector<Halide::Func> &causal,
                             const std::vector<Halide::Func> &anticausal, Halide::Func input, Dim dim,
                             Halide::Expr extent, int q, const BoundaryInputs &tables);

// What the feedbacks add to sample `position` of the line `across` (channel c): the start table
// times the causal feedbacks plus the end table times the anticausal ones.
Halide::Expr boundary_correction(Halide::Func feedbacks, const BoundaryInputs &tables, int K,
                                 Halide::Expr position, Halide::Expr extent, Halide::Expr across,
                                 Halide::Expr c);

}  // namespace cascade
