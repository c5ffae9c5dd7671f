// The `cascade` command line, run as a user runs it: results against the reference, and every
// bad input ending in a one-line error, a non-zero exit and no output file.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cascade/device.h"
#include "cascade/gaussian_blur.h"
#include "file_bytes.h"
#include "io/image_io.h"
#include "reference.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

namespace fs = std::filesystem;

struct Result {
    int status;
    std::string out, err;
};

// Runs `cascade <args>`; arguments are not quoted, so tests keep them free of spaces.
Result run_cli(const std::string &args) {
    static const std::string dir = testing::temporary_folder();
    std::string out = dir + "/stdout", err = dir + "/stderr";
    int raw = std::system((testing::cli_path() + " " + args + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, testing::read_bytes(out), testing::read_bytes(err)};
}

class CliTest : public ::testing::Test {
protected:
    std::string dir = testing::temporary_folder();
    std::string path(const std::string &name) const { return dir + "/" + name; }

    // Expects failure with a one-line message containing `needle` (status 1: "cascade: error:",
    // 2: "cascade: usage error:"), and that `output` was not created.
    void expect_failure(const std::string &args, const std::string &output, const std::string &needle,
                        int status = 1) {
        Result r = run_cli(args);
        EXPECT_EQ(r.status, status) << args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind(status == 1 ? "cascade: error: " : "cascade: usage error: ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.err;
        EXPECT_FALSE(fs::exists(output)) << output;
        for (auto &entry : fs::directory_iterator(dir))
            EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    }

    std::string write_npy(const Image &image, const std::string &name) {
        write_image(path(name), from_planar_float(image, SampleType::f32));
        return path(name);
    }
};

std::string join(const std::vector<double> &a) {
    std::ostringstream s;
    s.precision(17);
    for (size_t k = 0; k < a.size(); k++) s << (k ? "," : "") << a[k];
    return s.str();
}

void expect_matches_reference(const std::string &device) {
    auto rng = testing::rng_for_test();
    std::string dir = testing::temporary_folder();
    struct Size {
        int w, h;
    };
    for (Size size : {Size{1, 1}, Size{1, 23}, Size{23, 1}, Size{61, 37}, Size{2000, 3}}) {
        for (int order = 1; order <= 4; order++)
            for (const char *algorithm : {"rt", "2", "4", "5", "6"}) {
                RecursiveFilter f = testing::random_stable_filter(rng, order, 0.95, order % 2 == 0);
                Image input = testing::random_image(rng, size.w, size.h, 2);
                std::string in = dir + "/in.npy", out = dir + "/out.npy";
                write_image(in, from_planar_float(input, SampleType::f32));
                std::string args = "iir " + in + " " + out + " --feedback=" + join(f.feedback) +
                                   " --gain=" + join({f.gain}) + " --boundary none --algorithm " + algorithm +
                                   " --device " + device;
                Result r = run_cli(args);
                ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
                Image output = to_planar_float(read_image(out));
                ASSERT_EQ(output.width, size.w);
                ASSERT_EQ(output.height, size.h);
                ASSERT_EQ(output.channels, 2);
                auto expected = reference::filter_2d(Filter2D{f, f}, input);
                for (int c = 0; c < 2; c++)
                    EXPECT_LE(testing::relative_l2(reference::plane(output, c), expected[c]), 1e-5)
                        << size.w << "x" << size.h << " order " << order << " algorithm " << algorithm;
            }
    }
}

TEST(Cli, IirMatchesReferenceOnCpu) { expect_matches_reference("cpu"); }

TEST(Cli, IirMatchesReferenceOnCuda) {
    if (cuda_info().devices == 0) GTEST_SKIP() << "no CUDA device: " << cuda_info().reason;
    if (!has_variants(Device::cuda)) GTEST_SKIP() << "this build has no CUDA variants";
    expect_matches_reference("cuda");
}

TEST(Cli, HelpExplainsEveryOption) {
    Result top = run_cli("--help");
    EXPECT_EQ(top.status, 0);
    EXPECT_NE(top.out.find("iir"), std::string::npos);
    Result iir = run_cli("iir --help");
    EXPECT_EQ(iir.status, 0);
    for (const char *option : {"--feedback", "--gain", "--boundary", "--algorithm", "--device",
                               "--output-type", "IN", "OUT", "quantized", "anticausal"})
        EXPECT_NE(iir.out.find(option), std::string::npos) << option;
}

TEST(Cli, EverySubcommandExplainsItsOptions) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
        {"gaussian", {"--sigma", "--method", "--boundary", "--algorithm", "--device", "--output-type"}},
        {"bspline", {"--order", "--boundary", "--algorithm", "--device", "--output-type"}},
        {"sat", {"--algorithm", "--exclusive", "--device", "1r1w-split"}},
        {"box", {"--radius", "--boundary", "--device", "mirror", "periodic"}},
        {"bench", {"--op", "--variants", "--sizes", "--device", "--repetitions", "--json", "--check"}}};
    Result top = run_cli("--help");
    for (const auto &[command, options] : commands) {
        EXPECT_NE(top.out.find(command), std::string::npos) << command;
        Result r = run_cli(command + " --help");
        EXPECT_EQ(r.status, 0) << command;
        for (const auto &option : options)
            EXPECT_NE(r.out.find(option), std::string::npos) << command << " " << option;
    }
}

TEST_F(CliTest, BlursTheBundledSampleIntoEveryFormat) {
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    for (const char *name : {"blur.png", "blur.tif", "blur.pfm", "blur.npy"}) {
        Result r = run_cli("iir " + sample + " " + path(name) + " --feedback -0.6 --device cpu");
        ASSERT_EQ(r.status, 0) << name << ": " << r.err;
        RawImage raw = read_image(path(name));
        EXPECT_EQ(raw.width, 512u);
        EXPECT_EQ(raw.height, 512u);
        EXPECT_EQ(raw.channels, 3u);
        EXPECT_EQ(raw.type, default_output_type(path(name)));
    }
}

// 8- and 16-bit images written as such go through the variants that convert inside the pipeline
// (algorithm 6); rt converts on the host. Both round the same filter: within one level.
TEST_F(CliTest, IntegerImagesMatchTheHostConversion) {
    const RawImage sample = read_image(testing::source_dir() + "/data/astronaut.png");
    write_image(path("in16.tif"), from_planar_float(to_planar_float(sample), SampleType::u16));
    for (const std::string &in : {testing::source_dir() + "/data/astronaut.png", path("in16.tif")}) {
        const std::string ext = in.substr(in.size() - 4);
        const SampleType type = ext == ".png" ? SampleType::u8 : SampleType::u16;
        for (const char *filter : {"gaussian --sigma 3 --boundary clamp", "bspline --boundary mirror"}) {
            const std::string args =
                std::string(filter) + " --device cpu --output-type " + sample_name(type) + " " + in + " ";
            Result fast = run_cli(args + path("pipeline" + ext));
            Result host = run_cli(args + path("host" + ext) + " --algorithm rt");
            ASSERT_EQ(fast.status, 0) << fast.err;
            ASSERT_EQ(host.status, 0) << host.err;
            const RawImage a = read_image(path("pipeline" + ext)), b = read_image(path("host" + ext));
            ASSERT_EQ(a.type, type);
            ASSERT_EQ(a.samples(), b.samples());
            double worst = 0;
            for (size_t n = 0; n < a.samples(); n++)
                worst = std::max(worst, std::abs(raw_sample(a, n) - raw_sample(b, n)));
            EXPECT_LE(worst, 1.0) << filter << " " << in;
        }
    }
}

TEST_F(CliTest, BadInputsFailCleanly) {
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    const std::string out = path("out.npy");
    std::ofstream(path("corrupt.png")) << "this is not a png";
    std::ofstream(path("notes.txt")) << "text";
    Image nan_image(4, 3, 1);
    nan_image.at(1, 2, 0) = NAN;
    std::string nan_npy = write_npy(nan_image, "nan.npy");

    expect_failure("iir " + path("missing.png") + " " + out + " --feedback -0.5", out, "missing.png");
    expect_failure("iir " + path("corrupt.png") + " " + out + " --feedback -0.5", out, "corrupt.png");
    expect_failure("iir " + path("notes.txt") + " " + out + " --feedback -0.5", out, ".txt");
    expect_failure("iir " + sample + " " + path("out.bmp") + " --feedback -0.5", path("out.bmp"),
                   "extension");
    expect_failure("iir " + sample + " " + out + " --feedback=", out, "--feedback", 2);
    expect_failure("iir " + sample + " " + out + " --feedback=,", out, "empty item");
    expect_failure("iir " + sample + " " + out + " --feedback 0.5,abc", out, "abc");
    expect_failure("iir " + sample + " " + out + " --feedback -1.0", out, "unstable");
    expect_failure("iir " + sample + " " + out + " --feedback 0.2,1.1", out, "unstable");
    expect_failure("iir " + sample + " " + out + " --feedback -0.5 --gain nan", out, "finite");
    expect_failure("iir " + nan_npy + " " + out + " --feedback -0.5", out, "non-finite");
    expect_failure(
        "iir " + sample + " " + out + " --feedback -0.5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", out,
        "this build has orders");
    if (cuda_info().devices == 0)
        expect_failure("iir " + sample + " " + out + " --feedback -0.5 --device cuda", out, "--device cuda");
}

TEST_F(CliTest, BatchIsOneCallWithTheResultsOfSeparateCalls) {
    auto rng = testing::rng_for_test();
    const Image a = testing::random_image(rng, 70, 45, 1), b = testing::random_image(rng, 70, 45, 3);
    const std::string in_a = write_npy(a, "a.npy"), in_b = write_npy(b, "b.npy");
    const std::string out_dir = path("out");
    Result r = run_cli("gaussian --sigma 3 --device cpu " + in_a + " " + in_b + " --out-dir " + out_dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char *name : {"a.npy", "b.npy"}) {
        Result single = run_cli("gaussian --sigma 3 --device cpu " + path(name) + " " +
                                path(std::string("single_") + name));
        ASSERT_EQ(single.status, 0) << single.err;
        Image batched = to_planar_float(read_image(out_dir + "/" + name));
        Image alone = to_planar_float(read_image(path(std::string("single_") + name)));
        ASSERT_EQ(batched.channels, alone.channels);
        EXPECT_EQ(batched.data, alone.data) << name;
    }
}

TEST_F(CliTest, AxesFilterOneDimensionOnly) {
    auto rng = testing::rng_for_test();
    const RecursiveFilter f = testing::random_stable_filter(rng, 2, 0.9, true);
    const RecursiveFilter identity = RecursiveFilter::identity();
    for (const char *axes : {"x", "y"}) {
        // A long 1D signal along the filtered axis, and a small image.
        for (auto [w, h] :
             {std::pair{std::string(axes) == "x" ? 5000 : 1, std::string(axes) == "x" ? 1 : 5000},
              std::pair{37, 23}}) {
            const Image input = testing::random_image(rng, w, h, 1);
            const std::string in = write_npy(input, "in.npy"), out = path("out.npy");
            Result r = run_cli("iir " + in + " " + out + " --device cpu --axes " + axes +
                               " --feedback=" + join(f.feedback) + " --gain=" + join({f.gain}));
            ASSERT_EQ(r.status, 0) << r.err;
            const Filter2D expected_filter =
                std::string(axes) == "x" ? Filter2D{identity, f} : Filter2D{f, identity};
            auto expected = reference::filter_2d(expected_filter, input);
            EXPECT_TRUE(testing::within_relative_l2(reference::plane(to_planar_float(read_image(out)), 0),
                                                    expected[0], 1e-5))
                << axes << " " << w << "x" << h;
        }
    }
}

// --passes runs part of the filter (cascade::Passes): rows under clamp, the causal passes under
// none, each against the double reference; one direction under an exact boundary is refused.
TEST_F(CliTest, PassesRunPartOfTheFilter) {
    auto rng = testing::rng_for_test();
    // Poles below runtime/iir.cpp's kLevelPole: the parts built (catalogue/comparison.json) are not about a level.
    const RecursiveFilter f = unit_gain_filter({{0.6, 0.25}, {0.6, -0.25}});
    const RecursiveFilter identity = RecursiveFilter::identity();
    const Image input = testing::random_image(rng, 37, 23, 1);
    const std::string in = write_npy(input, "in.npy"), out = path("out.npy");
    const std::string filter = " --feedback=" + join(f.feedback) + " --gain=" + join({f.gain});
    Result r = run_cli("iir " + in + " " + out + " --device cpu --passes rows --boundary clamp" + filter);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(testing::within_relative_l2(
        reference::plane(to_planar_float(read_image(out)), 0),
        reference::filter_2d({identity, f}, reference::plane(input, 0), Boundary::clamp), 1e-5));
    r = run_cli("iir " + in + " " + out + " --device cpu --passes causal" + filter);
    ASSERT_EQ(r.status, 0) << r.err;
    const reference::Matrix X = reference::plane(input, 0);
    const reference::Matrix causal =
        reference::causal_rows(f, reference::Matrix::Zero(X.rows(), f.order()),
                               reference::causal(f, reference::Matrix::Zero(f.order(), X.cols()), X));
    EXPECT_TRUE(
        testing::within_relative_l2(reference::plane(to_planar_float(read_image(out)), 0), causal, 1e-5));
    const std::string refused = path("refused.npy");
    r = run_cli("iir " + in + " " + refused + " --device cpu --passes anticausal --boundary mirror" + filter);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("take boundary none"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(refused));
}

TEST_F(CliTest, BatchOfDifferentSizesFailsWithoutOutput) {
    auto rng = testing::rng_for_test();
    const std::string in_a = write_npy(testing::random_image(rng, 20, 10, 1), "a.npy");
    const std::string in_b = write_npy(testing::random_image(rng, 21, 10, 1), "b.npy");
    const std::string out_dir = path("out");
    expect_failure("gaussian --sigma 2 --device cpu " + in_a + " " + in_b + " --out-dir " + out_dir,
                   out_dir + "/a.npy", "differ in size");
    EXPECT_FALSE(fs::exists(out_dir));
}

TEST_F(CliTest, FailureLeavesAnExistingOutputUntouched) {
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    const std::string out = path("keep.npy");
    std::ofstream(out) << "precious";
    Result r = run_cli("iir " + sample + " " + out + " --feedback -1.5");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(testing::read_bytes(out), "precious");
}

TEST_F(CliTest, GaussianMethodsMatchTheirReferences) {
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, 41, 29, 2);
    const std::string in = write_npy(input, "in.npy");
    for (const char *method : {"vanvliet", "deriche2", "deriche4", "twoway"}) {
        const std::string out = path(std::string(method) + ".npy");
        Result r = run_cli("gaussian " + in + " " + out + " --sigma 3 --device cpu --method " + method);
        ASSERT_EQ(r.status, 0) << method << ": " << r.err;
        const Image output = to_planar_float(read_image(out));
        const GaussianDesign design = design_gaussian(3, parse_gaussian_method(method));
        for (int c = 0; c < 2; c++) {
            const auto x = reference::plane(input, c);
            const std::string m = method;
            const auto expected =
                m == "vanvliet" ? reference::filter_2d(Filter2D{design.parts.pass, design.parts.pass}, x)
                : m == "twoway" ? reference::two_way_2d(design.two_way, x)
                                : reference::fir_iir_2d(design.parts, x);
            EXPECT_TRUE(testing::within_relative_l2(reference::plane(output, c), expected, 1e-5))
                << method << " channel " << c;
        }
    }
}

TEST_F(CliTest, TwoWayTakesABoundary) {
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, 41, 29, 1);
    const std::string in = write_npy(input, "in.npy"), out = path("twoway-reflect.npy");
    Result r =
        run_cli("gaussian " + in + " " + out + " --sigma 3 --device cpu --method twoway --boundary reflect");
    ASSERT_EQ(r.status, 0) << r.err;
    const GaussianDesign design = design_gaussian(3, GaussianMethod::twoway);
    EXPECT_TRUE(testing::within_relative_l2(
        reference::plane(to_planar_float(read_image(out)), 0),
        reference::two_way_2d(design.two_way, reference::plane(input, 0), Boundary::reflect), 1e-5));
}

TEST_F(CliTest, GaussianRefusesBadSigmaAndUnknownMethods) {
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    const std::string out = path("out.npy");
    for (const char *method : {"vanvliet", "deriche2", "deriche4", "twoway"}) {
        const std::string command = "gaussian " + sample + " " + out + " --device cpu --method " + method;
        expect_failure(command + " --sigma 0", out, "sigma 0 is outside");
        expect_failure(command + " --sigma=-1", out, "sigma -1 is outside");
        expect_failure(command + " --sigma nan", out, "sigma nan is outside");
    }
    expect_failure("gaussian " + sample + " " + out + " --sigma 50 --method deriche4", out, "deriche4");
    expect_failure("gaussian " + sample + " " + out + " --sigma 2 --method gauss", out, "--method", 2);
    expect_failure("gaussian " + sample + " " + out + " --sigma 2 --method twoway --algorithm rt", out,
                   "own traversal");
}

TEST_F(CliTest, UsageErrorsExitWithTwo) {
    EXPECT_EQ(run_cli("").status, 2);
    EXPECT_EQ(run_cli("iir").status, 2);
    EXPECT_EQ(run_cli("iir a.png b.png --feedback -0.5 --device gpu").status, 2);
    EXPECT_EQ(run_cli("iir a.png b.png --feedback -0.5 --algorithm 7").status, 2);
    EXPECT_EQ(run_cli("frobnicate").status, 2);
}

}  // namespace
}  // namespace cascade

namespace cascade {
namespace {

TEST_F(CliTest, SatWritesExactIntegerTables) {
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    for (const char *algorithm : {"naive", "overlapped", "2r1w", "1r1w", "1r1w-split", "strips", "auto"}) {
        const std::string out = path(std::string("sat-") + algorithm + ".npy");
        Result r =
            run_cli("sat " + sample + " " + out + " --exclusive --device cpu --algorithm " + algorithm);
        ASSERT_EQ(r.status, 0) << r.err;
        RawImage input = read_image(sample), table = read_image(out);
        ASSERT_EQ(table.type, SampleType::u32);
        ASSERT_EQ(table.width, 513u);
        ASSERT_EQ(table.height, 513u);
        // The last entry of each channel is the channel's total.
        for (size_t c = 0; c < 3; c++) {
            uint64_t total = 0;
            for (size_t n = c; n < input.samples(); n += 3) total += input.bytes[n];
            uint32_t last;
            std::memcpy(&last, &table.bytes[(table.samples() - 3 + c) * 4], 4);
            EXPECT_EQ(last, total) << algorithm;
        }
    }
}

// The coefficients, sampled back through the cubic B-spline [1 4 1]/6 in both directions, give
// the image back away from the edges (boundary none is exact only there).
TEST_F(CliTest, BSplineCoefficientsReproduceTheImage) {
    auto rng = testing::rng_for_test();
    Image input = testing::random_image(rng, 160, 140, 1);
    const std::string in = write_npy(input, "image.npy"), out = path("coefficients.npy");
    Result r = run_cli("bspline " + in + " " + out + " --order 3 --device cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    Image c = to_planar_float(read_image(out));
    const float w[3] = {1.0f / 6, 4.0f / 6, 1.0f / 6};
    double worst = 0;
    for (int y = 40; y < 100; y++)
        for (int x = 40; x < 120; x++) {
            double v = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++) v += w[j + 1] * w[i + 1] * c.at(x + i, y + j, 0);
            worst = std::max(worst, std::abs(v - input.at(x, y, 0)));
        }
    EXPECT_LT(worst, 1e-5);
    expect_failure("bspline " + in + " " + path("b.npy") + " --order 4", path("b.npy"), "--order", 2);
}

TEST_F(CliTest, SatRefusesWhatItCannotDo) {
    const std::string sample = testing::source_dir() + "/data/astronaut.png";
    expect_failure("sat " + sample + " " + path("t.png") + " --device cpu", path("t.png"), "PNG");
    expect_failure("sat " + sample + " " + path("t.bmp"), path("t.bmp"), "extension");
    expect_failure("sat " + sample + " " + path("t.npy") + " --algorithm fast", path("t.npy"), "algorithm",
                   2);
}

}  // namespace
}  // namespace cascade
