#pragma once
// The two-way filter's pipeline (cascade/twoway.h), for cascade/gaussian_blur.h's GaussianPlan.
#include <HalideBuffer.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/twoway.h"
#include "twoway_edges.h"
#include "variants.h"

namespace cascade {

// The two-way filter bound to the variant that runs it, its sections and centre kernel laid out
// once as the pipeline reads them. Throws cascade::Error when the build has no fitting variant.
class TwoWayPlan {
public:
    // For W×H images; boundaries other than none and zero (which are the same here: the first
    // passes start from zero and the centre points read zeros past the line) take the exact
    // variant (twoway.h, two_way_edges).
    TwoWayPlan(const TwoWayGaussian &g, Device device, int width, int height, Boundary boundary);
    TwoWayPlan(const TwoWayPlan &) = delete;
    TwoWayPlan &operator=(const TwoWayPlan &) = delete;

    // On W×H×C float32 buffers where the caller keeps them (host, or device for a CUDA plan).
    void run(halide_buffer_t *input, halide_buffer_t *output);

private:
    const Variant *variant_;
    std::vector<float> coefficients_, kernel_;
    Halide::Runtime::Buffer<float> coefficient_buffer_, kernel_buffer_;
    int width_, height_;
    Boundary boundary_;
    TwoWayEdgeWeights edges_y_, edges_x_;  // exact boundaries: down the columns, along the rows
    Halide::Runtime::Buffer<float> edges_y_buffer_, edges_x_buffer_;
    std::mutex first_run_;  // as IirPlan's
    std::atomic<bool> warm_{false};
};

}  // namespace cascade
