// The Func-level API (include/cascade/funcs.h) JIT-compiled for this machine's CPU, against the
// double references: every filter, every boundary, awkward sizes, outputs poisoned first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "cascade/bspline.h"
#include "cascade/error.h"
#include "cascade/funcs.h"
#include "funcs/tiles.h"
#include "runtime/design/boundary_tables.h"
#include "runtime/design/reference.h"
#include "test_support.h"

namespace cascade {
namespace {

using Eigen::MatrixXd;
using Halide::Buffer;
using Halide::Func;
using Halide::ImageParam;
using reference::Matrix;

constexpr Boundary kBoundaries[] = {Boundary::none,     Boundary::zero,    Boundary::clamp,
                                    Boundary::periodic, Boundary::reflect, Boundary::mirror};

// W × H sizes: one sample, primes, very wide, very tall.
const std::vector<std::pair<int, int>> kSizes = {{1, 1}, {7, 5}, {67, 33}, {130, 7}, {3, 97}};

// The build's CPU target (CMakeLists.txt says why not the host's as Halide 14 detects it).
Halide::Target jit_target() { return Halide::Target(CASCADE_CPU_TARGET).with_feature(Halide::Target::JIT); }

// A filter built over an ImageParam, compiled once for the host and run on every size.
using Build = std::function<Func(ImageParam &)>;

struct Compiled {
    ImageParam input;
    Func output;
};

Compiled compile(const Build &build, int dimensions = 3, Halide::Type type = Halide::Float(32)) {
    Compiled c{ImageParam(type, dimensions), Func()};
    c.output = build(c.input);
    c.output.compile_jit(jit_target());
    return c;
}

// Each channel of `image` through `compiled`, the output poisoned with NaN beforehand.
std::vector<Matrix> run(Compiled &compiled, const Image &image) {
    Buffer<float> in(image.width, image.height, image.channels);
    for (int c = 0; c < image.channels; c++)
        for (int y = 0; y < image.height; y++)
            for (int x = 0; x < image.width; x++) in(x, y, c) = image.at(x, y, c);
    compiled.input.set(in);
    Buffer<float> out(image.width, image.height, image.channels);
    out.fill(NAN);
    compiled.output.realize(out);
    std::vector<Matrix> planes;
    for (int c = 0; c < image.channels; c++) {
        Matrix m(image.height, image.width);
        for (int y = 0; y < image.height; y++)
            for (int x = 0; x < image.width; x++) m(y, x) = out(x, y, c);
        planes.push_back(m);
    }
    return planes;
}

// Runs `compiled` on random images of every size; `expected` gives each plane's reference.
void expect_matches(Compiled &compiled, const std::function<Matrix(const Matrix &)> &expected,
                    double tolerance, const std::string &what) {
    auto rng = testing::rng_for_test();
    for (auto [w, h] : kSizes) {
        const Image image = testing::random_image(rng, w, h, 2);
        const auto got = run(compiled, image);
        for (int c = 0; c < image.channels; c++)
            EXPECT_TRUE(testing::within_relative_l2(got[c], expected(reference::plane(image, c)), tolerance))
                << what << " on " << w << "x" << h << ", channel " << c;
    }
}

constexpr funcs::Path kPaths[] = {funcs::Path::blocked, funcs::Path::serial};

std::string path_name(funcs::Path path) { return path == funcs::Path::blocked ? "blocked" : "serial"; }

// A CUDA target's choice of realisation built, then scheduled and run for the CPU: how these tests
// reach the GPU's summed-area tables (the CUDA ones, tests/funcs_cuda/, run them on the card).
Halide::Target cuda_built() { return jit_target().with_feature(Halide::Target::CUDA); }

// What a call is built as: the CPU's blocked path, the GPU's, or the serial one.
struct Realisation {
    std::string name;
    Halide::Target built_for;
    funcs::Path path;
};
const std::vector<Realisation> kRealisations = {{"strips", jit_target(), funcs::Path::blocked},
                                                {"tiles", cuda_built(), funcs::Path::blocked},
                                                {"serial", jit_target(), funcs::Path::serial}};

TEST(Funcs, IirOfEveryBoundaryMatchesTheExtendedDefinition) {
    auto rng = testing::rng_for_test();
    const RecursiveFilter vertical = testing::random_stable_filter(rng, 2, 0.8, true);
    const RecursiveFilter horizontal = testing::random_stable_filter(rng, 1, 0.9, false);
    for (funcs::Path path : kPaths)
        for (Boundary b : kBoundaries) {
            Compiled f = compile([&](ImageParam &in) {
                return funcs::iir(in, funcs::constant(vertical), funcs::constant(horizontal), b, in.width(),
                                  in.height(), jit_target(), path)
                    .schedule(jit_target());
            });
            expect_matches(
                f,
                [&](const Matrix &X) {
                    return reference::filter_2d({vertical, horizontal}, X, b);
                },
                1e-5, path_name(path) + " " + boundary_name(b));
        }
}

TEST(Funcs, IirTakesRunTimeCoefficientsAndMargin) {
    for (funcs::Path path : kPaths) {
        Halide::Param<float> gain("gain"), a1("a1"), a2("a2");
        Halide::Param<int> margin("margin");
        Compiled f = compile([&](ImageParam &in) {
            funcs::Recursion r{gain, {a1, a2}, margin};
            return funcs::iir(in, r, r, Boundary::reflect, in.width(), in.height(), jit_target(), path)
                .schedule(jit_target());
        });
        auto rng = testing::rng_for_test();
        for (int trial = 0; trial < 2; trial++) {
            const RecursiveFilter filter = testing::random_stable_filter(rng, 2, 0.85, trial == 1);
            gain.set(float(filter.gain));
            a1.set(float(filter.feedback[0]));
            a2.set(float(filter.feedback[1]));
            margin.set(margin_for(filter));
            expect_matches(
                f,
                [&](const Matrix &X) {
                    return reference::filter_2d({filter, filter}, X, Boundary::reflect);
                },
                1e-5, path_name(path) + " run-time coefficients");
        }
    }
}

TEST(Funcs, RunTimeCoefficientsWithoutAMarginAreRefusedWhereTheyReachPastTheEdges) {
    Halide::Param<float> gain("gain"), a1("a1");
    Func in("in");
    Halide::Var x, y;
    in(x, y) = 0.0f;
    funcs::Recursion r{gain, {a1}, Halide::Expr()};
    EXPECT_THROW(funcs::iir(in, r, r, Boundary::clamp, 8, 8, jit_target(), funcs::Path::serial), Error);
    EXPECT_NO_THROW(funcs::iir(in, r, r, Boundary::none, 8, 8, jit_target(), funcs::Path::serial));
    // The strips' windows reach past every strip, whatever the boundary.
    EXPECT_THROW(funcs::iir(in, r, r, Boundary::none, 8, 8, jit_target()), Error);
}

TEST(Funcs, RefusesFuncsOfOtherDimensions) {
    Func in("in");
    Halide::Var x;
    in(x) = 0.0f;
    EXPECT_THROW(funcs::gaussian(in, 2.0, Boundary::none, 8, 8, jit_target()), Error);
    EXPECT_THROW(funcs::box(in, -1, Boundary::none, 8, 8, jit_target()), Error);
}

TEST(Funcs, AFilterBuiltForTheCpuRefusesAGpuSchedule) {
    Func in("in");
    Halide::Var x, y;
    in(x, y) = 0.0f;
    funcs::Filtered f = funcs::gaussian(in, 2.0, Boundary::reflect, 64, 64, jit_target());
    EXPECT_THROW(f.schedule(Halide::Target("host-cuda")), Error);
}

// The strips across several strips and column tiles, each window folding at both edges.
TEST(Funcs, BlockedGaussianOnAnImageOfManyStrips) {
    const double sigma = 3.0;
    const RecursiveFilter g = van_vliet_gaussian(sigma);
    for (Boundary b : {Boundary::none, Boundary::clamp, Boundary::mirror}) {
        Compiled f = compile([&](ImageParam &in) {
            return funcs::gaussian(in, sigma, b, in.width(), in.height(), jit_target())
                .schedule(jit_target());
        });
        auto rng = testing::rng_for_test();
        const Image image = testing::random_image(rng, 301, 523, 1);
        const auto got = run(f, image);
        EXPECT_TRUE(testing::within_relative_l2(
            got[0], reference::filter_2d({g, g}, reference::plane(image, 0), b), 1e-5))
            << boundary_name(b);
    }
}

// A test a boundary, for the sweeps that JIT-compile a pipeline each: apart, they run side by side.
class FuncsBoundary : public ::testing::TestWithParam<Boundary> {};

// The CUDA targets' blocked path (algorithm 6, its tables embedded) run on the CPU: sizes past the
// tables' long lines (primes; whole tiles of 128), and short ones.
TEST_P(FuncsBoundary, TiledPathMatchesTheExtendedDefinition) {
    const RecursiveFilter vertical = van_vliet_gaussian(3.0), horizontal = bspline_prefilter(3);
    const Boundary b = GetParam();
    Compiled f = compile([&](ImageParam &in) {
        return funcs::constant_tiles(in, {vertical, horizontal}, b, in.width(), in.height(), jit_target())
            .schedule(jit_target());
    });
    auto rng = testing::rng_for_test();
    for (auto [w, h] : std::vector<std::pair<int, int>>{{523, 389}, {640, 512}, {300, 7}, {1, 1}, {67, 33}}) {
        const Image image = testing::random_image(rng, w, h, 2);
        const auto got = run(f, image);
        for (int c = 0; c < image.channels; c++)
            EXPECT_TRUE(testing::within_relative_l2(
                got[c], reference::filter_2d({vertical, horizontal}, reference::plane(image, c), b), 1e-5))
                << boundary_name(b) << " on " << w << "x" << h << ", channel " << c;
    }
}

// The CUDA targets' blocked path for run-time coefficients, its tables made on the host
// (funcs::tile_tables) and read from an input, run on the CPU: an order-3 recursion down the
// columns, an order-1 one along the rows (tiles of 128), every boundary; and two of order 4 (tiles
// of 64) under none and reflect.
TEST_P(FuncsBoundary, TiledPathReadsRunTimeTables) {
    struct Case {
        RecursiveFilter vertical, horizontal;
        std::vector<Boundary> boundaries;
    };
    auto rng = testing::rng_for_test();
    const std::vector<Case> cases = {
        {van_vliet_gaussian(3.0), bspline_prefilter(3), {std::begin(kBoundaries), std::end(kBoundaries)}},
        {testing::random_stable_filter(rng, 4, 0.8, true),
         testing::random_stable_filter(rng, 4, 0.7, false),
         {Boundary::none, Boundary::reflect}}};
    const Boundary b = GetParam();
    for (const Case &k : cases) {
        if (std::find(k.boundaries.begin(), k.boundaries.end(), b) == k.boundaries.end()) continue;
        ImageParam tables(Halide::Float(32), 3, "tables");
        std::vector<Halide::Param<float>> v(k.vertical.order() + 1), h(k.horizontal.order() + 1);
        auto recursion = [](std::vector<Halide::Param<float>> &p) {
            funcs::Recursion r{p[0], {}, Halide::Expr()};
            for (size_t i = 1; i < p.size(); i++) r.feedback.push_back(p[i]);
            return r;
        };
        Compiled f = compile([&](ImageParam &in) {
            return funcs::input_tiles(in, recursion(v), recursion(h), tables, b, in.width(), in.height(),
                                      jit_target())
                .schedule(jit_target());
        });
        auto set = [](std::vector<Halide::Param<float>> &p, const RecursiveFilter &filter) {
            p[0].set(float(filter.gain));
            for (int i = 0; i < filter.order(); i++) p[size_t(i) + 1].set(float(filter.feedback[size_t(i)]));
        };
        set(v, k.vertical);
        set(h, k.horizontal);
        for (auto [w, h_] :
             std::vector<std::pair<int, int>>{{523, 389}, {256, 128}, {300, 7}, {1, 1}, {67, 33}}) {
            const Image image = testing::random_image(rng, w, h_, 2);
            tables.set(Buffer<float>(funcs::tile_tables(k.vertical, k.horizontal, b, w, h_)));
            const auto got = run(f, image);
            for (int c = 0; c < image.channels; c++)
                EXPECT_TRUE(testing::within_relative_l2(
                    got[c], reference::filter_2d({k.vertical, k.horizontal}, reference::plane(image, c), b),
                    1e-5))
                    << "order " << k.vertical.order() << " " << boundary_name(b) << " on " << w << "x" << h_
                    << ", channel " << c;
        }
        // Tables made for another size are refused before anything runs.
        const Image image = testing::random_image(rng, 40, 30, 1);
        tables.set(Buffer<float>(funcs::tile_tables(k.vertical, k.horizontal, b, 41, 30)));
        EXPECT_ANY_THROW(run(f, image)) << boundary_name(b);
    }
}

TEST(Funcs, GaussianOfEveryMethodMatchesItsDefinition) {
    const double sigma = 2.5;
    for (GaussianMethod method : {GaussianMethod::vanvliet, GaussianMethod::deriche2,
                                  GaussianMethod::deriche4, GaussianMethod::twoway}) {
        for (funcs::Path path : kPaths)
            for (Boundary b : {Boundary::none, Boundary::reflect, Boundary::periodic}) {
                // Only van Vliet's Gaussian has a blocked path (the others take the serial one).
                if (path == funcs::Path::blocked && method != GaussianMethod::vanvliet) continue;
                Compiled f = compile([&](ImageParam &in) {
                    return funcs::gaussian(in, sigma, method, b, in.width(), in.height(), jit_target(), path)
                        .schedule(jit_target());
                });
                std::function<Matrix(const Matrix &)> expected;
                if (method == GaussianMethod::vanvliet) {
                    const RecursiveFilter g = van_vliet_gaussian(sigma);
                    expected = [=](const Matrix &X) { return reference::filter_2d({g, g}, X, b); };
                } else if (method == GaussianMethod::twoway) {
                    const TwoWayGaussian g = two_way_gaussian(sigma);
                    expected = [=](const Matrix &X) { return reference::two_way_2d(g, X, b); };
                } else {
                    const FirIirGaussian g = method == GaussianMethod::deriche2 ? deriche2_gaussian(sigma)
                                                                                : deriche4_gaussian(sigma);
                    // The numerator and the all-pole pair of the image extended past their reach.
                    const int pad = int(decay_length({g.pass}, 1e-20)) + int(g.taps.size());
                    expected = [=](const Matrix &X) {
                        // none: the numerator reads zeros, the all-pole passes start from zero states.
                        if (b == Boundary::none) return reference::fir_iir_2d(g, X);
                        const Matrix E = reference::extended(X, b, pad);
                        return Matrix(reference::fir_iir_2d(g, E).block(pad, pad, X.rows(), X.cols()));
                    };
                }
                expect_matches(f, expected, 1e-5,
                               path_name(path) + " " + gaussian_method_name(method) + " " + boundary_name(b));
            }
    }
}

TEST(Funcs, BsplinePrefilterMatchesTheExtendedDefinition) {
    for (funcs::Path path : kPaths)
        for (int degree : {3, 5}) {
            const RecursiveFilter f = bspline_prefilter(degree);
            Compiled compiled = compile([&](ImageParam &in) {
                return funcs::bspline(in, degree, Boundary::mirror, in.width(), in.height(), jit_target(),
                                      path)
                    .schedule(jit_target());
            });
            expect_matches(
                compiled,
                [&](const Matrix &X) {
                    return reference::filter_2d({f, f}, X, Boundary::mirror);
                },
                1e-5, path_name(path) + " degree " + std::to_string(degree));
        }
}

TEST(Funcs, SummedAreaTableIsExactForIntegers) {
    for (const Realisation &r : kRealisations) {
        Compiled f = compile(
            [&](ImageParam &in) {
                return funcs::summed_area_table(in, in.width(), in.height(), r.built_for, Halide::UInt(32),
                                                r.path)
                    .schedule(jit_target());
            },
            2, Halide::UInt(8));
        auto rng = testing::rng_for_test();
        // The strips' tables across several strips of 256 rows, and 8-column chunks; the tiles'
        // across tiles of 64, ragged.
        auto sizes = kSizes;
        sizes.push_back({37, 600});
        sizes.push_back({257, 131});
        for (auto [w, h] : sizes) {
            Buffer<uint8_t> in(w, h);
            std::uniform_int_distribution<int> level(0, 255);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) in(x, y) = uint8_t(level(rng));
            f.input.set(in);
            Buffer<uint32_t> out(w, h);
            out.fill(0xdeadbeef);
            f.output.realize(out);
            Buffer<uint32_t> expected(w, h);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    expected(x, y) = in(x, y) + (x > 0 ? expected(x - 1, y) : 0) +
                                     (y > 0 ? expected(x, y - 1) : 0) -
                                     (x > 0 && y > 0 ? expected(x - 1, y - 1) : 0);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    ASSERT_EQ(out(x, y), expected(x, y))
                        << r.name << " at " << x << "," << y << " of " << w << "x" << h;
        }
    }
}

TEST(Funcs, SummedAreaTableOfFloats) {
    for (const Realisation &r : kRealisations) {
        Compiled f = compile([&](ImageParam &in) {
            return funcs::summed_area_table(in, in.width(), in.height(), r.built_for, Halide::Float(32),
                                            r.path)
                .schedule(jit_target());
        });
        expect_matches(f, reference::summed_area_table, 1e-6, r.name + " float table");
    }
}

TEST_P(FuncsBoundary, BoxMean) {
    const Boundary b = GetParam();
    for (const Realisation &r : kRealisations)
        for (int radius : {0, 3}) {
            Compiled f = compile([&](ImageParam &in) {
                Func mean = funcs::box(in, radius, b, in.width(), in.height(), r.built_for, r.path)
                                .schedule(jit_target());
                // A pure view: this pipeline's output computes it.
                Func out;
                out(mean.args()) = mean(mean.args());
                return out;
            });
            const auto expected = [&](const Matrix &X) {
                const Matrix E = reference::extended(X, b, radius);
                Matrix mean(X.rows(), X.cols());
                for (Eigen::Index y = 0; y < X.rows(); y++)
                    for (Eigen::Index x = 0; x < X.cols(); x++)
                        mean(y, x) = E.block(y, x, 2 * radius + 1, 2 * radius + 1).mean();
                return mean;
            };
            expect_matches(f, expected, 1e-6,
                           r.name + " radius " + std::to_string(radius) + " " + boundary_name(b));
        }
}

INSTANTIATE_TEST_SUITE_P(Boundaries, FuncsBoundary, ::testing::ValuesIn(kBoundaries),
                         [](const auto &info) { return std::string(boundary_name(info.param)); });

}  // namespace
}  // namespace cascade
