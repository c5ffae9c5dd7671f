#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "boundary_tables.h"
#include "cascade/error.h"
#include "names.h"
#include "reference.h"

namespace cascade {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

constexpr Named<Boundary> kBoundaries[] = {{Boundary::none, "none"},       {Boundary::zero, "zero"},
                                           {Boundary::clamp, "clamp"},     {Boundary::periodic, "periodic"},
                                           {Boundary::reflect, "reflect"}, {Boundary::mirror, "mirror"}};

int64_t positive_mod(int64_t i, int64_t m) { return (i % m + m) % m; }

// Lines as the columns of a matrix, filtered by a cascade section by section. `states` receives
// each section's state at the far end of its pass: the last q outputs (causal, `prologue` rows
// stacked above) or the first q (anticausal, zero epilogue below).
MatrixXd run_causal(const std::vector<RecursiveFilter> &sections, const MatrixXd &X, MatrixXd *states) {
    const int q = sections[0].order();
    MatrixXd V = X;
    for (size_t j = 0; j < sections.size(); j++) {
        MatrixXd Y(q + V.rows(), V.cols());
        Y.topRows(q).setZero();
        Y.bottomRows(V.rows()) = reference::causal(sections[j], MatrixXd::Zero(q, V.cols()), V);
        if (states) states->middleRows(j * q, q) = Y.bottomRows(q);
        V = Y.bottomRows(V.rows());
    }
    return V;
}

MatrixXd run_anticausal(const std::vector<RecursiveFilter> &sections, const MatrixXd &Y, MatrixXd *states) {
    const int q = sections[0].order();
    MatrixXd V = Y;
    for (size_t j = 0; j < sections.size(); j++) {
        MatrixXd Z(V.rows() + q, V.cols());
        Z.bottomRows(q).setZero();
        Z.topRows(V.rows()) = reference::anticausal(sections[j], V, MatrixXd::Zero(q, V.cols()));
        if (states) states->middleRows(j * q, q) = Z.topRows(q);
        V = Z.topRows(V.rows());
    }
    return V;
}

// (e°, p1°, x_0, x_{n−1}) of each column of X, as rows.
MatrixXd observables(const std::vector<RecursiveFilter> &sections, const MatrixXd &X) {
    const int K = int(sections.size()) * sections[0].order();
    MatrixXd causal_end(K, X.cols()), anticausal_start(K, X.cols());
    run_anticausal(sections, run_causal(sections, X, &causal_end), &anticausal_start);
    MatrixXd O(X.cols(), 2 * K + 2);
    O.leftCols(K) = causal_end.transpose();
    O.middleCols(K, K) = anticausal_start.transpose();
    O.col(2 * K) = X.row(0).transpose();
    O.col(2 * K + 1) = X.row(X.rows() - 1).transpose();
    return O;
}

// One dimension's cascade as a linear state machine, one sample per step. A causal state holds
// each section's last q outputs, oldest first (at sample 0: the prologue y_{−q} … y_{−1}); an
// anticausal state each section's next q outputs, nearest first (before sample n − 1: the
// epilogue z_n … z_{n+q−1}). Each step is the serial definition's arithmetic in its order.
struct StateMachine {
    const std::vector<RecursiveFilter> &sections;
    int q, K;

    explicit StateMachine(const std::vector<RecursiveFilter> &s)
        : sections(s), q(s[0].order()), K(int(s.size()) * s[0].order()) {}

    double causal(Eigen::Ref<VectorXd> s, double x) const {
        for (size_t j = 0; j < sections.size(); j++) {
            const RecursiveFilter &f = sections[j];
            double *last = s.data() + j * q;
            double y = f.gain * x;
            for (int k = 1; k <= q; k++) y -= f.feedback[k - 1] * last[q - k];
            std::copy(last + 1, last + q, last);
            last[q - 1] = x = y;
        }
        return x;
    }

    double anticausal(Eigen::Ref<VectorXd> w, double x) const {
        for (size_t j = 0; j < sections.size(); j++) {
            const RecursiveFilter &f = sections[j];
            double *next = w.data() + j * q;
            double z = f.gain * x;
            for (int k = 1; k <= q; k++) z -= f.feedback[k - 1] * next[k - 1];
            std::copy_backward(next, next + q - 1, next + q);
            next[0] = x = z;
        }
        return x;
    }

    // The step's matrix on the state with zero input (column k: from unit state k), and for the
    // causal step the output's row.
    MatrixXd causal_matrix(Eigen::RowVectorXd *output) const {
        MatrixXd A(K, K);
        output->resize(K);
        for (int k = 0; k < K; k++) {
            VectorXd s = VectorXd::Unit(K, k);
            (*output)(k) = causal(s, 0.0);
            A.col(k) = s;
        }
        return A;
    }

    MatrixXd anticausal_matrix(VectorXd *input) const {
        MatrixXd B(K, K);
        for (int k = 0; k < K; k++) {
            VectorXd w = VectorXd::Unit(K, k);
            anticausal(w, 0.0);
            B.col(k) = w;
        }
        *input = VectorXd::Zero(K);
        anticausal(*input, 1.0);
        return B;
    }
};

MatrixXd power(MatrixXd A, int64_t p) {
    MatrixXd result = MatrixXd::Identity(A.rows(), A.cols());
    for (; p > 0; p >>= 1) {
        if (p & 1) result = result * A;
        A = A * A;
    }
    return result;
}

// Every extension repeats with this period on each side of the line (constant ones with 1).
int64_t period(Boundary boundary, int64_t n) {
    switch (boundary) {
        case Boundary::periodic:
            return n;
        case Boundary::reflect:
            return 2 * n;
        case Boundary::mirror:
            return n == 1 ? 1 : 2 * n - 2;
        default:
            return 1;
    }
}

// The exact (p, e) of each column of X: the filter of its infinite extension, as rows.
//
// The extension repeats with period P past each end, and the filter is stable, so the causal
// state entering sample 0 is the fixed point s = A^P s + c of one period (c: the period filtered
// from rest), and likewise the anticausal state entering from the right of a periodic input.
// Right of the line, the causal output is the periodic steady state plus the free response
// C·A^j·d of the state's departure d from it; the anticausal pass maps that response to X·d,
// where X = B·X·A + b·C (a Stein equation). So each line costs O(n + P) however slowly the filter
// decays: writing the extension out past the decay cost O(decay) time and memory per line, which
// reached 90 s and 11 GB for a pole at 0.999999 on a 9×9 image.
MatrixXd exact_seeds(const std::vector<RecursiveFilter> &sections, const MatrixXd &X, Boundary boundary) {
    const StateMachine cascade(sections);
    const int K = cascade.K;
    const int64_t n = X.rows(), P = period(boundary, n);
    Eigen::RowVectorXd C;
    VectorXd b;
    const MatrixXd A = cascade.causal_matrix(&C), B = cascade.anticausal_matrix(&b);
    const MatrixXd I = MatrixXd::Identity(K, K);
    const Eigen::PartialPivLU<MatrixXd> causal_period(I - power(A, P)), anticausal_period(I - power(B, P));
    // vec(B·X·A) = (Aᵀ ⊗ B)·vec(X).
    MatrixXd stein(K * K, K * K);
    for (int l = 0; l < K; l++)
        for (int j = 0; j < K; j++) stein.block(j * K, l * K, K, K) = -A(l, j) * B;
    stein += MatrixXd::Identity(K * K, K * K);
    const MatrixXd bC = b * C;
    const VectorXd vec_x = stein.partialPivLu().solve(Eigen::Map<const VectorXd>(bC.data(), K * K));
    const Eigen::Map<const MatrixXd> free_response(vec_x.data(), K, K);

    MatrixXd S(X.cols(), 2 * K);
    std::vector<double> steady(static_cast<size_t>(P));
    for (Eigen::Index c = 0; c < X.cols(); c++) {
        auto sample = [&](int64_t i) {
            const int64_t source = extended_index(boundary, i, n);
            return source < 0 ? 0.0 : X(source, c);
        };
        VectorXd s = VectorXd::Zero(K);
        for (int64_t i = -P; i < 0; i++) cascade.causal(s, sample(i));
        s = causal_period.solve(s);
        S.row(c).head(K) = s.transpose();
        for (int64_t i = 0; i < n; i++) cascade.causal(s, sample(i));

        VectorXd periodic = VectorXd::Zero(K);
        for (int64_t i = n; i < n + P; i++) cascade.causal(periodic, sample(i));
        periodic = causal_period.solve(periodic);
        const VectorXd departure = s - periodic;
        for (int64_t j = 0; j < P; j++) steady[size_t(j)] = cascade.causal(periodic, sample(n + j));
        VectorXd w = VectorXd::Zero(K);
        for (int64_t j = P - 1; j >= 0; j--) cascade.anticausal(w, steady[size_t(j)]);
        S.row(c).tail(K) = (anticausal_period.solve(w) + free_response * departure).transpose();
    }
    return S;
}

// Whether a later step reads seed component s: y_{−q+m} (causal) is read by a_k for k ≥ q − m,
// z_{n+m} (anticausal) by a_k for k ≥ m + 1.
bool is_read(const std::vector<RecursiveFilter> &sections, int s) {
    const int q = sections[0].order(), K = int(sections.size()) * q;
    const bool causal = s < K;
    const int j = (s % K) / q, m = s % q;
    int last = 0;
    for (int k = 1; k <= q; k++)
        if (sections[j].feedback[k - 1] != 0.0) last = k;
    return causal ? last >= q - m : last >= m + 1;
}

MatrixXd random_lines(int64_t n, int count, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    MatrixXd X(n, count);
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < count; c++) X(i, c) = normal(rng);
    return X;
}

// Rows of `response` up to the last one above 1e−10 of its largest entry (at least one).
MatrixXd trimmed(const MatrixXd &response) {
    const double threshold = 1e-10 * std::max(response.cwiseAbs().maxCoeff(), 1e-300);
    Eigen::Index rows = 1;
    for (Eigen::Index i = 0; i < response.rows(); i++)
        if (response.row(i).cwiseAbs().maxCoeff() > threshold) rows = i + 1;
    return response.topRows(rows);
}

}  // namespace

Boundary parse_boundary(const std::string &text) { return parse_named(text, kBoundaries, "boundary"); }

std::vector<std::string> boundary_names() { return names_of(kBoundaries); }

const char *boundary_name(Boundary boundary) { return name_of(boundary, kBoundaries); }

int64_t extended_index(Boundary boundary, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    switch (boundary) {
        case Boundary::none:
        case Boundary::zero:
            return -1;
        case Boundary::clamp:
            return i < 0 ? 0 : n - 1;
        case Boundary::periodic:
            return positive_mod(i, n);
        case Boundary::reflect: {
            const int64_t m = positive_mod(i, 2 * n);
            return m < n ? m : 2 * n - 1 - m;
        }
        case Boundary::mirror: {
            if (n == 1) return 0;
            const int64_t m = positive_mod(i, 2 * n - 2);
            return m < n ? m : 2 * n - 2 - m;
        }
    }
    return -1;
}

int margin_for(const RecursiveFilter &filter) {
    require_stable(filter);
    const int64_t length = decay_length(to_sections(filter), 1e-9);
    if (length > std::numeric_limits<int>::max()) {
        std::ostringstream why;
        why << std::setprecision(17) << "a pole of magnitude " << largest_pole(filter)
            << " decays over more than 2^31 samples: no margin can hold it";
        throw Error(why.str());
    }
    return int(length);
}

int64_t decay_length(const std::vector<RecursiveFilter> &sections, double epsilon) {
    double largest = 0;
    for (const RecursiveFilter &s : sections) largest = std::max(largest, largest_pole(s));
    if (largest >= 1) throw Error("an unstable filter has no decay length");
    // A pole of multiplicity m decays like i^(m−1)·ρ^i: twice the plain length covers the cascades
    // built here (repeated poles at most a few deep), plus a floor for tiny ρ.
    const double plain = largest > 0 ? std::log(epsilon) / std::log(largest) : 0.0;
    return int64_t(std::ceil(2 * plain)) + 64;
}

namespace {

// The fitted map from the observables to the feedbacks (BoundaryTables::seeds), checked on fresh
// lines; throws cascade::Error where no such map exists.
MatrixXd fitted_seeds(const std::vector<RecursiveFilter> &sections, int64_t n, Boundary boundary) {
    if (sections.empty()) throw Error("a boundary needs a filter");
    if (n < 1) throw Error("an empty line has no boundary");
    if (boundary == Boundary::none) throw Error("boundary 'none' has no initial feedbacks to compute");
    const int q = sections[0].order(), K = int(sections.size()) * q;
    const int64_t pad = decay_length(sections, 1e-20);
    // The map converges like ρ^n: past the decay length, a line of `pad` samples has the same one.
    const int64_t fit_n = std::min(n, pad);
    const int terms = 2 * K + 2, count = 2 * terms + 8;

    const MatrixXd train = random_lines(fit_n, count, 1), check = random_lines(fit_n, count, 2);
    const MatrixXd O = observables(sections, train), S = exact_seeds(sections, train, boundary);
    const MatrixXd O_check = observables(sections, check), exact = exact_seeds(sections, check, boundary);
    // The map, fitted with the observables' columns scaled by `scale_of` and singular values below
    // `threshold` of the largest taken as zero, and its largest error on the check lines relative
    // to the largest seed (unread components zero and left out).
    auto fit = [&](const VectorXd &scale_of, double threshold, double *relative_error) {
        // The threshold decides the rank as the decomposition is computed: set after it, the
        // rank changes but the decomposition's Z does not (Eigen 3.4 then reads unset entries).
        Eigen::CompleteOrthogonalDecomposition<MatrixXd> solver;
        solver.setThreshold(threshold);
        solver.compute(O * scale_of.cwiseInverse().asDiagonal());
        MatrixXd seeds = (scale_of.cwiseInverse().asDiagonal() * solver.solve(S)).transpose();
        for (int s = 0; s < 2 * K; s++)
            if (!is_read(sections, s)) seeds.row(s).setZero();
        const MatrixXd predicted = O_check * seeds.transpose();
        double error = 0, scale = 1e-300;
        for (int s = 0; s < 2 * K; s++) {
            if (!is_read(sections, s)) continue;
            error = std::max(error, (predicted.col(s) - exact.col(s)).cwiseAbs().maxCoeff());
            scale = std::max(scale, exact.col(s).cwiseAbs().maxCoeff());
        }
        // The variants hold the map in float32: a weight past its range is no map.
        *relative_error = seeds.allFinite() && seeds.cwiseAbs().maxCoeff() < 1e30 ? error / scale : HUGE_VAL;
        return seeds;
    };
    const VectorXd units = VectorXd::Ones(O.cols()), norms = O.colwise().norm().transpose().cwiseMax(1e-300);
    double error = 0;
    MatrixXd seeds = fit(units, 1e-12, &error);
    const double first_weight = std::max(seeds.cwiseAbs().maxCoeff(), 1.0);
    // `weight_bound`: the largest weight taken, against the first fit's largest.
    auto try_fit = [&](const VectorXd &scale_of, double threshold, double weight_bound = HUGE_VAL) {
        if (error <= 1e-9) return;
        double other_error = 0;
        MatrixXd other = fit(scale_of, threshold, &other_error);
        if (other_error < error && other.cwiseAbs().maxCoeff() <= weight_bound * first_weight) {
            seeds = other;
            error = other_error;
        }
    };
    // The observables' scales differ by the gain's (1e−4 and less for poles near 1, against the
    // samples' 1), which can hide a real rank from the threshold: equilibrated columns keep that
    // decision about the lines, not the units. Not the first choice: where the observables are
    // dependent (a line of one sample) equilibration weights a column of a tiny gain's scale by
    // its inverse, past float's range (found by fuzz_design).
    try_fit(norms, 1e-12);
    // Cascades of four sections under mirror have singular values near 1e−13 of the largest that
    // the map needs (2e−9 without them, 2e−12 with them, on 37 to 193 samples; weights 6 times the
    // first fit's): a lower threshold, its map taken where the check lines hold it and its weights
    // stay within 100 times the first fit's, so that noise's directions (huge weights that the
    // check lines' own dependences would hide) never reach the float32 variants.
    try_fit(units, 1e-14, 100.0);
    try_fit(norms, 1e-14, 100.0);
    if (error > 1e-9) {
        // Within ~1e−7 of 1 the map's entries grow like 1/(1 − ρ^n) and double precision runs out.
        double largest = 0;
        for (const RecursiveFilter &s : sections) largest = std::max(largest, largest_pole(s));
        std::ostringstream why;
        why << "boundary '" << boundary_name(boundary)
            << "' has no exact initial feedbacks for this filter (";
        if (largest > 1 - 1e-6)
            why << std::setprecision(10) << "a pole of magnitude " << largest
                << " is too close to 1 for double precision on a line of " << n << " samples)";
        else if (boundary == Boundary::reflect || boundary == Boundary::mirror)
            why << "reflect and mirror need the anticausal pass to mirror the causal one)";
        else
            why << "its observables on a line of " << n << " samples do not determine them)";
        throw Error(why.str());
    }
    return seeds;
}

}  // namespace

BoundaryTables boundary_tables(const std::vector<RecursiveFilter> &sections, int64_t n, Boundary boundary) {
    BoundaryTables t;
    t.seeds = fitted_seeds(sections, n, boundary);
    const int q = sections[0].order(), K = int(sections.size()) * q;
    const int64_t pad = decay_length(sections, 1e-20);
    // Responses of the whole dimension to unit feedbacks, over a line long enough for them to
    // decay (the anticausal pass then starts where the causal response is already gone).
    const int64_t length = std::min(n, 2 * pad);
    MatrixXd start(length, K), end(length, K);
    for (int k = 0; k < K; k++) {
        // A unit prologue of section j enters as that section's state: run from it with zero input.
        const int j = k / q;
        MatrixXd V = MatrixXd::Zero(length, 1);
        for (size_t i = 0; i < sections.size(); i++) {
            MatrixXd P = MatrixXd::Zero(q, 1);
            if (int(i) == j) P(k % q, 0) = 1.0;
            V = reference::causal(sections[i], P, V);
        }
        for (size_t i = 0; i < sections.size(); i++)
            V = reference::anticausal(sections[i], V, MatrixXd::Zero(q, 1));
        start.col(k) = V.col(0);
        MatrixXd W = MatrixXd::Zero(length, 1);
        for (size_t i = 0; i < sections.size(); i++) {
            MatrixXd E = MatrixXd::Zero(q, 1);
            if (int(i) == j) E(k % q, 0) = 1.0;
            W = reference::anticausal(sections[i], W, E);
        }
        end.col(k) = W.col(0).reverse();
    }
    t.start = trimmed(start);
    t.end = trimmed(end);
    return t;
}

namespace {

// Each section's state at sample boundary m of a cascade's outputs, column per experiment: the
// causal state after sample m − 1 (`causal`) or the anticausal state from sample m on.
struct SectionRun {
    std::vector<MatrixXd> stacked;  // per section: [prologue; outputs] or [outputs; epilogue]
    int q;
    bool causal;

    MatrixXd state(int64_t m) const {
        MatrixXd S(int(stacked.size()) * q, stacked[0].cols());
        for (size_t j = 0; j < stacked.size(); j++) S.middleRows(j * q, q) = stacked[j].middleRows(m, q);
        return S;
    }
};

// The cascade over `length` samples of zero input from unit states (column k: unit state k), and
// the anticausal cascade over that output from zero (causal) or from unit states (anticausal).
SectionRun run_states(const std::vector<RecursiveFilter> &sections, int64_t length, const MatrixXd *input,
                      bool causal) {
    const int q = sections[0].order(), K = int(sections.size()) * q;
    SectionRun run{{}, q, causal};
    MatrixXd V = input ? *input : MatrixXd::Zero(length, K);
    for (size_t j = 0; j < sections.size(); j++) {
        MatrixXd unit = MatrixXd::Zero(q, K);
        if (!input) unit.middleCols(j * q, q).setIdentity();
        MatrixXd stacked(length + q, K);
        if (causal) {
            stacked.topRows(q) = unit;
            stacked.bottomRows(length) = V = reference::causal(sections[j], unit, V);
        } else {
            stacked.bottomRows(q) = unit;
            stacked.topRows(length) = V = reference::anticausal(sections[j], V, unit);
        }
        run.stacked.push_back(stacked);
    }
    return run;
}

MatrixXd last_outputs(const SectionRun &run, int64_t length) {
    return run.stacked.back().middleRows(run.causal ? run.q : 0, length);
}

// Rows of blocks of K rows up to the last block above 1e−10 of the largest entry (at least one).
MatrixXd trimmed_blocks(const std::vector<MatrixXd> &blocks, int K, int columns) {
    double peak = 1e-300;
    for (const MatrixXd &m : blocks) peak = std::max(peak, m.cwiseAbs().maxCoeff());
    size_t count = 1;
    for (size_t t = 0; t < blocks.size(); t++)
        if (blocks[t].cwiseAbs().maxCoeff() > 1e-10 * peak) count = t + 1;
    MatrixXd out = MatrixXd::Zero(int(count) * K, columns);
    for (size_t t = 0; t < count && t < blocks.size(); t++) out.middleRows(int(t) * K, K) = blocks[t];
    return out;
}

}  // namespace

BoundaryTables tiled_boundary_tables(const std::vector<RecursiveFilter> &sections, int64_t n, int b,
                                     Boundary boundary) {
    BoundaryTables t;
    t.seeds = fitted_seeds(sections, n, boundary);
    const int K = int(t.seeds.rows()) / 2;
    const int64_t tiles = (n + b - 1) / b;
    // The responses fall below 1e−20 within `decay` samples of where they start: simulate that far
    // (and a tile more) from each end, not the whole line.
    const int64_t decay = decay_length(sections, 1e-20), length = std::min(n, 2 * decay + 2 * b);
    std::vector<MatrixXd> start_blocks, end_blocks;
    {
        // Unit causal feedbacks before sample 0: P(t) after sample b(t + 1) − 1, E(t) from b(t + 1).
        const SectionRun forward = run_states(sections, length, nullptr, true);
        const MatrixXd y = last_outputs(forward, length);
        const SectionRun backward = run_states(sections, length, &y, false);
        for (int64_t tile = 0; tile + 2 <= tiles && b * (tile + 1) <= length; tile++) {
            MatrixXd block(K, 2 * K);
            block << forward.state(b * (tile + 1)), backward.state(b * (tile + 1));
            start_blocks.push_back(block);
        }
    }
    {
        // Unit anticausal feedbacks after sample n − 1: E(t) from sample b(t + 1), t = T − 2 − u.
        const SectionRun backward = run_states(sections, length, nullptr, false);
        for (int64_t u = 0; u + 2 <= tiles; u++) {
            const int64_t at = b * (tiles - 1 - u) - (n - length);  // sample b(t + 1), local
            if (at < 0) break;
            end_blocks.push_back(backward.state(at));
        }
    }
    t.start = trimmed_blocks(start_blocks, K, 2 * K);
    t.end = trimmed_blocks(end_blocks, K, K);
    return t;
}

}  // namespace cascade
