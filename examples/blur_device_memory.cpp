// Blurs an image that lives in the application's own CUDA memory, on the application's stream,
// with no copy through the host: the example of docs/embedding.md.
//
//   blur_device_memory [WIDTH HEIGHT]   prints the time of one blur and checks one row on the host
#include <cascade/cascade.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

bool ok(cudaError_t status, const char *what) {
    if (status == cudaSuccess) return true;
    std::fprintf(stderr, "blur_device_memory: error: %s: %s\n", what, cudaGetErrorString(status));
    return false;
}

}  // namespace

int main(int argc, char **argv) {
    const int W = argc > 2 ? std::atoi(argv[1]) : 4096, H = argc > 2 ? std::atoi(argv[2]) : 4096;
    if (W < 1 || H < 1) {
        std::fprintf(stderr, "blur_device_memory: error: the size must be positive\n");
        return 1;
    }
    // The application's image and stream.
    cudaStream_t stream;
    float *image = nullptr, *blurred = nullptr;
    if (!ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate") ||
        !ok(cudaMalloc(&image, sizeof(float) * W * H), "cudaMalloc") ||
        !ok(cudaMalloc(&blurred, sizeof(float) * W * H), "cudaMalloc"))
        return 1;
    std::vector<float> host(size_t(W) * H);
    for (size_t i = 0; i < host.size(); i++) host[i] = float((i * 2654435761u) % 1000) / 1000.0f;
    ok(cudaMemcpyAsync(image, host.data(), sizeof(float) * host.size(), cudaMemcpyHostToDevice, stream),
       "copy");

    try {
        // Made once per filter, size and device; reusable, and callable from several threads.
        const cascade::RecursiveFilter g = cascade::van_vliet_gaussian(4.0);
        cascade::IirPlan plan({g, g}, W, H, {cascade::Boundary::reflect, cascade::DeviceChoice::cuda});
        // Views of the device memory: nothing is allocated on the host or copied.
        auto in = cascade::cuda::wrap(image, W, H), out = cascade::cuda::wrap(blurred, W, H);
        cudaEvent_t start, stop;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        {
            cascade::cuda::Scope on(stream);              // queue the pipeline on the application's stream
            plan.run(in.raw_buffer(), out.raw_buffer());  // the first call uploads the plan's tables
            cudaEventRecord(start, stream);
            plan.run(in.raw_buffer(), out.raw_buffer());
            cudaEventRecord(stop, stream);
        }
        if (!ok(cudaEventSynchronize(stop), "the blur")) return 1;
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        std::printf("blurred %dx%d in %.3f ms (%.1f GiP/s)\n", W, H, ms,
                    W * double(H) / (ms * 1e-3) / (1 << 30));
    } catch (const cascade::Error &e) {
        std::fprintf(stderr, "blur_device_memory: error: %s\n", e.what());
        return 1;
    }
    // A blur keeps a constant's level and smooths: the result's row mean is the input's.
    std::vector<float> row(W);
    ok(cudaMemcpy(row.data(), blurred + size_t(H / 2) * W, sizeof(float) * W, cudaMemcpyDeviceToHost),
       "copy");
    double mean = 0;
    for (float v : row) mean += v / W;
    std::printf("row %d mean %.4f (input samples uniform in [0, 1): about 0.5)\n", H / 2, mean);
    cudaFree(image);
    cudaFree(blurred);
    cudaStreamDestroy(stream);
    return mean > 0.4 && mean < 0.6 ? 0 : 1;
}
