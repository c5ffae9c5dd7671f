// The bench harness on tiny images: every result finite and consistent with its own copy floor;
// cases that cannot run say why instead of throwing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bench/bench.h"
#include "cascade/device.h"

namespace cascade {
namespace {

constexpr double kGi = 1024.0 * 1024.0 * 1024.0;
constexpr int kWidth = 64, kHeight = 48;

BenchOptions quick() {
    BenchOptions options;
    options.warmup = 1;
    options.repetitions = 5;
    options.check = true;
    return options;
}

bool starts_with(const std::string &text, const std::string &prefix) { return text.rfind(prefix, 0) == 0; }

// GiP/s and the floor fraction follow from the medians: the case's and its size's copy.
void expect_consistent(const BenchResult &r, const BenchResult &copy) {
    ASSERT_TRUE(measured(copy)) << copy.note;
    ASSERT_TRUE(measured(r)) << r.c.op << " " << r.c.variant << ": " << r.note;
    const double pixels = double(r.c.width) * r.c.height;
    const double gips = pixels / kGi / (r.median_ms * 1e-3);
    EXPECT_TRUE(std::isfinite(r.gips));
    EXPECT_GT(r.gips, 0);
    EXPECT_NEAR(r.gips, gips, 1e-9 * gips);
    const double floor_gips = 8 * pixels / (copy.median_ms * 1e-3) / r.bytes_per_pixel / kGi;
    EXPECT_NEAR(r.floor_fraction, r.gips / floor_gips, 1e-9 * r.floor_fraction);
    EXPECT_EQ(r.note.find("FAILED"), std::string::npos) << r.note;
}

// Each result against the copy of its own shape and device (the first result unless a later
// copy has the shape).
void expect_all_consistent(const std::vector<BenchResult> &results) {
    for (const BenchResult &r : results) {
        if (starts_with(r.note, "not built")) continue;
        const BenchResult *copy = &results.front();
        for (const BenchResult &c : results)
            if (c.c.op == "copy" && c.c.width == r.c.width && c.c.height == r.c.height &&
                c.c.device == r.c.device)
                copy = &c;
        expect_consistent(r, *copy);
    }
}

TEST(Bench, CopyIsItsOwnFloorOnTheCpu) {
    const auto results = run_benchmark({{"copy", "", kWidth, kHeight, Device::cpu}}, quick());
    ASSERT_EQ(results.size(), 1u);
    const BenchResult &copy = results[0];
    expect_consistent(copy, copy);
    EXPECT_EQ(copy.bytes_per_pixel, 8);
    EXPECT_NEAR(copy.floor_fraction, 1.0, 1e-12);
    EXPECT_EQ(copy.note, "");
}

class BenchSatCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(BenchSatCpu, MatchesTheReferenceAndTheFormulas) {
    const auto results = run_benchmark(
        {{"copy", "", kWidth, kHeight, Device::cpu}, {"sat", GetParam(), kWidth, kHeight, Device::cpu}},
        quick());
    const BenchResult &sat = results[1];
    if (starts_with(sat.note, "not built")) GTEST_SKIP() << sat.note;
    expect_consistent(sat, results[0]);
    EXPECT_EQ(sat.bytes_per_pixel, 8);
    EXPECT_TRUE(starts_with(sat.note, "check: max error")) << sat.note;
}

INSTANTIATE_TEST_SUITE_P(Variants, BenchSatCpu, ::testing::ValuesIn(bench_variants("sat")),
                         [](const auto &info) {
                             std::string name = info.param;
                             for (char &ch : name)
                                 if (ch == '-') ch = '_';
                             return "sat_" + name;
                         });

// The naive SAT is built everywhere: it may not hide behind "not built".
TEST(Bench, NaiveSatRunsOnTheCpu) {
    const auto results = run_benchmark({{"sat", "naive", kWidth, kHeight, Device::cpu}}, quick());
    EXPECT_TRUE(measured(results[0])) << results[0].note;
}

TEST(Bench, IirOnTheCpuUsesTheTwelveByteModel) {
    const auto results = run_benchmark({{"copy", "", kWidth, kHeight, Device::cpu},
                                        {"iir", "rt-order1", kWidth, kHeight, Device::cpu},
                                        {"iir", "rt-order3", kWidth, kHeight, Device::cpu}},
                                       quick());
    for (size_t i = 1; i < results.size(); i++) {
        expect_consistent(results[i], results[0]);
        EXPECT_EQ(results[i].bytes_per_pixel, 12);
    }
}

// The cubic B-spline's prefilter runs when named, on the strips and on algorithm 6 alike.
TEST(Bench, BsplineRunsWhenNamed) {
    const auto results = run_benchmark({{"copy", "", kWidth, kHeight, Device::cpu},
                                        {"iir", "strips-bspline3", kWidth, kHeight, Device::cpu},
                                        {"iir", "6-bspline3", kWidth, kHeight, Device::cpu}},
                                       quick());
    for (size_t i = 1; i < results.size(); i++) {
        EXPECT_TRUE(measured(results[i])) << results[i].c.variant << ": " << results[i].note;
        expect_consistent(results[i], results[0]);
        EXPECT_EQ(results[i].bytes_per_pixel, 12);
    }
    const auto unknown = run_benchmark({{"iir", "6-bspline2", kWidth, kHeight, Device::cpu}}, quick());
    EXPECT_FALSE(measured(unknown[0]));
    EXPECT_NE(unknown[0].note.find("bspline3"), std::string::npos) << unknown[0].note;
}

TEST(Bench, GaussianIsListedWithItsMethods) {
    const std::vector<std::string> &ops = bench_ops();
    EXPECT_NE(std::find(ops.begin(), ops.end(), "gaussian"), ops.end());
    EXPECT_EQ(bench_variants("gaussian"),
              (std::vector<std::string>{"vanvliet", "deriche2", "deriche4", "twoway"}));
    EXPECT_EQ(bench_bytes_per_pixel("gaussian"), 12);
}

// Variant names carry the samples' type and the boundary as suffixes, in that order; the
// traffic model follows the samples' size.
TEST(Bench, VariantSuffixesNameSamplesAndBoundary) {
    const BoundedVariant v = split_variant("6-order3-u16-mirror");
    EXPECT_EQ(v.name, "6-order3");
    EXPECT_EQ(v.samples, SampleType::u16);
    EXPECT_EQ(v.boundary, Boundary::mirror);
    const BoundedVariant plain = split_variant("vanvliet-u8");
    EXPECT_EQ(plain.name, "vanvliet");
    EXPECT_EQ(plain.samples, SampleType::u8);
    EXPECT_EQ(plain.boundary, Boundary::none);
    EXPECT_EQ(split_variant("rt-order1").samples, SampleType::f32);
    EXPECT_EQ(bench_bytes_per_pixel("iir", "6-order1-u8"), 3);
    EXPECT_EQ(bench_bytes_per_pixel("gaussian", "vanvliet-u16-clamp"), 6);
}

// The 8-bit variant runs through the bench on the CPU; rt, which converts on the host, is skipped
// as not built.
TEST(Bench, EightBitIirRunsOnAlgorithmSix) {
    const auto results = run_benchmark(
        {{"iir", "6-order1-u8", 67, 45, Device::cpu}, {"iir", "rt-order1-u8", 67, 45, Device::cpu}},
        {0, 1, 1, false});
    ASSERT_EQ(results.size(), 2u);
    EXPECT_TRUE(measured(results[0])) << results[0].note;
    EXPECT_FALSE(measured(results[1]));
    EXPECT_EQ(results[1].note.rfind("not built", 0), 0u) << results[1].note;
}

class BenchGaussianCpu : public ::testing::TestWithParam<std::string> {};

// Every method runs on the CPU (its variants are built for every build with a CPU target) and
// matches its own design in double.
TEST_P(BenchGaussianCpu, RunsAndMatchesItsReference) {
    const auto results = run_benchmark(
        {{"copy", "", kWidth, kHeight, Device::cpu}, {"gaussian", GetParam(), kWidth, kHeight, Device::cpu}},
        quick());
    const BenchResult &gaussian = results[1];
    expect_consistent(gaussian, results[0]);
    EXPECT_EQ(gaussian.bytes_per_pixel, 12);
    EXPECT_TRUE(starts_with(gaussian.note, "check: max error")) << gaussian.note;
}

// Repeated calls reuse the plan's intermediate image: several sizes in one run stay separate.
TEST_P(BenchGaussianCpu, SeveralSizesInOneRun) {
    const auto results = run_benchmark({{"copy", "", 33, 17, Device::cpu},
                                        {"gaussian", GetParam(), 33, 17, Device::cpu},
                                        {"copy", "", 1, 1, Device::cpu},
                                        {"gaussian", GetParam(), 1, 1, Device::cpu}},
                                       quick());
    expect_consistent(results[1], results[0]);
    expect_consistent(results[3], results[2]);
}

INSTANTIATE_TEST_SUITE_P(Methods, BenchGaussianCpu, ::testing::ValuesIn(bench_variants("gaussian")),
                         [](const auto &info) { return "gaussian_" + info.param; });

TEST(Bench, UnknownGaussianMethodSaysWhy) {
    const auto results = run_benchmark({{"gaussian", "deriche9", kWidth, kHeight, Device::cpu}}, quick());
    EXPECT_FALSE(measured(results[0]));
    EXPECT_TRUE(starts_with(results[0].note, "unknown variant")) << results[0].note;
}

TEST(Bench, CasesOfSeveralSizesKeepTheirOrderAndFloors) {
    const auto results = run_benchmark({{"sat", "naive", 33, 17, Device::cpu},
                                        {"copy", "", 64, 48, Device::cpu},
                                        {"copy", "", 33, 17, Device::cpu},
                                        {"iir", "rt-order1", 64, 48, Device::cpu}},
                                       quick());
    ASSERT_EQ(results.size(), 4u);
    EXPECT_EQ(results[0].c.width, 33);
    EXPECT_EQ(results[3].c.op, "iir");
    expect_consistent(results[0], results[2]);
    expect_consistent(results[3], results[1]);
}

// In rounds, every case and the copy are timed in turn: each still gets its median, its floor and
// its check, and a case that cannot run its note, beside the others.
TEST(Bench, RoundsTimeEveryCaseInTurn) {
    BenchOptions options = quick();
    options.rounds = 3;
    options.repetitions = 6;
    const auto results = run_benchmark({{"copy", "", 64, 48, Device::cpu},
                                        {"iir", "rt-order1", 64, 48, Device::cpu},
                                        {"iir", "rt-order9", 64, 48, Device::cpu},
                                        {"sat", "naive", 64, 48, Device::cpu},
                                        {"gaussian", "vanvliet", 64, 48, Device::cpu}},
                                       options);
    ASSERT_EQ(results.size(), 5u);
    for (size_t i : {0, 1, 3, 4}) expect_consistent(results[i], results[0]);
    EXPECT_NE(results[3].note.find("check: max error"), std::string::npos) << results[3].note;
    EXPECT_FALSE(measured(results[2]));
    EXPECT_FALSE(results[2].note.empty());
}

TEST(Bench, CasesThatCannotRunSayWhy) {
    const auto results = run_benchmark({{"cub-sat", "", kWidth, kHeight, Device::cpu},
                                        {"sat", "no-such-variant", kWidth, kHeight, Device::cpu},
                                        {"iir", "rt-order9", kWidth, kHeight, Device::cpu},
                                        {"fft", "", kWidth, kHeight, Device::cpu},
                                        {"copy", "", 0, kHeight, Device::cpu}},
                                       quick());
    for (const BenchResult &r : results) {
        EXPECT_FALSE(measured(r)) << r.c.op;
        EXPECT_TRUE(std::isnan(r.gips) && std::isnan(r.floor_fraction)) << r.c.op;
        EXPECT_FALSE(r.note.empty()) << r.c.op;
    }
    EXPECT_TRUE(starts_with(results[0].note, "unavailable")) << results[0].note;
}

TEST(Bench, CufftGaussianIsListedWithTheCopyModel) {
    const std::vector<std::string> &ops = bench_ops();
    EXPECT_NE(std::find(ops.begin(), ops.end(), "cufft-gaussian"), ops.end());
    EXPECT_EQ(bench_variants("cufft-gaussian"), std::vector<std::string>{""});
    EXPECT_EQ(bench_bytes_per_pixel("cufft-gaussian"), 8);
}

TEST(Bench, CufftGaussianOnTheCpuSaysWhy) {
    const auto results = run_benchmark({{"cufft-gaussian", "", kWidth, kHeight, Device::cpu}}, quick());
    EXPECT_FALSE(measured(results[0]));
    EXPECT_EQ(results[0].note, "unavailable: cufft-gaussian runs on CUDA only");
}

// OpenCV's Gaussian and integral image run beside ours on the CPU where the build found OpenCV:
// measured, their self-checks within float rounding, the integral's table checked in full.
TEST(Bench, OpenCvBaselinesRunOnTheCpu) {
    const std::string why = bench_opencv_unavailable_reason(Device::cpu);
    if (!why.empty()) GTEST_SKIP() << why;
    const auto results = run_benchmark({{"copy", "", 67, 45, Device::cpu},
                                        {"cv-gaussian", "", 67, 45, Device::cpu},
                                        {"cv-integral", "", 67, 45, Device::cpu}},
                                       quick());
    expect_all_consistent(results);
    for (size_t i = 1; i < results.size(); i++) {
        EXPECT_NE(results[i].note.find("self-check 67x45"), std::string::npos) << results[i].note;
        EXPECT_NE(results[i].note.find("OpenCV "), std::string::npos) << results[i].note;
    }
    EXPECT_NE(results[2].note.find("check: max error"), std::string::npos) << results[2].note;
    EXPECT_LE(opencv_self_check_error("cv-gaussian"), 1e-5);
    EXPECT_LE(opencv_self_check_error("cv-integral"), 1e-5);
}

TEST(Bench, OpenCvBaselinesSayWhyElsewhere) {
    const auto results = run_benchmark({{"cv-gaussian", "", kWidth, kHeight, Device::cuda},
                                        {"cv-integral", "", kWidth, kHeight, Device::cuda}},
                                       quick());
    for (const BenchResult &r : results) {
        EXPECT_FALSE(measured(r));
        EXPECT_TRUE(starts_with(r.note, "unavailable: ")) << r.note;
    }
    EXPECT_EQ(bench_bytes_per_pixel("cv-gaussian"), 8);
    EXPECT_EQ(bench_bytes_per_pixel("cv-integral"), 8);
    if (!bench_opencv_unavailable_reason(Device::cpu).empty())
        EXPECT_THROW(opencv_self_check_error("cv-gaussian"), std::exception);
}

TEST(Bench, RejectsNoRepetitions) {
    BenchOptions options = quick();
    options.repetitions = 0;
    EXPECT_THROW(run_benchmark({}, options), std::exception);
}

// Skips, saying why, unless the bench can time CUDA cases here.
bool cuda_unavailable(std::string &why) {
    if (cuda_info().devices == 0) {
        why = "no CUDA device: " + cuda_info().reason;
        return true;
    }
    why = bench_cuda_unavailable_reason();
    return !why.empty();
}

TEST(BenchCuda, UnavailableCudaIsReportedNotThrown) {
    std::string why;
    if (!cuda_unavailable(why)) GTEST_SKIP() << "CUDA is available here";
    const auto results = run_benchmark({{"copy", "", kWidth, kHeight, Device::cuda}}, quick());
    EXPECT_FALSE(measured(results[0]));
    EXPECT_TRUE(starts_with(results[0].note, "unavailable: ")) << results[0].note;
}

// Without a device no cufft-gaussian case runs, and the self-check says why instead.
TEST(BenchCuda, UnavailableCufftGaussianIsReportedNotThrown) {
    std::string why;
    if (!cuda_unavailable(why)) GTEST_SKIP() << "CUDA is available here";
    const auto results = run_benchmark({{"cufft-gaussian", "", kWidth, kHeight, Device::cuda}}, quick());
    EXPECT_FALSE(measured(results[0]));
    EXPECT_TRUE(starts_with(results[0].note, "unavailable: ")) << results[0].note;
    EXPECT_FALSE(bench_cufft_unavailable_reason().empty());
    EXPECT_THROW(cufft_gaussian_self_check_error(), std::exception);
}

TEST(BenchCuda, EveryOpOnTheDevice) {
    std::string why;
    if (cuda_unavailable(why)) GTEST_SKIP() << why;
    // A ragged size: partial tiles and strips everywhere.
    const int w = 261, h = 133;
    std::vector<BenchCase> cases = {{"copy", "", w, h, Device::cuda},
                                    {"cub-sat", "", w, h, Device::cuda},
                                    {"copy", "", w * h, 1, Device::cuda}};
    for (const std::string &v : bench_variants("sat")) cases.push_back({"sat", v, w, h, Device::cuda});
    // The 1D line variants take one long signal: the same samples as 1×(w·h).
    for (const std::string &v : bench_variants("iir")) {
        const bool line = starts_with(v, "line");
        cases.push_back({"iir", v, line ? w * h : w, line ? 1 : h, Device::cuda});
    }
    for (const std::string &v : bench_variants("gaussian"))
        cases.push_back({"gaussian", v, w, h, Device::cuda});
    // cuFFT is loaded at run time and may be missing where the driver is not (its own test says).
    const bool fft = bench_cufft_unavailable_reason().empty();
    if (fft) cases.push_back({"cufft-gaussian", "", w, h, Device::cuda});
    const auto results = run_benchmark(cases, quick());
    expect_all_consistent(results);
    EXPECT_NEAR(results[0].floor_fraction, 1.0, 1e-12);
    for (const BenchResult &r : results) {
        if ((r.c.op == "sat" || r.c.op == "cub-sat" || r.c.op == "gaussian") &&
            !starts_with(r.note, "not built"))
            EXPECT_NE(r.note.find("check: max error"), std::string::npos) << r.c.variant << ": " << r.note;
    }
    EXPECT_NE(results[1].note.find("self-check"), std::string::npos) << results[1].note;  // cub-sat
    if (fft)
        EXPECT_NE(results.back().note.find("self-check 67x45"), std::string::npos) << results.back().note;
    // At least the naive SAT is built for CUDA.
    const auto naive = std::find_if(results.begin(), results.end(), [](const BenchResult &r) {
        return r.c.op == "sat" && r.c.variant == "naive";
    });
    ASSERT_NE(naive, results.end());
    EXPECT_TRUE(measured(*naive)) << naive->note;
}

TEST(BenchCuda, CubSatSelfCheck) {
    std::string why;
    if (cuda_unavailable(why)) GTEST_SKIP() << why;
    EXPECT_LT(cub_sat_self_check_error(), 1e-5);
}

TEST(BenchCuda, CufftGaussianSelfCheck) {
    std::string why;
    if (cuda_unavailable(why)) GTEST_SKIP() << why;
    why = bench_cufft_unavailable_reason();
    if (!why.empty()) GTEST_SKIP() << why;
    EXPECT_LE(cufft_gaussian_self_check_error(), 1e-4);
}

}  // namespace
}  // namespace cascade
