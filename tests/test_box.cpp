// The box filter against brute-force double sums over explicitly extended images, its per-axis
// coverage terms against brute-force counts, and `cascade box` run as a user runs it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "cascade/box.h"
#include "cascade/device.h"
#include "cascade/error.h"
#include "io/image_io.h"
#include "reference.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

using Matrix = Eigen::MatrixXd;
using testing::relative_l2;

const Boundary kBoundaries[] = {Boundary::zero, Boundary::clamp, Boundary::reflect, Boundary::mirror,
                                Boundary::periodic};

// The source index of extended position t, -1 for a zero: the extension folded back edge by edge
// (deliberately not the period arithmetic of the implementation).
int64_t source_index(int64_t t, int64_t n, Boundary b) {
    switch (b) {
        case Boundary::none:
        case Boundary::zero:
            return t >= 0 && t < n ? t : -1;
        case Boundary::clamp:
            return std::clamp<int64_t>(t, 0, n - 1);
        case Boundary::periodic:
            while (t < 0) t += n;
            while (t >= n) t -= n;
            return t;
        case Boundary::reflect:
            while (t < 0 || t >= n) t = t < 0 ? -1 - t : 2 * n - 1 - t;
            return t;
        case Boundary::mirror:
            if (n == 1) return 0;
            while (t < 0 || t >= n) t = t < 0 ? -t : 2 * n - 2 - t;
            return t;
    }
    return -1;
}

// The box mean of one channel, summing the (2R+1)² extended samples of every window.
Matrix brute_box_mean(const Image &image, int c, int radius, Boundary b) {
    const int w = image.width, h = image.height;
    std::vector<int64_t> mx, my;  // source index of extended position t, at t + radius
    for (int t = -radius; t < w + radius; t++) mx.push_back(source_index(t, w, b));
    for (int t = -radius; t < h + radius; t++) my.push_back(source_index(t, h, b));
    Matrix out(h, w);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double sum = 0;
            for (int v = y; v <= y + 2 * radius; v++)
                for (int u = x; u <= x + 2 * radius; u++)
                    if (my[v] >= 0 && mx[u] >= 0) sum += image.at(int(mx[u]), int(my[v]), c);
            out(y, x) = sum / ((2.0 * radius + 1) * (2.0 * radius + 1));
        }
    return out;
}

struct Size {
    int width, height;
};

void expect_matches_brute_force(DeviceChoice device) {
    auto rng = testing::rng_for_test();
    int channels = 0;
    for (Size s : {Size{1, 1}, Size{1, 7}, Size{7, 1}, Size{5, 3}, Size{13, 17}, Size{31, 29}})
        for (Boundary b : kBoundaries)
            for (int radius : {0, 1, 2, 5, 3 * std::max(s.width, s.height) + 1}) {
                channels = channels % 3 + 1;
                Image input = testing::random_image(rng, s.width, s.height, channels);
                Image output = box_mean(input, radius, b, device);
                ASSERT_EQ(output.width, s.width);
                ASSERT_EQ(output.height, s.height);
                ASSERT_EQ(output.channels, channels);
                for (int c = 0; c < channels; c++)
                    EXPECT_LE(relative_l2(reference::plane(output, c), brute_box_mean(input, c, radius, b)),
                              1e-5)
                        << s.width << "x" << s.height << " " << boundary_name(b) << " radius " << radius
                        << " channel " << c;
            }
}

TEST(Box, MatchesBruteForceOnCpu) { expect_matches_brute_force(DeviceChoice::cpu); }

TEST(Box, MatchesBruteForceOnCuda) {
    if (!has_variants(Device::cuda)) GTEST_SKIP() << "this build has no CUDA variants";
    if (cuda_info().devices == 0) GTEST_SKIP() << "no CUDA device: " << cuda_info().reason;
    expect_matches_brute_force(DeviceChoice::cuda);
}

// Radii far beyond the image, against the separable form of the brute force: per-axis counts
// of every source index, from the folded index map (O(R) per position, so R can be large).
TEST(Box, HugeRadiiMatchSeparableCounts) {
    auto rng = testing::rng_for_test();
    const int w = 5, h = 3;
    Image input = testing::random_image(rng, w, h, 2);
    for (Boundary b : kBoundaries)
        for (int radius : {7, 1000, 20011}) {
            auto counts = [&](int n) {
                Matrix m = Matrix::Zero(n, n);  // m(position, source)
                for (int x = 0; x < n; x++)
                    for (int64_t t = x - radius; t <= x + radius; t++)
                        if (int64_t i = source_index(t, n, b); i >= 0) m(x, i) += 1;
                return m;
            };
            const Matrix cx = counts(w), cy = counts(h);
            const double area = (2.0 * radius + 1) * (2.0 * radius + 1);
            Image output = box_mean(input, radius, b, DeviceChoice::cpu);
            for (int c = 0; c < 2; c++) {
                Matrix expected = cy * reference::plane(input, c) * cx.transpose() / area;
                EXPECT_LE(relative_l2(reference::plane(output, c), expected), 1e-5)
                    << boundary_name(b) << " radius " << radius << " channel " << c;
            }
        }
}

TEST(Box, ConstantImagesStayConstant) {
    for (float value : {0.37f, -2.5f, 123.456f})
        for (Size s : {Size{1, 1}, Size{1, 7}, Size{7, 1}, Size{5, 3}, Size{31, 29}})
            for (Boundary b : {Boundary::clamp, Boundary::reflect, Boundary::mirror, Boundary::periodic})
                for (int radius : {0, 1, 2, 5, 3 * std::max(s.width, s.height) + 1, 100000}) {
                    Image input(s.width, s.height, 2);
                    std::fill(input.data.begin(), input.data.end(), value);
                    Image output = box_mean(input, radius, b, DeviceChoice::cpu);
                    double worst = 0;
                    for (float v : output.data) worst = std::max(worst, std::abs(double(v) - value));
                    EXPECT_LE(worst, 1e-6 * std::max(1.0f, std::abs(value)))
                        << value << " " << s.width << "x" << s.height << " " << boundary_name(b) << " radius "
                        << radius;
                }
}

// Float32 tables of values near 1000 would lose ~3 digits to cancellation; the channel mean is
// subtracted first. Error is measured against the (value − 1000) part, beyond the float32
// rounding of the output itself (half an ulp at 1000 is 3e-5, which no float32 result avoids).
TEST(Box, LargeMeanKeepsTheDetail) {
    auto rng = testing::rng_for_test();
    const int w = 200, h = 150;
    Image input = testing::random_image(rng, w, h, 1), detail = input;
    for (size_t i = 0; i < input.data.size(); i++) {
        input.data[i] = 1000.5f + 0.5f * input.data[i];
        detail.data[i] = input.data[i] - 1000.0f;  // exact
    }
    for (Boundary b : kBoundaries)
        for (int radius : {1, 5, 40}) {
            Image output = box_mean(input, radius, b, DeviceChoice::cpu);
            Matrix full = brute_box_mean(input, 0, radius, b), part = brute_box_mean(detail, 0, radius, b);
            const double scale = part.norm() / std::sqrt(double(part.size()));
            double worst = 0;  // error beyond rounding, relative to the rms of the detail
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    const double ref = full(y, x);
                    const float rounded = float(ref);
                    const double half_ulp =
                        0.5 * (std::nextafter(rounded, std::numeric_limits<float>::infinity()) - rounded);
                    const double excess = std::abs(output.at(x, y, 0) - ref) - half_ulp;
                    worst = std::max(worst, excess / scale);
                }
            EXPECT_LE(worst, 1e-5) << boundary_name(b) << " radius " << radius;
        }
}

// The counts the terms encode, index by index: count(i) = Σ of the coefficients of terms k ≥ i.
std::vector<int64_t> counts_from_terms(const std::vector<AxisTerm> &terms, int64_t n) {
    std::vector<int64_t> counts(n, 0);
    for (const AxisTerm &t : terms)
        for (int64_t i = 0; i <= t.k; i++) counts[i] += t.coefficient;
    return counts;
}

TEST(Box, AxisTermsCountEveryIndexExactly) {
    for (Boundary b : kBoundaries)
        for (int64_t n : {1, 2, 3, 7})
            for (int64_t x0 = -5 * n - 3; x0 <= 5 * n + 3; x0++)
                for (int64_t x1 = x0 - 1; x1 <= x0 + 12 * n + 2; x1++) {
                    std::vector<int64_t> expected(n, 0);
                    for (int64_t t = x0; t <= x1; t++)
                        if (int64_t i = source_index(t, n, b); i >= 0) expected[i]++;
                    std::vector<AxisTerm> terms = box_axis_terms(n, x0, x1, b);
                    ASSERT_EQ(counts_from_terms(terms, n), expected)
                        << boundary_name(b) << " n " << n << " [" << x0 << ", " << x1 << "]";
                    for (size_t j = 0; j < terms.size(); j++) {
                        EXPECT_NE(terms[j].coefficient, 0);
                        EXPECT_TRUE(terms[j].k >= 0 && terms[j].k < n);
                        if (j > 0) {
                            EXPECT_LT(terms[j - 1].k, terms[j].k);
                        }
                    }
                }
}

TEST(Box, AxisTermsStayExactForHugeWindows) {
    const int64_t x0 = -1'000'000'000'007, x1 = 3'000'000'000'011;
    for (Boundary b : {Boundary::clamp, Boundary::reflect, Boundary::mirror, Boundary::periodic})
        for (int64_t n : {1, 2, 7, 1000}) {
            std::vector<int64_t> counts = counts_from_terms(box_axis_terms(n, x0, x1, b), n);
            int64_t total = 0;
            for (int64_t c : counts) total += c;
            EXPECT_EQ(total, x1 - x0 + 1) << boundary_name(b) << " n " << n;
        }
    // Periodic: every index is covered ⌊len/n⌋ or ⌈len/n⌉ times.
    std::vector<int64_t> counts = counts_from_terms(box_axis_terms(7, x0, x1, Boundary::periodic), 7);
    for (int64_t c : counts) EXPECT_LE(std::abs(c - (x1 - x0 + 1) / 7), 1);
    EXPECT_EQ(counts_from_terms(box_axis_terms(7, x0, x1, Boundary::zero), 7), std::vector<int64_t>(7, 1));
}

TEST(Box, ParsesBoundariesAndRejectsBadArguments) {
    for (Boundary b : kBoundaries) EXPECT_EQ(parse_boundary(boundary_name(b)), b);
    for (const char *bad : {"wrap", "", "Zero", "reflect101"}) {
        try {
            parse_boundary(bad);
            ADD_FAILURE() << "'" << bad << "' was accepted";
        } catch (const Error &e) {
            for (const char *name : {"zero", "clamp", "reflect", "mirror", "periodic"})
                EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
    Image image(3, 2, 1);
    EXPECT_THROW(
        {
            try {
                box_mean(image, -1, Boundary::clamp, DeviceChoice::cpu);
            } catch (const Error &e) {
                EXPECT_STREQ(e.what(), "radius must be a non-negative integer");
                throw;
            }
        },
        Error);
    EXPECT_THROW(box_mean(Image(), 1, Boundary::clamp, DeviceChoice::cpu), Error);
    EXPECT_THROW(box_mean(Image(0, 4, 1), 1, Boundary::clamp, DeviceChoice::cpu), Error);
}

// `cascade box` as a user runs it (arguments without spaces; no shell quoting).
struct CliResult {
    int status;
    std::string err;
};

CliResult run_box_cli(const std::string &args) {
    static const std::string dir = testing::temporary_folder();
    const std::string err = dir + "/stderr";
    int raw = std::system((testing::cli_path() + " box " + args + " >/dev/null 2>" + err).c_str());
    std::ifstream in(err);
    std::stringstream text;
    text << in.rdbuf();
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, text.str()};
}

TEST(BoxCli, FiltersTheBundledSample) {
    const std::string out = testing::temporary_folder() + "/box.png";
    CliResult r =
        run_box_cli(testing::source_dir() + "/data/astronaut.png " + out + " --radius 3 --device cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    RawImage raw = read_image(out);
    EXPECT_EQ(raw.width, 512u);
    EXPECT_EQ(raw.height, 512u);
    EXPECT_EQ(raw.channels, 3u);
}

TEST(BoxCli, BadArgumentsFailCleanly) {
    namespace fs = std::filesystem;
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    const std::string out = testing::temporary_folder() + "/out.png";
    for (const char *args : {"--radius -1", "--radius=-1", "--radius 2.5", "--radius abc", "--radius 3x",
                             "--radius 99999999999", "--radius 3 --boundary wrap", ""}) {
        CliResult r = run_box_cli(sample + " " + out + " " + args);
        EXPECT_NE(r.status, 0) << args;
        EXPECT_EQ(r.err.rfind("cascade: ", 0), 0u) << args << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
        EXPECT_FALSE(fs::exists(out)) << args;
    }
    EXPECT_NE(run_box_cli(sample + " " + out + " --radius 2.5").err.find("non-negative integer"),
              std::string::npos);
    EXPECT_NE(run_box_cli(sample + " " + out + " --radius -1").err.find("non-negative integer"),
              std::string::npos);
    EXPECT_NE(run_box_cli(sample + " " + out + " --radius 1 --boundary wrap").err.find("wrap"),
              std::string::npos);
}

}  // namespace
}  // namespace cascade
