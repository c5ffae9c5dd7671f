#include "iir.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "error.h"
#include "pipeline_call.h"

namespace cascade {

Boundary parse_boundary(const std::string &text) {
    if (text == "none") return Boundary::none;
    throw Error("unknown boundary '" + text + "' (this build supports: none)");
}

const char *boundary_name(Boundary) { return "none"; }

void require_finite(const Image &image) {
    auto bad = std::find_if(image.data.begin(), image.data.end(), [](float v) { return !std::isfinite(v); });
    if (bad == image.data.end()) return;
    size_t n = bad - image.data.begin();
    size_t plane = size_t(image.width) * image.height;
    throw Error("the input holds a non-finite sample (" + std::to_string(*bad) +
                ") at x=" + std::to_string(n % plane % image.width) +
                " y=" + std::to_string(n % plane / image.width) + " channel " + std::to_string(n / plane));
}

Form parse_form(const std::string &text) {
    if (text == "auto") return Form::automatic;
    if (text == "direct") return Form::direct;
    if (text == "sections") return Form::sections;
    throw Error("unknown form '" + text + "' (expected auto, direct or sections)");
}

namespace {

// The feedback array of one direction as the variant takes it: the direct-form coefficients, or
// (a_1, a_2) per section, padded with zeros (identity sections, or zero high-order feedback) up
// to the variant's size.
std::vector<float> feedback_array(const RecursiveFilter &f, Form form, int variant_order) {
    std::vector<float> values;
    if (form == Form::direct) {
        for (double a : f.feedback) values.push_back(float(a));
        values.resize(variant_order, 0.0f);
    } else {
        for (const RecursiveFilter &s : to_sections(f)) {
            values.push_back(float(s.feedback[0]));
            values.push_back(s.order() > 1 ? float(s.feedback[1]) : 0.0f);
        }
        values.resize(2 * variant_order, 0.0f);
    }
    return values;
}

void add_direction(std::map<std::string, float> &scalars, const RecursiveFilter &f, Form form,
                   int variant_order, const std::string &axis) {
    scalars["gain_" + axis] = float(f.gain);
    std::vector<float> values = feedback_array(f, form, variant_order);
    for (size_t k = 0; k < values.size(); k++)
        scalars["feedback_" + axis + "_" + std::to_string(k)] = values[k];
}

// The order the variant must hold: r for the direct form, the section count otherwise.
int needed_order(const RecursiveFilter &f, Form form) {
    return form == Form::direct ? f.order() : int(to_sections(f).size());
}

}  // namespace

Image iir_2d(const Image &input, const Filter2D &filter, const IirOptions &options) {
    Image output(input.width, input.height, input.channels);
    iir_2d(input, output, filter, options);
    return output;
}

namespace {

// The variant that runs `filter` in `form` on `device`, and the scalars it takes.
struct Prepared {
    const Variant *variant;
    std::map<std::string, float> scalars;
};

Prepared prepare(const Filter2D &filter, Form form, Device device) {
    require_stable(filter.vertical);
    require_stable(filter.horizontal);
    if (form == Form::automatic)
        form =
            std::max(filter.vertical.order(), filter.horizontal.order()) <= 2 ? Form::direct : Form::sections;
    const int order = std::max(needed_order(filter.vertical, form), needed_order(filter.horizontal, form));
    Prepared p{&find_variant(form == Form::direct ? "iir_rt" : "iir_rt_sections", order, device), {}};
    add_direction(p.scalars, filter.vertical, form, p.variant->order, "y");
    add_direction(p.scalars, filter.horizontal, form, p.variant->order, "x");
    return p;
}

}  // namespace

void iir_2d(const Image &input, Image &output, const Filter2D &filter, const IirOptions &options) {
    if (input.width < 1 || input.height < 1 || input.channels < 1) throw Error("the input image is empty");
    if (output.width != input.width || output.height != input.height || output.channels != input.channels)
        throw Error("the output image's shape differs from the input's");
    const Prepared p = prepare(filter, options.form, resolve_device(options.device));
    run_image_pipeline(*p.variant, input.data.data(), output.data.data(), input.width, input.height,
                       input.channels, p.scalars);
}

void iir_2d(halide_buffer_t *input, halide_buffer_t *output, const Filter2D &filter, Form form,
            Device device) {
    const Prepared p = prepare(filter, form, device);
    PipelineCall call;
    call.buffer("input", input).buffer("output", output);
    for (const auto &[name, value] : p.scalars) call.scalar(name, value);
    call.run(*p.variant);
}

}  // namespace cascade
