#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cub/device/device_scan.cuh>
#include <cub/warp/warp_scan.cuh>
#include <random>
#include <stdexcept>
#include <vector>

#include "cub_sat.h"
#include "cuda_check.h"
#include "cuda_support.h"
#include "self_check.h"

namespace cascade::baselines {

namespace {

// The column pass: a block owns a strip of kStrip columns and walks down it one kStrip-row tile
// at a time. Tiles are loaded and stored row by row (coalesced); in shared memory each warp scans
// whole columns with cub::WarpScan, one row per lane, seeded with the column's running carry.
constexpr int kStrip = 32;
constexpr int kWarps = 8;
constexpr int kRowsPerThread = kStrip / kWarps;
constexpr int kThreads = kStrip * kWarps;

__global__ void __launch_bounds__(kThreads)
    column_scan(const float *__restrict__ in, float *__restrict__ out, int width, int height) {
    using WarpScan = cub::WarpScan<float>;
    __shared__ float tile[kStrip][kStrip + 1];  // padded: column reads are conflict-free
    __shared__ float carry[kStrip];
    __shared__ typename WarpScan::TempStorage scan_storage[kWarps];
    const int lane = threadIdx.x, warp = threadIdx.y;
    const int x = blockIdx.x * kStrip + lane;
    if (warp == 0) carry[lane] = 0.0f;

    // The next tile is loaded into registers while the current one is scanned.
    float staged[kRowsPerThread];
    auto load = [&](int y0) {
        for (int k = 0; k < kRowsPerThread; k++) {
            const int y = y0 + warp + k * kWarps;
            staged[k] = x < width && y < height ? in[size_t(y) * width + x] : 0.0f;
        }
    };
    load(0);
    for (int y0 = 0; y0 < height; y0 += kStrip) {
        // Each thread rewrites the cells it stored last iteration: no barrier needed before this.
        for (int k = 0; k < kRowsPerThread; k++) tile[warp + k * kWarps][lane] = staged[k];
        __syncthreads();
        if (y0 + kStrip < height) load(y0 + kStrip);
        for (int c = warp; c < kStrip; c += kWarps) {
            float v = tile[lane][c];
            WarpScan(scan_storage[warp]).InclusiveSum(v, v);
            v += carry[c];
            tile[lane][c] = v;
            const float total = __shfl_sync(0xffffffffu, v, kStrip - 1);
            // The shuffle converges the lanes but orders no shared memory: every lane's read of
            // carry[c] must be done before lane 0 replaces it (racecheck's WAR warning).
            __syncwarp();
            if (lane == 0) carry[c] = total;
            __syncwarp();
        }
        __syncthreads();
        for (int k = 0; k < kRowsPerThread; k++) {
            const int y = y0 + warp + k * kWarps;
            if (x < width && y < height) out[size_t(y) * width + x] = tile[warp + k * kWarps][lane];
        }
    }
}

struct RowOf {
    int width;
    __host__ __device__ int operator()(int i) const { return i / width; }
};

auto row_keys(int width) {
    return thrust::make_transform_iterator(thrust::counting_iterator<int>(0), RowOf{width});
}

}  // namespace

CubSat::CubSat(int width, int height) : width_(width), height_(height) {
    if (width < 1 || height < 1 || double(width) * height > 2147483647.0)
        throw std::runtime_error("CubSat: the image must hold 1 to 2^31-1 pixels");
    check(cudaMalloc(&columns_, size_t(width) * height * sizeof(float)), "cudaMalloc");
    check(cub::DeviceScan::InclusiveSumByKey(nullptr, scan_temp_bytes_, row_keys(width), columns_, columns_,
                                             width * height),
          "sizing cub::DeviceScan::InclusiveSumByKey");
    check(cudaMalloc(&scan_temp_, std::max<size_t>(scan_temp_bytes_, 1)), "cudaMalloc");
}

CubSat::~CubSat() {
    cudaFree(columns_);
    cudaFree(scan_temp_);
}

void CubSat::run(const float *input, float *output) {
    const dim3 block(kStrip, kWarps), grid((width_ + kStrip - 1) / kStrip);
    column_scan<<<grid, block>>>(input, columns_, width_, height_);
    check(cudaGetLastError(), "launching the column scan");
    check(cub::DeviceScan::InclusiveSumByKey(scan_temp_, scan_temp_bytes_, row_keys(width_), columns_, output,
                                             width_ * height_),
          "cub::DeviceScan::InclusiveSumByKey");
}

double cub_sat_self_check() {
    // Odd sizes: a partial strip, a partial tile, rows that straddle the scan's tiles.
    const int w = 67, h = 45;
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> input(size_t(w) * h), output(input.size());
    for (float &v : input) v = uniform(rng);
    std::vector<double> reference(input.size());
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const size_t i = size_t(y) * w + x;
            reference[i] = input[i] + (x > 0 ? reference[i - 1] : 0.0) + (y > 0 ? reference[i - w] : 0.0) -
                           (x > 0 && y > 0 ? reference[i - w - 1] : 0.0);
        }
    DeviceArray in(input.size() * sizeof(float)), out(input.size() * sizeof(float));
    in.upload(input.data());
    CubSat sat(w, h);
    sat.run(static_cast<const float *>(in.data()), static_cast<float *>(out.data()));
    out.download(output.data());
    return max_relative_error(output, reference);
}

}  // namespace cascade::baselines
