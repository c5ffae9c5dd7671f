#pragma once
// Gaussian blurs by method: the recursive designs of gaussian.h and deriche.h, run on images.
#include <HalideBuffer.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cascade/deriche.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "cascade/image.h"
#include "cascade/twoway.h"

namespace cascade {

class FirPlan;  // internals: the numerator and the two-way pipelines
class TwoWayPlan;

// A method's filter for a sigma down the columns (y) and one along the rows (x), designed once;
// only vanvliet, one all-pole pass a dimension, lets them differ. vanvliet and twoway have no
// numerator (taps {1}); twoway runs `two_way` and leaves `parts` with van Vliet's pass it
// approximates.
struct GaussianDesign {
    GaussianMethod method = GaussianMethod::vanvliet;
    double sigma_y = 0, sigma_x = 0;
    FirIirGaussian parts;    // sigma_y's; the rows' too, but for their all-pole pass
    RecursiveFilter pass_x;  // the rows' all-pole pass: parts.pass where the sigmas agree
    TwoWayGaussian two_way;
};

// Throws cascade::Error when the method does not support a sigma (not finite, or out of range),
// or when the sigmas differ for a method other than vanvliet.
GaussianDesign design_gaussian(double sigma_y, double sigma_x, GaussianMethod method);
GaussianDesign design_gaussian(double sigma, GaussianMethod method);

// A method's pipelines for W×H×C images on one device, everything they read made once:
// coefficients, matrix tables, taps and, for a numerator, the FIR's intermediate image (on the
// device for CUDA), so repeated calls pay only the pipelines (the bench's `gaussian` op).
// Throws cascade::Error as gaussian_blur does; a boundary other than none is exact for vanvliet
// only (the others refuse it). uint8 and uint16 `samples`: vanvliet on algorithm 6, converted
// inside the pipeline (IirPlan).
//
// Threads: run() may be called from several threads at once, as IirPlan's; Deriche's methods,
// which keep one intermediate image, then run one call at a time (a plan per thread runs them
// concurrently).
class GaussianPlan {
public:
    // `options` as gaussian_blur takes them: the device resolved as there (resolve_device); the
    // rest choose how the all-pole passes run (IirPlan).
    GaussianPlan(const GaussianDesign &design, int width, int height, int channels,
                 const IirOptions &options = {}, SampleType samples = SampleType::f32);
    // The same, or null where this build does not convert `samples` (a method other than vanvliet,
    // or IirPlan::converting's null) instead of throwing for it: the buffer entry point then
    // returns false having chosen the variant once.
    static std::unique_ptr<GaussianPlan> converting(const GaussianDesign &design, int width, int height,
                                                    int channels, const IirOptions &options,
                                                    SampleType samples);
    ~GaussianPlan();
    GaussianPlan(const GaussianPlan &) = delete;
    GaussianPlan &operator=(const GaussianPlan &) = delete;

    // On W×H×C buffers of the plan's shape and sample type where the caller keeps them (host, or
    // device for a CUDA plan): results stay where the pipelines leave them.
    void run(halide_buffer_t *input, halide_buffer_t *output);
    // On host buffers or images: for a CUDA plan, copied to the device and back.
    void run_host(halide_buffer_t *input, halide_buffer_t *output);
    void run(const Image &input, Image &output);

private:
    // vanvliet's all-pole passes, made already.
    GaussianPlan(std::unique_ptr<IirPlan> iir, Device device, int width, int height, int channels);

    Device device_;
    int width_, height_, channels_;
    std::unique_ptr<FirPlan> fir_;         // deriche: the numerator
    std::unique_ptr<IirPlan> iir_;         // every method but twoway: the all-pole passes
    std::unique_ptr<TwoWayPlan> two_way_;  // twoway alone
    // deriche: what passes between the two; the numerator's result, or (`fir_last`) the all-pole
    // passes' with a margin of the numerator's radius past each edge.
    Halide::Runtime::Buffer<float> between_;
    bool fir_last_ = false;
    std::mutex between_mutex_;
};

// Blurs every channel of `input`. `options` choose the device and how the recursive passes run;
// with a numerator, its FIR runs first, on the same device, and the intermediate image stays
// there (one more read and write of the image than the all-pole methods). twoway has its own
// traversal: it refuses an algorithm other than automatic.
Image gaussian_blur(const Image &input, const GaussianDesign &design, const IirOptions &options = {});
void gaussian_blur(const Image &input, Image &output, const GaussianDesign &design,
                   const IirOptions &options = {});
// The same on host W×H×C planar buffers of one sample type (include/cascade/planes.h); uint8 and uint16
// are converted inside the pipeline. Returns false, having run nothing, where this build does not
// (a method other than vanvliet, or iir.h's converts_samples).
bool gaussian_blur(halide_buffer_t *input, halide_buffer_t *output, const GaussianDesign &design,
                   const IirOptions &options = {});

}  // namespace cascade
