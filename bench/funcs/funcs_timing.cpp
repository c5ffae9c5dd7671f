// The Func API beside the prebuilt variants, in one run on the same images: van Vliet's Gaussian
// (σ 4) as a whole generator over cascade::funcs (funcs_gaussian_generator.cpp, AOT) and as the
// runtime's plan (GaussianPlan, the variant `auto` picks), under none and reflect; on CUDA also as a
// generator of run-time coefficients reading its tables (funcs::tile_tables). Prints, per device,
// size and boundary, the median ms of each (batches of calls up to a device sync), the Func API's
// ratio to the prebuilt, and the largest difference between their results. Then the same for the
// float32 summed-area table (funcs_sat_generator.cpp beside cascade::summed_area_table), its
// difference relative to the table's largest entry.
//
//   funcs_timing [cpu|cuda] [SIZES...]     (default: cpu 1024 4096; cuda 2048 4096 8192)
#include <HalideBuffer.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cascade/gaussian_blur.h"
#include "cascade/sat.h"
#include "funcs_gaussian_none_cpu.h"
#include "funcs_gaussian_reflect_cpu.h"
#include "funcs_sat_cpu.h"
#ifdef FUNCS_TIMING_CUDA
#include <HalideRuntimeCuda.h>

#include "cascade/tile_tables.h"
#include "funcs_gaussian_none_cuda.h"
#include "funcs_gaussian_reflect_cuda.h"
#include "funcs_gaussian_run_time_none_cuda.h"
#include "funcs_gaussian_run_time_reflect_cuda.h"
#include "funcs_sat_cuda.h"
#endif

namespace {

using Halide::Runtime::Buffer;
using Pipeline = std::function<int(halide_buffer_t *, halide_buffer_t *)>;

double median_ms(const std::function<void()> &run, const std::function<void()> &sync, int batch) {
    for (int k = 0; k < 3; k++) run();
    sync();
    std::vector<double> ms;
    for (int b = 0; b < 7; b++) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < batch; k++) run();
        sync();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / batch);
    }
    std::sort(ms.begin(), ms.end());
    return ms[3];
}

// A random [0, 1] n × n input and two outputs (the prebuilt's, the Func API's), on the device for
// a CUDA run.
struct Images {
    Buffer<float> in, a, b;
    bool cuda;

    Images(int n, bool on_cuda) : in(n, n, 1), a(n, n, 1), b(n, n, 1), cuda(on_cuda) {
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        in.for_each_value([&](float &v) { v = u(rng); });
#ifdef FUNCS_TIMING_CUDA
        if (cuda) {
            const halide_device_interface_t *cuda_interface = halide_cuda_device_interface();
            in.set_host_dirty();
            in.copy_to_device(cuda_interface);
            a.device_malloc(cuda_interface);
            b.device_malloc(cuda_interface);
        }
#endif
    }
    // Waits for the outputs' device work.
    void sync() {
        if (cuda) {
            a.device_sync();
            b.device_sync();
        }
    }
    // The outputs' results on the host.
    void to_host() {
        if (cuda) {
            a.copy_to_host();
            b.copy_to_host();
        }
    }
};

// The float32 summed-area table of random [0, 1] samples: the prebuilt plan `auto` picks beside the
// Func API's pipeline.
void run_tables(bool cuda, const std::vector<int> &sizes) {
    std::printf("device %s, summed-area table, float32: median ms (7 batches)\n", cuda ? "cuda" : "cpu");
    std::printf("%-6s %10s %10s %7s %10s\n", "size", "prebuilt", "funcs", "ratio", "rel diff");
    for (int n : sizes) {
        Images images(n, cuda);
        Buffer<float> &in = images.in, &a = images.a, &b = images.b;
        Pipeline funcs = funcs_sat_cpu;
#ifdef FUNCS_TIMING_CUDA
        if (cuda) funcs = funcs_sat_cuda;
#endif
        const cascade::Device device = cuda ? cascade::Device::cuda : cascade::Device::cpu;
        auto sync = [&] { images.sync(); };
        const int batch = std::max(1, int(2e8 / (double(n) * n)));
        const double prebuilt = median_ms(
            [&] {
                cascade::summed_area_table(in.raw_buffer(), a.raw_buffer(), cascade::SatAlgorithm::automatic,
                                           device);
            },
            sync, batch);
        const double own = median_ms([&] { funcs(in.raw_buffer(), b.raw_buffer()); }, sync, batch);
        images.to_host();
        double diff = 0, largest = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                diff = std::max(diff, double(std::fabs(a(x, y, 0) - b(x, y, 0))));
                largest = std::max(largest, double(std::fabs(a(x, y, 0))));
            }
        std::printf("%-6d %10.3f %10.3f %7.3f %10.2e\n", n, prebuilt, own, own / prebuilt, diff / largest);
    }
}

int run_device(bool cuda, const std::vector<int> &sizes) {
    std::printf("device %s, van Vliet σ 4, float32: median ms (7 batches)\n", cuda ? "cuda" : "cpu");
    std::printf("%-6s %-8s %10s %10s %7s %10s", "size", "boundary", "prebuilt", "funcs", "ratio", "max diff");
    if (cuda) std::printf(" %10s %7s %10s", "run-time", "ratio", "max diff");
    std::printf("\n");
    const cascade::GaussianDesign design = cascade::design_gaussian(4.0, cascade::GaussianMethod::vanvliet);
    for (int n : sizes) {
        Images images(n, cuda);
        Buffer<float> &in = images.in, &a = images.a, &b = images.b;
        for (cascade::Boundary boundary : {cascade::Boundary::none, cascade::Boundary::reflect}) {
            cascade::IirOptions options;
            options.boundary = boundary;
            options.device = cuda ? cascade::DeviceChoice::cuda : cascade::DeviceChoice::cpu;
            cascade::GaussianPlan plan(design, n, n, 1, options);
            Pipeline funcs, run_time;
            const bool none = boundary == cascade::Boundary::none;
#ifdef FUNCS_TIMING_CUDA
            // The Gaussian's recursion as the run-time generator's inputs, and its tables.
            const cascade::RecursiveFilter g = cascade::van_vliet_gaussian(4.0);
            Buffer<float> tables;
            if (cuda) {
                tables = Buffer<float>(cascade::funcs::tile_tables(g, g, boundary, n, n));
                funcs = none ? funcs_gaussian_none_cuda : funcs_gaussian_reflect_cuda;
                run_time = [&, none](halide_buffer_t *in, halide_buffer_t *out) {
                    auto call =
                        none ? funcs_gaussian_run_time_none_cuda : funcs_gaussian_run_time_reflect_cuda;
                    return call(in, float(g.gain), float(g.feedback[0]), float(g.feedback[1]),
                                float(g.feedback[2]), tables.raw_buffer(), out);
                };
            }
#endif
            if (!cuda) funcs = none ? funcs_gaussian_none_cpu : funcs_gaussian_reflect_cpu;
            auto sync = [&] { images.sync(); };
            if (std::getenv("FUNCS_TIMING_PROFILE")) {
                // Two calls of each, untimed, for a profiler's kernel list (the first warms up).
                for (int k = 0; k < 2; k++) plan.run(in.raw_buffer(), a.raw_buffer());
                sync();
                for (int k = 0; k < 2; k++) funcs(in.raw_buffer(), b.raw_buffer());
                sync();
                if (run_time) {
                    for (int k = 0; k < 2; k++) run_time(in.raw_buffer(), b.raw_buffer());
                    sync();
                }
                continue;
            }
            const int batch = std::max(1, int(2e8 / (double(n) * n)));
            const double prebuilt =
                median_ms([&] { plan.run(in.raw_buffer(), a.raw_buffer()); }, sync, batch);
            // The pipeline's median ms and its result's largest difference from the prebuilt's.
            auto time = [&](const Pipeline &pipeline) {
                const double ms = median_ms([&] { pipeline(in.raw_buffer(), b.raw_buffer()); }, sync, batch);
                images.to_host();
                double diff = 0;
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++)
                        diff = std::max(diff, double(std::fabs(a(x, y, 0) - b(x, y, 0))));
                return std::pair{ms, diff};
            };
            const auto [own, diff] = time(funcs);
            std::printf("%-6d %-8s %10.3f %10.3f %7.3f %10.2e", n, cascade::boundary_name(boundary), prebuilt,
                        own, own / prebuilt, diff);
            if (run_time) {
                const auto [ms, run_time_diff] = time(run_time);
                std::printf(" %10.3f %7.3f %10.2e", ms, ms / prebuilt, run_time_diff);
            }
            std::printf("\n");
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    const bool cuda = argc > 1 && std::strcmp(argv[1], "cuda") == 0;
#ifndef FUNCS_TIMING_CUDA
    if (cuda) {
        std::fprintf(stderr, "funcs_timing: error: this build has no CUDA pipelines\n");
        return 1;
    }
#endif
    std::vector<int> sizes;
    for (int i = 2; i < argc; i++) sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty()) sizes = cuda ? std::vector<int>{2048, 4096, 8192} : std::vector<int>{1024, 4096};
    const int status = run_device(cuda, sizes);
    if (!std::getenv("FUNCS_TIMING_PROFILE")) run_tables(cuda, sizes);
    return status;
}
