// Chunked recursions against the whole line: every mode, random stable filters of order 1 to 3,
// lines of 1 to 1500 samples (past the recursion's reach, where the sums and responses stop) cut
// into random chunks (of one sample too), in double.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cascade/carries.h"
#include "cascade/error.h"
#include "reference.h"

namespace {

using cascade::Boundary;
using cascade::RecursiveFilter;

// A stable filter of unit DC gain with poles of magnitude up to 0.9.
RecursiveFilter random_filter(std::mt19937 &rng, int order) {
    std::uniform_real_distribution<double> pole(-0.9, 0.9);
    std::vector<double> poly{1.0};
    for (int k = 0; k < order; k++) {
        const double p = pole(rng);
        std::vector<double> next(poly.size() + 1, 0.0);
        for (size_t i = 0; i < poly.size(); i++) {
            next[i] += poly[i];
            next[i + 1] -= p * poly[i];
        }
        poly = next;
    }
    RecursiveFilter f{1.0, std::vector<double>(poly.begin() + 1, poly.end())};
    for (double a : f.feedback) f.gain += a;
    return f;
}

std::vector<int> random_chunks(std::mt19937 &rng, int n) {
    std::vector<int> lengths;
    std::uniform_int_distribution<int> size(1, std::max(1, n / 3));
    for (int left = n; left > 0;) {
        const int k = std::min(left, rng() % 4 == 0 ? 1 : size(rng));
        lengths.push_back(k);
        left -= k;
    }
    return lengths;
}

TEST(Carries, ChunkedLinesEqualTheWholeLine) {
    std::mt19937 rng(7);
    std::normal_distribution<double> sample;
    for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                              Boundary::reflect, Boundary::mirror})
        for (int order = 1; order <= 3; order++)
            for (int n : {1, 2, 3, 7, 20, 61, 1500}) {
                const RecursiveFilter f = random_filter(rng, order);
                cascade::reference::Matrix x(n, 1);
                for (int i = 0; i < n; i++) x(i, 0) = sample(rng);
                const cascade::Filter2D line{f, RecursiveFilter::identity()};
                const cascade::reference::Matrix whole = cascade::reference::filter_2d(line, x, boundary);
                const std::vector<int> lengths = random_chunks(rng, n);
                const int K = int(lengths.size()), width = cascade::carry_summary_width(order, boundary);
                std::vector<double> summaries(size_t(K) * width, std::nan("")), states(size_t(K) * 2 * order);
                for (int k = 0, at = 0; k < K; at += lengths[size_t(k)], k++)
                    cascade::summarize_chunk(f, boundary, &x(at, 0), lengths[size_t(k)], 1, k == 0,
                                             k == K - 1, &summaries[size_t(k) * width]);
                cascade::solve_carries(f, boundary, lengths, summaries.data(), 1, states.data());
                std::vector<double> y(size_t(n), std::nan(""));
                for (int k = 0, at = 0; k < K; at += lengths[size_t(k)], k++)
                    cascade::recurse_from_states(f, &states[size_t(k) * 2 * order], &x(at, 0), &y[size_t(at)],
                                                 lengths[size_t(k)], 1);
                double err = 0, norm = 0;
                for (int i = 0; i < n; i++) {
                    err += (y[size_t(i)] - whole(i, 0)) * (y[size_t(i)] - whole(i, 0));
                    norm += whole(i, 0) * whole(i, 0);
                }
                EXPECT_LE(std::sqrt(err / std::max(norm, 1e-300)), 1e-12)
                    << cascade::boundary_name(boundary) << " order " << order << " n " << n << " in " << K
                    << " chunks";
            }
}

TEST(Carries, LinesSideBySideEqualEachLineAlone) {
    // m lines interleaved (line l's sample i at i·m + l), chunked at once: each equals its own line.
    std::mt19937 rng(11);
    std::normal_distribution<double> sample;
    const int m = 67;  // past the solve's blocks of 64 lines
    for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                              Boundary::reflect, Boundary::mirror})
        for (int order = 1; order <= 3; order++)
            for (int n : {1, 2, 9, 40, 1200}) {
                const RecursiveFilter f = random_filter(rng, order);
                std::vector<double> x(size_t(n) * m);
                for (double &v : x) v = sample(rng);
                const std::vector<int> lengths = random_chunks(rng, n);
                const int K = int(lengths.size()), width = cascade::carry_summary_width(order, boundary);
                // The chunks' summaries, the lines innermost; solve_carries takes them by line.
                std::vector<double> by_chunk(size_t(K) * m * width, std::nan("")), summaries(by_chunk.size());
                for (int k = 0, at = 0; k < K; at += lengths[size_t(k)], k++)
                    cascade::summarize_chunk(f, boundary, &x[size_t(at) * m], lengths[size_t(k)], m, k == 0,
                                             k == K - 1, &by_chunk[size_t(k) * m * width], m);
                for (int l = 0; l < m; l++)
                    for (int k = 0; k < K; k++)
                        for (int j = 0; j < width; j++)
                            summaries[(size_t(l) * K + k) * width + j] =
                                by_chunk[(size_t(k) * m + l) * width + j];
                std::vector<double> states(size_t(m) * K * 2 * order), entering(size_t(m) * 2 * order);
                cascade::solve_carries(f, boundary, lengths, summaries.data(), m, states.data());
                std::vector<double> y(x.size(), std::nan(""));
                for (int k = 0, at = 0; k < K; at += lengths[size_t(k)], k++) {
                    for (int l = 0; l < m; l++)
                        for (int j = 0; j < 2 * order; j++)
                            entering[size_t(l) * 2 * order + j] = states[(size_t(l) * K + k) * 2 * order + j];
                    cascade::recurse_from_states(f, entering.data(), &x[size_t(at) * m], &y[size_t(at) * m],
                                                 lengths[size_t(k)], m, m);
                }
                const cascade::Filter2D line{f, RecursiveFilter::identity()};
                for (int l = 0; l < m; l++) {
                    cascade::reference::Matrix column(n, 1);
                    for (int i = 0; i < n; i++) column(i, 0) = x[size_t(i) * m + l];
                    const cascade::reference::Matrix whole =
                        cascade::reference::filter_2d(line, column, boundary);
                    double err = 0, norm = 0;
                    for (int i = 0; i < n; i++) {
                        const double d = y[size_t(i) * m + l] - whole(i, 0);
                        err += d * d;
                        norm += whole(i, 0) * whole(i, 0);
                    }
                    EXPECT_LE(std::sqrt(err / std::max(norm, 1e-300)), 1e-12)
                        << cascade::boundary_name(boundary) << " order " << order << " n " << n << " line "
                        << l;
                }
            }
}

TEST(Carries, AChunkHandsOnItsCausalStateAndReceivesTheNext) {
    // lc·U + e is the causal pass's state after the chunk: run the causal recursion through it.
    const RecursiveFilter f{0.3, {-0.9, 0.2}};
    const int n = 5, r = 2;
    const cascade::ChunkCarries c = cascade::chunk_carries(f, n);
    const std::vector<double> x{0.5, -1.0, 2.0, 0.25, 1.5}, u{0.7, -0.4};  // U = c[−2], c[−1]
    std::vector<double> run{u[0], u[1]};
    for (int i = 0; i < n; i++)
        run.push_back(f.gain * x[size_t(i)] - f.feedback[0] * run.back() -
                      f.feedback[1] * run[run.size() - 2]);
    for (int j = 0; j < r; j++) {
        double next = 0;
        for (int k = 0; k < r; k++) next += c.lc[size_t(j) * r + k] * u[size_t(k)];
        for (int i = 0; i < n; i++) next += c.we[size_t(i) * r + j] * x[size_t(i)];
        EXPECT_NEAR(next, run[size_t(n + j)], 1e-14);
    }
}

TEST(Carries, RefusesWhatItCannotCarry) {
    EXPECT_THROW(cascade::carry_reach({1.0, {-1.0}}), cascade::Error);
    EXPECT_THROW(cascade::chunk_carries({1.0, {}}, 4), cascade::Error);
    EXPECT_EQ(cascade::carry_summary_width(3, Boundary::reflect), 12);
    EXPECT_EQ(cascade::carry_summary_width(2, Boundary::clamp), 6);
}

}  // namespace
