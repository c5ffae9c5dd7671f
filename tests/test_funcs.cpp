// The Func-level API (include/cascade/funcs.h) JIT-compiled for this machine's CPU, against the
// double references: every filter, every boundary, awkward sizes, outputs poisoned first.
#include <gtest/gtest.h>

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

// The CUDA targets' blocked path (algorithm 6, its tables embedded) run on the CPU: sizes past the
// tables' long lines (primes; whole tiles of 128), and short ones, which take the serial path.
TEST(Funcs, TiledPathOfEveryBoundaryMatchesTheExtendedDefinition) {
    const RecursiveFilter vertical = van_vliet_gaussian(3.0), horizontal = bspline_prefilter(3);
    for (Boundary b : kBoundaries) {
        Compiled f = compile([&](ImageParam &in) {
            return funcs::constant_tiles(in, {vertical, horizontal}, b, in.width(), in.height(), jit_target())
                .schedule(jit_target());
        });
        auto rng = testing::rng_for_test();
        for (auto [w, h] :
             std::vector<std::pair<int, int>>{{523, 389}, {640, 512}, {300, 7}, {1, 1}, {67, 33}}) {
            const Image image = testing::random_image(rng, w, h, 2);
            const auto got = run(f, image);
            for (int c = 0; c < image.channels; c++)
                EXPECT_TRUE(testing::within_relative_l2(
                    got[c], reference::filter_2d({vertical, horizontal}, reference::plane(image, c), b),
                    1e-5))
                    << boundary_name(b) << " on " << w << "x" << h << ", channel " << c;
        }
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
    for (funcs::Path path : kPaths) {
        Compiled f = compile(
            [&](ImageParam &in) {
                return funcs::summed_area_table(in, in.width(), in.height(), jit_target(), Halide::UInt(32),
                                                path)
                    .schedule(jit_target());
            },
            2, Halide::UInt(8));
        auto rng = testing::rng_for_test();
        // The strips' tables across several strips of 256 rows, and 8-column chunks.
        auto sizes = kSizes;
        sizes.push_back({37, 600});
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
                        << path_name(path) << " at " << x << "," << y << " of " << w << "x" << h;
        }
    }
}

TEST(Funcs, SummedAreaTableOfFloats) {
    for (funcs::Path path : kPaths) {
        Compiled f = compile([&](ImageParam &in) {
            return funcs::summed_area_table(in, in.width(), in.height(), jit_target(), Halide::Float(32),
                                            path)
                .schedule(jit_target());
        });
        expect_matches(f, reference::summed_area_table, 1e-6, path_name(path) + " float table");
    }
}

TEST(Funcs, BoxMeanOfEveryBoundary) {
    for (funcs::Path path : kPaths)
        for (int radius : {0, 3}) {
            for (Boundary b : kBoundaries) {
                Compiled f = compile([&](ImageParam &in) {
                    return funcs::box(in, radius, b, in.width(), in.height(), jit_target(), path)
                        .schedule(jit_target());
                });
                const auto expected = [&](const Matrix &X) {
                    const Matrix E = reference::extended(X, b, radius);
                    Matrix mean(X.rows(), X.cols());
                    for (Eigen::Index y = 0; y < X.rows(); y++)
                        for (Eigen::Index x = 0; x < X.cols(); x++)
                            mean(y, x) = E.block(y, x, 2 * radius + 1, 2 * radius + 1).mean();
                    return mean;
                };
                expect_matches(
                    f, expected, 1e-6,
                    path_name(path) + " radius " + std::to_string(radius) + " " + boundary_name(b));
            }
        }
}

}  // namespace
}  // namespace cascade
