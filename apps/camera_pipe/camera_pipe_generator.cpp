// The camera-pipeline demo (apps/camera_pipe/README.md): a linear 12-bit RGGB Bayer mosaic in,
// an 8-bit sRGB picture out. White balance, demosaicking (Malvar, He & Cutler's gradient-corrected
// linear interpolation), local tone mapping whose base layer is a Cascade recursive
// Gaussian of the log luminance with an exact (reflect) boundary, sRGB gamma, and an unsharp mask
// whose blur is a second Cascade Gaussian, all in one Halide pipeline through Cascade's Func API
// (include/cascade/funcs.h). The algorithm comes first, then one schedule for the CPU and one for
// CUDA, in the style of Halide's apps/camera_pipe.
#include <Halide.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "cascade/funcs.h"

namespace {

using namespace Halide;
using cascade::Boundary;
using cascade::GaussianMethod;

// The comparison the demo times beside Cascade's Gaussians: the separable FIR Gaussian as Halide
// pipelines usually write it, truncated at 3σ, its taps summed to 1, over the image extended by
// Halide's boundary conditions (`reflect`: mirror_image; `mirror`: mirror_interior).
struct FirGaussian {
    Func columns, rows;

    FirGaussian(Func f, float sigma, Boundary boundary, Expr width, Expr height) {
        const int radius = int(std::ceil(3.0f * sigma));
        Buffer<float> taps(2 * radius + 1);
        double total = 0;
        for (int k = -radius; k <= radius; k++) total += std::exp(-0.5 * k * k / (double(sigma) * sigma));
        for (int k = -radius; k <= radius; k++)
            taps(k + radius) = float(std::exp(-0.5 * k * k / (double(sigma) * sigma)) / total);
        const Region image = {{0, width}, {0, height}};
        Func extended = boundary == Boundary::reflect ? BoundaryConditions::mirror_image(f, image)
                                                      : BoundaryConditions::mirror_interior(f, image);
        Var x("x"), y("y");
        RDom k(-radius, 2 * radius + 1, "tap");
        columns = Func("fir_columns");
        rows = Func("fir_rows");
        columns(x, y) = sum(taps(k + radius) * extended(x, y + k));
        rows(x, y) = sum(taps(k + radius) * columns(x + k, y));
    }

    void schedule(const Target &target) {
        for (Func f : {columns, rows}) {
            const Var x = f.args()[0], y = f.args()[1];
            f.compute_root();
            if (target.has_gpu_feature()) {
                Var xo, yo, xi, yi;
                f.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
            } else {
                f.vectorize(x, target.natural_vector_size<float>()).parallel(y, 8);
            }
        }
    }
};

// One of the pipeline's Gaussians: Cascade's recursive one (van Vliet et al.), or the comparison.
struct Blur {
    std::optional<cascade::funcs::Filtered> recursive;
    std::optional<FirGaussian> fir;

    Blur(bool as_fir, Func f, float sigma, Boundary boundary, Expr width, Expr height, const Target &target) {
        if (as_fir) {
            fir.emplace(f, sigma, boundary, width, height);
        } else {
            recursive.emplace(cascade::funcs::gaussian(f, sigma, GaussianMethod::vanvliet, boundary, width,
                                                       height, target));
        }
    }
    Func func() const { return fir ? fir->rows : recursive->func(); }
    void schedule(const Target &target) {
        if (fir) {
            fir->schedule(target);
        } else {
            recursive->schedule(target);
        }
    }
};

class CameraPipe : public Generator<CameraPipe> {
public:
    // Standard deviation of the tone mapping's base layer, in pixels. A recursive Gaussian costs
    // the same at any sigma; only its exact boundary's margin grows with it.
    GeneratorParam<float> base_sigma{"base_sigma", 24.0f};
    // Standard deviation of the unsharp mask's blur, in pixels.
    GeneratorParam<float> sharpen_sigma{"sharpen_sigma", 1.5f};
    // Both Gaussians by Cascade's recursive filters, or, for the comparison, by FirGaussian.
    GeneratorParam<std::string> blur_method{"blur", "recursive"};

    // RGGB: red at (even x, even y), blue at (odd, odd); linear, 0 (black) to 4095 (white).
    Input<Buffer<uint16_t>> raw{"raw", 2};
    Input<float> red_gain{"red_gain"};  // white balance; green's gain is 1
    Input<float> blue_gain{"blue_gain"};
    Input<float> compression{"compression"};  // of the base layer's log contrast: 1 leaves it
    Input<float> sharpen{"sharpen"};          // the unsharp mask's amount: 0 leaves the image
    // (x, y, c), c = 0, 1, 2 for R, G, B, sRGB-encoded, interleaved as image files store it
    // (RGBRGB…: c's stride 1, x's 3); as large as `raw`.
    Output<Buffer<uint8_t>> output{"output", 3};

    void generate() {
        Var x("x"), y("y"), c("c");
        Expr width = raw.width(), height = raw.height();

        // ---- White balance, on the mosaic ------------------------------------------------
        // As raw converters do it: before demosaicking, whose gradient corrections assume that
        // the three channels agree on a neutral edge (balanced after, they leave zipper
        // fringes along every strong edge). Whole-sample mirroring keeps the Bayer phase past
        // the image's edges, which a plain clamp would not.
        Func mosaic = BoundaryConditions::mirror_interior(raw);
        Expr odd_x = (x % 2) == 1, odd_y = (y % 2) == 1;
        Expr red_site = !odd_x && !odd_y, blue_site = odd_x && odd_y;
        Expr green_in_red_row = odd_x && !odd_y;  // else a green site is in a blue row
        Func sensor("sensor");
        sensor(x, y) = cast<float>(mosaic(x, y)) * (1.0f / 4095.0f) *
                       select(red_site, red_gain, blue_site, blue_gain, 1.0f);

        // ---- Demosaic -------------------------------------------------------------------
        // Malvar, He & Cutler 2004: bilinear interpolation corrected by the Laplacian of the
        // channel the site holds; the four 5×5 kernels, ×1/8.
        auto s = [&](int dx, int dy) { return sensor(x + dx, y + dy); };
        Expr cross1 = s(-1, 0) + s(1, 0) + s(0, -1) + s(0, 1);
        Expr cross2 = s(-2, 0) + s(2, 0) + s(0, -2) + s(0, 2);
        Expr diagonal = s(-1, -1) + s(1, -1) + s(-1, 1) + s(1, 1);
        Expr row2 = s(-2, 0) + s(2, 0), column2 = s(0, -2) + s(0, 2);
        Expr green_at_rb = (4.0f * s(0, 0) + 2.0f * cross1 - cross2) * 0.125f;
        // At a green site: the colour of its horizontal neighbours, and of its vertical ones.
        Expr across_row =
            (5.0f * s(0, 0) + 4.0f * (s(-1, 0) + s(1, 0)) - row2 - diagonal + 0.5f * column2) * 0.125f;
        Expr across_column =
            (5.0f * s(0, 0) + 4.0f * (s(0, -1) + s(0, 1)) - column2 - diagonal + 0.5f * row2) * 0.125f;
        // Red at a blue site, blue at a red one.
        Expr opposite = (6.0f * s(0, 0) + 2.0f * diagonal - 1.5f * cross2) * 0.125f;
        Expr r = select(red_site, s(0, 0), blue_site, opposite, green_in_red_row, across_row, across_column);
        Expr g = select(red_site || blue_site, green_at_rb, s(0, 0));
        Expr b = select(blue_site, s(0, 0), red_site, opposite, green_in_red_row, across_column, across_row);
        // Linear, white-balanced RGB.
        Func rgb("rgb");
        rgb(x, y, c) = max(mux(c, {r, g, b}), 0.0f);

        // ---- Local tone mapping ---------------------------------------------------------
        // Rec. 709 luminance of the linear light, and its log. The floor added, 1/256 of white,
        // bounds how far the darkest regions are lifted (exp((1 − compression)·(mean − log
        // floor)) at most), so that the sensor's noise in the blacks stays black.
        const float floor = 1.0f / 256.0f;
        Func log_luma("log_luma");
        log_luma(x, y) =
            log(0.2126f * rgb(x, y, 0) + 0.7152f * rgb(x, y, 1) + 0.0722f * rgb(x, y, 2) + floor);

        // The base layer: Cascade's recursive Gaussian of the log luminance (van Vliet et al.),
        // exact at the edges for the image extended by half-sample reflection.
        const bool fir = std::string(blur_method) == "fir";
        if (!fir && std::string(blur_method) != "recursive")
            throw std::invalid_argument("blur takes recursive or fir, not " + std::string(blur_method));
        Blur base(fir, log_luma, base_sigma, Boundary::reflect, width, height, get_target());
        Func base_layer = base.func();

        // The image's mean log luminance (the log of Reinhard's key), which the tone mapping
        // keeps: column sums, then their sum.
        RDom down(0, height, "down"), across(0, width, "across");
        Func column_sum("column_sum"), mean_log("mean_log");
        column_sum(x) = 0.0f;
        column_sum(x) += exp(log_luma(x, down));
        mean_log() = 0.0f;
        mean_log() += column_sum(across);
        Expr mean = log(mean_log() / cast<float>(width * height));

        // New log luminance: the base layer's contrast about the mean compressed, the detail
        // (log − base) kept whole. The colours follow the luminance's ratio.
        Expr detail = log_luma(x, y) - base_layer(x, y);
        Expr new_log = mean + compression * (base_layer(x, y) - mean) + detail;
        Expr ratio = exp(new_log - log_luma(x, y));
        // Highlights that a small bright object in a dark neighbourhood would be lifted past
        // white roll off instead: above the knee, the largest channel approaches 1 as t/(1 + t)
        // does (slope 1 at the knee; 254.5/255 not before 9.5× white), and the other two are
        // scaled with it, keeping the hue.
        const float knee = 0.8f;
        Expr peak = max(rgb(x, y, 0), rgb(x, y, 1), rgb(x, y, 2)) * ratio;
        Expr t = (peak - knee) * (1.0f / (1.0f - knee));
        Expr rolled = knee + (1.0f - knee) * t / (1.0f + t);
        Func gain("gain");
        gain(x, y) = ratio * select(peak > knee, rolled / peak, 1.0f);

        // ---- sRGB gamma -----------------------------------------------------------------
        Func curved("curved");
        Expr linear = clamp(rgb(x, y, c) * gain(x, y), 0.0f, 1.0f);
        curved(x, y, c) =
            select(linear <= 0.0031308f, 12.92f * linear, 1.055f * pow(linear, 1.0f / 2.4f) - 0.055f);

        // ---- Unsharp mask of the luma ---------------------------------------------------
        // Sharpening Y′ alone adds no colour fringes. The blur is a second Cascade Gaussian,
        // exact at the edges for whole-sample mirroring.
        Func luma("luma");
        luma(x, y) = 0.2126f * curved(x, y, 0) + 0.7152f * curved(x, y, 1) + 0.0722f * curved(x, y, 2);
        Blur blur(fir, luma, sharpen_sigma, Boundary::mirror, width, height, get_target());
        Func blurred = blur.func();
        // The same step is added to the three channels (edges gain no colour), rolled off softly
        // (s·room/(room + s), slope 1 at 0) below what the pixel's brightest channel has left
        // below white, or its darkest above black: no overshoot is clipped.
        Expr brightest = max(curved(x, y, 0), curved(x, y, 1), curved(x, y, 2));
        Expr darkest = min(curved(x, y, 0), curved(x, y, 1), curved(x, y, 2));
        Expr step = sharpen * (luma(x, y) - blurred(x, y));
        Expr room = select(step > 0.0f, 1.0f - brightest, darkest);
        Expr limited = step * room / (room + abs(step) + 1e-6f);
        Expr sharpened = curved(x, y, c) + limited;

        // ---- 8 bits ---------------------------------------------------------------------
        output(x, y, c) = cast<uint8_t>(clamp(sharpened * 255.0f + 0.5f, 0.0f, 255.0f));

        // ---- Schedules ------------------------------------------------------------------
        // Cascade's filters read their inputs more than once (the GPU's tiles twice, the CPU's
        // strip windows where they overlap), so the costly ones are computed at the root:
        // log_luma and luma. rgb and curved are too, each read by two consumers.
        output.dim(0).set_stride(3);
        output.dim(2).set_stride(1).set_bounds(0, 3);
        output.bound(c, 0, 3);
        rgb.bound(c, 0, 3);
        curved.bound(c, 0, 3);
        if (get_target().has_gpu_feature()) {
            Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
            rgb.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
            log_luma.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
            base.schedule(get_target());
            // One thread per column: neighbouring threads read neighbouring samples.
            column_sum.compute_root().gpu_tile(x, xo, xi, 64);
            column_sum.update().gpu_tile(x, xo, xi, 64);
            mean_log.compute_root().gpu_single_thread();
            mean_log.update().gpu_single_thread();
            curved.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
            gain.compute_at(curved, xi);
            luma.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
            blur.schedule(get_target());
            output.reorder(c, x, y).unroll(c).gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        } else {
            const int vector = natural_vector_size<float>();
            rgb.compute_root().reorder(c, x, y).unroll(c).vectorize(x, vector).parallel(y, 8);
            log_luma.compute_root().vectorize(x, vector).parallel(y, 8);
            base.schedule(get_target());
            column_sum.compute_root().vectorize(x, vector);
            column_sum.update().reorder(x, down).vectorize(x, vector);
            mean_log.compute_root();
            curved.compute_root().reorder(c, x, y).unroll(c).vectorize(x, vector).parallel(y, 8);
            gain.compute_at(curved, y).vectorize(x, vector);
            luma.compute_root().vectorize(x, vector).parallel(y, 8);
            blur.schedule(get_target());
            output.reorder(c, x, y).unroll(c).vectorize(x, vector).parallel(y, 8);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
