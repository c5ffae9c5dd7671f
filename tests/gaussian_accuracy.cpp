// Prints the accuracy tables of docs/gaussian.md: each Gaussian method against a sampled,
// normalised Gaussian (its design in double, and the float32 CPU pipeline), each pipeline against
// its own double-precision reference, and PSNRs against the exact blur of the bundled sample.
// Run from the source folder: build/tests/gaussian_accuracy [gaussian|reference|psnr].
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "cascade/gaussian.h"
#include "cascade/gaussian_blur.h"
#include "io/image_io.h"
#include "reference.h"

namespace cascade {
namespace {

using Matrix = reference::Matrix;

// The sampled Gaussian on [−half, half], scaled to sum 1.
Eigen::VectorXd gaussian(double sigma, int half) {
    Eigen::VectorXd g(2 * half + 1);
    for (int i = 0; i < g.size(); i++) g(i) = std::exp(-0.5 * std::pow((i - half) / sigma, 2));
    return g / g.sum();
}

struct Errors {
    double l2, max;  // relative L2, and max |error| over the peak
};

Errors compare(const Matrix &a, const Matrix &expected) {
    return {(a - expected).norm() / expected.norm(),
            (a - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff()};
}

// The design's 1D impulse response in double: the numerator, then the causal–anticausal pair.
Matrix design_response(const GaussianDesign &d, int half) {
    Matrix x = Matrix::Zero(2 * half + 1, 1);
    x(half, 0) = 1.0;
    Matrix n = reference::fir_2d(d.parts.taps, {1.0}, x);
    auto zeros = Matrix::Zero(d.parts.pass.order(), 1);
    return reference::anticausal(d.parts.pass, reference::causal(d.parts.pass, zeros, n), zeros);
}

// The float32 CPU pipeline's 2D impulse response, the impulse `offset` samples right of and below
// the image's centre (for twoway, the centre point of its lines), cropped back around it.
Matrix pipeline_response(const GaussianDesign &d, int half, int offset = 0) {
    const int n = 2 * (half + offset) + 1;
    Image impulse(n, n, 1);
    impulse.at(n / 2 + offset, n / 2 + offset, 0) = 1.0f;
    const Matrix out = reference::plane(gaussian_blur(impulse, d, {Boundary::none, DeviceChoice::cpu}), 0);
    return out.block(2 * offset, 2 * offset, 2 * half + 1, 2 * half + 1);
}

GaussianDesign design(GaussianMethod method, double sigma) {
    // deriche4 beyond its limit, to show why there is one.
    if (method == GaussianMethod::deriche4 && sigma > kDeriche4MaxSigma) {
        const FirIirGaussian parts = deriche4_gaussian_unchecked(sigma);
        return {method, sigma, sigma, parts, parts.pass};
    }
    return design_gaussian(sigma, method);
}

const GaussianMethod kMethods[] = {GaussianMethod::vanvliet, GaussianMethod::deriche2,
                                   GaussianMethod::deriche4};

double psnr(const Matrix &a, const Matrix &expected) {  // samples in [0, 1]
    return 10 * std::log10(1.0 / (a - expected).squaredNorm() * double(a.size()));
}

void against_gaussian() {
    std::printf("## Against the sampled Gaussian (impulse responses)\n\n");
    std::printf(
        "| method | sigma | design 1D rel. L2 | design 1D max/peak | float32 2D rel. L2 | float32 2D "
        "max/peak |\n");
    std::printf("| --- | --- | --- | --- | --- | --- |\n");
    for (GaussianMethod method : kMethods)
        for (double sigma : {1.0, 2.0, 4.0, 8.0, 16.0, 64.0}) {
            const int half = int(std::ceil(8 * sigma)) + 8;
            const GaussianDesign d = design(method, sigma);
            const Eigen::VectorXd g = gaussian(sigma, half);
            const Errors one = compare(design_response(d, half), g);
            const Errors two = compare(pipeline_response(d, half), g * g.transpose());
            std::printf("| %s%s | %g | %.2e | %.2e | %.2e | %.2e |\n", gaussian_method_name(method),
                        sigma > kDeriche4MaxSigma && method == GaussianMethod::deriche4 ? " (refused)" : "",
                        sigma, one.l2, one.max, two.l2, two.max);
        }
    // twoway: position-dependent. On the centre point of both steps, and sigma and 3·sigma
    // diagonally away from it.
    for (double sigma : {1.0, 2.0, 4.0, 8.0, 16.0, 64.0}) {
        const int half = int(std::ceil(8 * sigma)) + 8;
        const GaussianDesign d = design_gaussian(sigma, GaussianMethod::twoway);
        const Eigen::VectorXd g = gaussian(sigma, half);
        for (int offset : {0, int(std::ceil(sigma)), int(std::ceil(3 * sigma))}) {
            const Errors two = compare(pipeline_response(d, half, offset), g * g.transpose());
            std::printf("| twoway, impulse %d off the centre | %g | | | %.2e | %.2e |\n", offset, sigma,
                        two.l2, two.max);
        }
    }
    std::printf("\n");
}

// PSNR (peak 1) against the exact blur — the direct convolution with the sampled Gaussian to
// ±6σ, the image zero outside, in double — of the bundled sample in gray, the whole image and
// its interior 3σ from the borders (where the recursive filters' zero start has faded).
void psnr_table() {
    const Image rgb = to_planar_float(read_image("data/astronaut.png"));
    Image gray(rgb.width, rgb.height, 1);
    for (int y = 0; y < rgb.height; y++)
        for (int x = 0; x < rgb.width; x++)
            gray.at(x, y, 0) = (rgb.at(x, y, 0) + rgb.at(x, y, 1) + rgb.at(x, y, 2)) / 3.0f;
    const Matrix x = reference::plane(gray, 0);
    std::printf(
        "## PSNR against the exact Gaussian blur, data/astronaut.png in gray (dB, whole / interior)\n\n");
    std::printf("| sigma | vanvliet | twoway | twoway vs vanvliet | deriche2 | deriche4 |\n");
    std::printf("| --- | --- | --- | --- | --- | --- |\n");
    for (double sigma : {1.0, 1.5, 4.0, 15.0, 45.0}) {
        const std::vector<double> g = sampled_gaussian(sigma, int(std::ceil(6 * sigma)));
        const Matrix exact = reference::fir_2d(g, g, x);
        const int b = int(std::ceil(3 * sigma));
        auto both = [&](const Matrix &a, const Matrix &e) {
            const Eigen::Index h = a.rows() - 2 * b, w = a.cols() - 2 * b;
            char text[64];
            std::snprintf(text, sizeof text, "%.1f / %.1f", psnr(a, e),
                          psnr(a.block(b, b, h, w), e.block(b, b, h, w)));
            return std::string(text);
        };
        auto blur = [&](GaussianMethod m) {
            return reference::plane(
                gaussian_blur(gray, design_gaussian(sigma, m), {Boundary::none, DeviceChoice::cpu}), 0);
        };
        const Matrix vanvliet = blur(GaussianMethod::vanvliet), twoway = blur(GaussianMethod::twoway);
        std::printf(
            "| %g | %s | %s | %s | %s | %s |\n", sigma, both(vanvliet, exact).c_str(),
            both(twoway, exact).c_str(), both(twoway, vanvliet).c_str(),
            both(blur(GaussianMethod::deriche2), exact).c_str(),
            sigma <= kDeriche4MaxSigma ? both(blur(GaussianMethod::deriche4), exact).c_str() : "refused");
    }
    std::printf("\n");
}

void against_reference() {
    std::printf("## float32 CPU pipeline against its double reference (relative L2)\n\n");
    std::printf("| method | sigma | random 257x193 | impulse |\n| --- | --- | --- | --- |\n");
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Image noise(257, 193, 1);
    for (float &v : noise.data) v = u(rng);
    for (GaussianMethod method : kMethods)
        for (double sigma : {1.0, 2.0, 4.0, 5.0, 6.0, 8.0, 10.0, 16.0, 64.0, 200.0}) {
            const GaussianDesign d = design(method, sigma);
            auto reference_of = [&](const Matrix &x) {
                return method == GaussianMethod::vanvliet
                           ? reference::filter_2d(Filter2D{d.parts.pass, d.parts.pass}, x)
                           : reference::fir_iir_2d(d.parts, x);
            };
            const Matrix random_out =
                reference::plane(gaussian_blur(noise, d, {Boundary::none, DeviceChoice::cpu}), 0);
            const int half = int(std::ceil(4 * sigma)) + 8;
            Matrix impulse = Matrix::Zero(2 * half + 1, 2 * half + 1);
            impulse(half, half) = 1.0;
            std::printf("| %s | %g | %.1e | %.1e |\n", gaussian_method_name(method), sigma,
                        compare(random_out, reference_of(reference::plane(noise, 0))).l2,
                        compare(pipeline_response(d, half), reference_of(impulse)).l2);
        }
    std::printf("\n");
}

}  // namespace
}  // namespace cascade

int main(int argc, char **argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    if (which == "all" || which == "gaussian") cascade::against_gaussian();
    if (which == "all" || which == "reference") cascade::against_reference();
    if (which == "all" || which == "psnr") cascade::psnr_table();
    return 0;
}
