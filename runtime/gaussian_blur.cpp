#include "cascade/gaussian_blur.h"

#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/planes.h"
#include "fir.h"
#include "names.h"
#include "twoway_plan.h"

namespace cascade {

namespace {

constexpr Named<GaussianMethod> kMethods[] = {{GaussianMethod::vanvliet, "vanvliet"},
                                              {GaussianMethod::deriche2, "deriche2"},
                                              {GaussianMethod::deriche4, "deriche4"},
                                              {GaussianMethod::twoway, "twoway"}};

// twoway's traversal is fixed by its design; asking for another one is a mistake worth saying.
void require_own_traversal(GaussianMethod method, Algorithm algorithm) {
    if (method == GaussianMethod::twoway && algorithm != Algorithm::automatic)
        throw Error(std::string("twoway has its own traversal; --algorithm ") + algorithm_name(algorithm) +
                    " does not apply to it");
}

// The sections as (gain, a1, a2) columns, padded with identity sections to `order`. Each
// section's gain is recomputed from its float-rounded feedback, so that it keeps unit DC gain as
// the pipeline sees it (with poles near 1, rounding a1 and a2 alone would move 1 + a1 + a2 by
// ~1e-3 at sigma 200).
std::vector<float> two_way_coefficients(const TwoWayGaussian &g, int order) {
    std::vector<float> coefficients;
    for (int n = 0; n < order; n++) {
        std::vector<double> a = n < int(g.sections.size()) ? g.sections[n].feedback : std::vector<double>{};
        a.resize(2, 0.0);
        const float a1 = float(a[0]), a2 = float(a[1]);
        coefficients.insert(coefficients.end(), {float(1.0 + double(a1) + double(a2)), a1, a2});
    }
    return coefficients;
}

}  // namespace

GaussianMethod parse_gaussian_method(const std::string &text) {
    return parse_named(text, kMethods, "method");
}

std::vector<std::string> gaussian_method_names() { return names_of(kMethods); }

const char *gaussian_method_name(GaussianMethod method) { return name_of(method, kMethods); }

GaussianDesign design_gaussian(double sigma, GaussianMethod method) {
    return design_gaussian(sigma, sigma, method);
}

GaussianDesign design_gaussian(double sigma_y, double sigma_x, GaussianMethod method) {
    GaussianDesign design;
    design.method = method;
    design.sigma_y = sigma_y;
    design.sigma_x = sigma_x;
    const double sigma = sigma_y;
    switch (method) {
        case GaussianMethod::vanvliet:
            design.parts = {{1.0}, van_vliet_gaussian(sigma)};
            break;
        case GaussianMethod::deriche2:
            design.parts = deriche2_gaussian(sigma);
            break;
        case GaussianMethod::deriche4:
            design.parts = deriche4_gaussian(sigma);
            break;
        case GaussianMethod::twoway:
            design.parts = {{1.0}, van_vliet_gaussian(sigma)};
            design.two_way = two_way_gaussian(sigma);
            break;
    }
    design.pass_x = design.parts.pass;
    if (sigma_x == sigma_y) return design;
    // A numerator, or twoway's joined halves, filter both dimensions with one sigma.
    if (method != GaussianMethod::vanvliet)
        throw Error(std::string(gaussian_method_name(method)) +
                    " takes one sigma for both dimensions; vanvliet takes one a dimension");
    design.pass_x = van_vliet_gaussian(sigma_x);
    return design;
}

namespace {

bool two_way_exact(Boundary boundary) { return boundary != Boundary::none && boundary != Boundary::zero; }

// The variant that runs `g`: on the GPU under boundary none, the one whose carries keep a single
// state of a first-order last section (van Vliet's real pole), where the build has it and `g`'s
// last section (after the zero sections that pad it to the variant's count) is one.
const Variant &two_way_variant(const TwoWayGaussian &g, Device device, Boundary boundary) {
    const int sections = int(g.sections.size());
    VariantKey key;
    key.family = Family::twoway;
    key.exact = two_way_exact(boundary);
    if (key.exact) return find_variant(wanted(key, sections, device));
    const Variant &generic = find_variant(wanted(key, sections, device));
    key.kind = "first_order_last";
    const Variant *first_order_last = lookup_variant(wanted(key, sections, device));
    if (first_order_last && first_order_last->key.order == generic.key.order &&
        two_way_coefficients(g, generic.key.order)[3 * generic.key.order - 1] == 0.0f)
        return *first_order_last;
    return generic;
}

// (q, k, side) as the variant reads it.
Halide::Runtime::Buffer<float> edge_buffer(TwoWayEdgeWeights &edges, int states) {
    if (edges.count == 0) return {};
    Halide::Runtime::Buffer<float> buffer(edges.weights.data(), int(edges.count), states, 2);
    buffer.set_host_dirty(true);
    return buffer;
}

}  // namespace

TwoWayPlan::TwoWayPlan(const TwoWayGaussian &g, Device device, int width, int height, Boundary boundary)
    : variant_(&two_way_variant(g, device, boundary)),
      coefficients_(two_way_coefficients(g, variant_->key.order)),
      kernel_(g.kernel.begin(), g.kernel.end()),
      coefficient_buffer_(coefficients_.data(), 3, variant_->key.order),
      kernel_buffer_(kernel_.data(), int(kernel_.size())),
      width_(width),
      height_(height),
      boundary_(boundary) {
    // A CUDA pipeline copies an input to the device only when it is marked host-dirty; once
    // there, both stay for every later call of this plan.
    coefficient_buffer_.set_host_dirty(true);
    kernel_buffer_.set_host_dirty(true);
    if (!two_way_exact(boundary)) return;
    edges_y_ = two_way_edges(coefficients_, height, boundary);
    edges_x_ = two_way_edges(coefficients_, width, boundary);
    edges_y_buffer_ = edge_buffer(edges_y_, 2 * variant_->key.order);
    edges_x_buffer_ = edge_buffer(edges_x_, 2 * variant_->key.order);
}

void TwoWayPlan::run(halide_buffer_t *input, halide_buffer_t *output) {
    for (const halide_buffer_t *b : {input, output})
        if (b->dimensions != 3 || b->dim[0].extent != width_ || b->dim[1].extent != height_)
            throw Error("the image's shape differs from the plan's");
    PipelineCall call;
    call.buffer("input", input)
        .buffer("output", output)
        .buffer("coefficients", coefficient_buffer_.raw_buffer())
        .buffer("kernel", kernel_buffer_.raw_buffer());
    if (two_way_exact(boundary_)) {
        // The variant takes the extension as this enum's value (algebra/boundary.h, FoldedBoundary).
        static_assert(int(Boundary::clamp) == 2 && int(Boundary::periodic) == 3 &&
                      int(Boundary::reflect) == 4 && int(Boundary::mirror) == 5);
        call.scalar("extension", int(boundary_))
            .buffer("edges_y", edges_y_buffer_.raw_buffer())
            .scalar("near_y", double(edges_y_.near))
            .buffer("edges_x", edges_x_buffer_.raw_buffer())
            .scalar("near_x", double(edges_x_.near));
    }
    run_shared(*variant_, call, first_run_, warm_);
}

GaussianPlan::GaussianPlan(const GaussianDesign &design, int width, int height, int channels,
                           const IirOptions &options, SampleType samples)
    : device_(plan_device(options.device)), width_(width), height_(height), channels_(channels) {
    const Device device = device_;
    const Boundary boundary = options.boundary;
    if (width < 1 || height < 1 || channels < 1) throw Error("the input image is empty");
    require_own_traversal(design.method, options.algorithm);
    if (samples != SampleType::f32 && design.method != GaussianMethod::vanvliet)
        throw Error(std::string(gaussian_method_name(design.method)) + " filters float32 samples; " +
                    sample_name(samples) + " ones are converted inside vanvliet's pipeline only");
    if (design.method == GaussianMethod::twoway) {
        two_way_ = std::make_unique<TwoWayPlan>(design.two_way, device, width, height, boundary);
        return;
    }
    const std::vector<double> &taps = design.parts.taps;
    const Filter2D pass{design.parts.pass, design.pass_x};
    if (taps.size() == 1) {
        iir_ = std::make_unique<IirPlan>(pass, width, height, options, samples);
        return;
    }
    // Deriche: the numerator (a symmetric FIR) and the all-pole passes commute on the extended
    // image. Filtering the periodic, reflected or mirrored image gives the same extension of its
    // result, so the numerator runs first on the extended image, then the all-pole passes with that
    // exact boundary. Under zero and clamp the numerator's result is not that extension within
    // its radius of the edges; there the all-pole passes run first, exact on the image and on a
    // margin of that radius (which zeros or repeated edges extend as the image), and the numerator
    // reads the margin.
    fir_last_ = boundary == Boundary::zero || boundary == Boundary::clamp;
    fir_ = std::make_unique<FirPlan>(SeparableFir{taps, taps}, device, fir_last_ ? Boundary::none : boundary,
                                     fir_last_ ? FirEdges::margin : FirEdges::extended);
    const int margin = fir_last_ ? fir_->radius() : 0;
    iir_ = std::make_unique<IirPlan>(pass, width, height, options, samples, margin);
    between_ = intermediate_image(width + 2 * margin, height + 2 * margin, channels, device);
}

GaussianPlan::GaussianPlan(std::unique_ptr<IirPlan> iir, Device device, int width, int height, int channels)
    : device_(device), width_(width), height_(height), channels_(channels), iir_(std::move(iir)) {}

std::unique_ptr<GaussianPlan> GaussianPlan::converting(const GaussianDesign &design, int width, int height,
                                                       int channels, const IirOptions &options,
                                                       SampleType samples) {
    const Device device = resolve_device(options.device);
    if (samples == SampleType::f32)
        return std::make_unique<GaussianPlan>(design, width, height, channels, options, samples);
    if (design.method != GaussianMethod::vanvliet) return nullptr;
    if (width < 1 || height < 1 || channels < 1) throw Error("the input image is empty");
    std::unique_ptr<IirPlan> iir =
        IirPlan::converting({design.parts.pass, design.pass_x}, width, height, options, samples);
    if (!iir) return nullptr;
    return std::unique_ptr<GaussianPlan>(new GaussianPlan(std::move(iir), device, width, height, channels));
}

GaussianPlan::~GaussianPlan() = default;

void GaussianPlan::run(halide_buffer_t *input, halide_buffer_t *output) {
    if (two_way_) return two_way_->run(input, output);
    if (!fir_) return iir_->run(input, output);
    const int shape[3] = {width_, height_, channels_};
    for (const halide_buffer_t *b : {input, output})
        for (int d = 0; d < 3; d++)
            if (b->dimensions != 3 || b->dim[d].extent != shape[d])
                throw Error("the image's shape differs from the plan's");
    // One call at a time uses the intermediate image.
    std::lock_guard<std::mutex> lock(between_mutex_);
    // On CUDA the intermediate image never leaves the device between the two pipelines.
    if (!fir_last_) {
        fir_->run(input, between_.raw_buffer());
        iir_->run(between_.raw_buffer(), output);
        return;
    }
    iir_->run(input, between_.raw_buffer());
    // The same buffer seen with its margin at negative coordinates, as the numerator reads it.
    halide_buffer_t with_margin = *between_.raw_buffer();
    halide_dimension_t dims[3];
    for (int d = 0; d < 3; d++) {
        dims[d] = between_.raw_buffer()->dim[d];
        if (d < 2) dims[d].min = -fir_->radius();
    }
    with_margin.dim = dims;
    fir_->run(&with_margin, output);
}

void GaussianPlan::run(const Image &input, Image &output) {
    run_host(planes_of(input).raw_buffer(), planes_of(output).raw_buffer());
}

void GaussianPlan::run_host(halide_buffer_t *input, halide_buffer_t *output) {
    run_on_host(device_, [&] { run(input, output); }, {input}, {output});
}

Image gaussian_blur(const Image &input, const GaussianDesign &design, const IirOptions &options) {
    Image output(input.width, input.height, input.channels);
    gaussian_blur(input, output, design, options);
    return output;
}

void gaussian_blur(const Image &input, Image &output, const GaussianDesign &design,
                   const IirOptions &options) {
    if (input.width < 1 || input.height < 1 || input.channels < 1) throw Error("the input image is empty");
    if (output.width != input.width || output.height != input.height || output.channels != input.channels)
        throw Error("the output image's shape differs from the input's");
    require_addressable("image", input.width, input.height, input.channels, sizeof(float));
    require_own_traversal(design.method, options.algorithm);
    GaussianPlan plan(design, input.width, input.height, input.channels, options);
    plan.run(input, output);
}

bool gaussian_blur(halide_buffer_t *input, halide_buffer_t *output, const GaussianDesign &design,
                   const IirOptions &options) {
    const std::unique_ptr<GaussianPlan> plan =
        GaussianPlan::converting(design, input->dim[0].extent, input->dim[1].extent, input->dim[2].extent,
                                 options, sample_type_of(input));
    if (!plan) return false;
    plan->run_host(input, output);
    return true;
}

}  // namespace cascade
