#pragma once
// Separable recursive filtering of images: the entry point users call.
#include <HalideRuntime.h>

#include <string>

#include "device.h"
#include "filter.h"
#include "image.h"

namespace cascade {

// How the signal continues past the image's edges. `none`: zero initial feedbacks for every
// pass.
enum class Boundary { none };

Boundary parse_boundary(const std::string &text);
const char *boundary_name(Boundary boundary);

// How each 1D filter is evaluated: one direct-form pass of order r, or a cascade of first- and
// second-order sections (float32-accurate at any order). `automatic`: direct for r ≤ 2,
// sections above.
enum class Form { automatic, direct, sections };

Form parse_form(const std::string &text);  // "auto", "direct", "sections"

struct IirOptions {
    Boundary boundary = Boundary::none;
    DeviceChoice device = DeviceChoice::automatic;
    Form form = Form::automatic;
};

// Applies `filter` to every channel of `input`: causal then anticausal down the columns, then
// along the rows. Checks the filter's stability first; throws cascade::Error on any failure.
Image iir_2d(const Image &input, const Filter2D &filter, const IirOptions &options = {});
// The same, into an `output` of the input's shape (reused, or poisoned by tests beforehand).
void iir_2d(const Image &input, Image &output, const Filter2D &filter, const IirOptions &options = {});

// The same on W×H×C float32 buffers the caller owns, on `device` (they may already live there,
// as in the bench): results stay where the pipeline leaves them.
void iir_2d(halide_buffer_t *input, halide_buffer_t *output, const Filter2D &filter, Form form,
            Device device);

// Throws cascade::Error naming the first non-finite sample of `image`, if any.
void require_finite(const Image &image);

}  // namespace cascade
