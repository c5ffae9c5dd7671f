// Times the 2D FIR's CUDA tiles (schedules/fir2d_schedule.h) at 8192², data on the device, against
// the one-axis correlation run down the columns then along the rows. Built by hand, not by the
// project's build: each FIR2D_VARIANT is the fir2d generator run with the tile knobs its name
// spells (radius 16; "d_" float64) and no runtime, linked with one Halide CUDA runtime and
// runtime/cuda/cuda_register_budget.cpp under -Wl,--wrap=halide_cuda_initialize_kernels, as
// libcascade is. Prints a table: ms a 2D filter (median of 5 batches of 20), GiP/s, and the largest
// error against double sums at 4096 sampled outputs.
#include <HalideBuffer.h>
#include <HalideRuntimeCuda.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#define FIR2D_DECLARE(name) \
    extern "C" int name(int32_t, halide_buffer_t *, halide_buffer_t *, halide_buffer_t *, halide_buffer_t *);
FIR2D_VARIANTS(FIR2D_DECLARE)
extern "C" int cascade_correlate_columns_o0_cuda(halide_buffer_t *, int32_t, int32_t, halide_buffer_t *,
                                                 halide_buffer_t *);
extern "C" int cascade_correlate_rows_o0_cuda(halide_buffer_t *, int32_t, int32_t, halide_buffer_t *,
                                              halide_buffer_t *);
extern "C" int cascade_correlate_columns_f64_o0_cuda(halide_buffer_t *, int32_t, int32_t, halide_buffer_t *,
                                                     halide_buffer_t *);
extern "C" int cascade_correlate_rows_f64_o0_cuda(halide_buffer_t *, int32_t, int32_t, halide_buffer_t *,
                                                  halide_buffer_t *);

namespace {

const char *only = "";  // argv[1]: time only the rows whose name holds it

constexpr int kN = 8192, kR = 16, kReflect = 4;

int64_t reflect(int64_t i, int64_t n) {
    while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
    return i;
}

// `sync`: a buffer the runs write (Halide's device sync asks for one, and waits for the whole
// device).
template <typename F>
double median_ms(F run, halide_buffer_t *sync) {
    for (int k = 0; k < 5; k++) run();
    halide_device_sync(nullptr, sync);
    std::vector<double> ms;
    for (int b = 0; b < 5; b++) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < 20; k++) run();
        halide_device_sync(nullptr, sync);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 20);
    }
    std::sort(ms.begin(), ms.end());
    return ms[2];
}

template <typename T>
struct Bench {
    Halide::Runtime::Buffer<T> in{kN, kN, 1}, out{kN, kN, 1}, mid{kN, kN, 1}, gauss{2 * kR + 1},
        box{2 * kR + 1}, box31{31};
    std::vector<double> g, b;

    Bench() {
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        in.for_each_value([&](T &v) { v = T(u(rng)); });
        double s = 0;
        for (int k = -kR; k <= kR; k++) s += std::exp(-0.5 * k * k / 16.0);
        for (int k = -kR; k <= kR; k++) g.push_back(std::exp(-0.5 * k * k / 16.0) / s);
        for (int k = 0; k <= 2 * kR; k++) b.push_back(k >= 1 && k <= 31 ? 1.0 / 31 : 0.0);
        for (int k = 0; k <= 2 * kR; k++) gauss(k) = T(g[k]), box(k) = T(b[k]);
        for (int k = 0; k < 31; k++) box31(k) = T(1.0 / 31);
        for (auto *buf : {&in, &out, &mid, &gauss, &box, &box31}) {
            if (buf->device_malloc(halide_cuda_device_interface()) != 0) std::abort();
            buf->set_host_dirty(true);
            buf->copy_to_device(halide_cuda_device_interface());
        }
    }

    // The largest |error| over sampled outputs relative to the sum of the terms' magnitudes.
    double error(const std::vector<double> &taps) {
        out.set_device_dirty(true);
        out.copy_to_host();
        std::mt19937 rng(5);
        double worst = 0;
        for (int s = 0; s < 4096; s++) {
            const int x = rng() % kN, y = rng() % kN;
            double sum = 0, mag = 0;
            for (int i = 0; i <= 2 * kR; i++)
                for (int j = 0; j <= 2 * kR; j++) {
                    const double v = in(int(reflect(x + j - kR, kN)), int(reflect(y + i - kR, kN)), 0);
                    sum += taps[i] * taps[j] * v;
                    mag += std::abs(taps[i] * taps[j] * v);
                }
            worst = std::max(worst, std::abs(double(out(x, y, 0)) - sum) / mag);
        }
        out.fill(T(NAN));
        out.set_host_dirty(true);
        out.copy_to_device(halide_cuda_device_interface());
        return worst;
    }

    template <typename F>
    void row(const char *name, F f, bool check = true) {
        if (std::string(name).find(only) == std::string::npos) return;
        int rc = 0;
        const double ms = median_ms([&] { rc |= f(gauss.raw_buffer()); }, out.raw_buffer());
        const double e = check ? error(g) : NAN;
        const double box_ms = median_ms([&] { rc |= f(box.raw_buffer()); }, out.raw_buffer());
        const double be = check ? error(b) : NAN;
        std::printf("%-34s %8.3f ms %7.1f GiP/s  err %.1e | box31 %8.3f ms err %.1e%s\n", name, ms,
                    double(kN) * kN / (ms * 1e-3) / (1 << 30), e, box_ms, be, rc ? "  PIPELINE FAILED" : "");
    }
};

}  // namespace

int main(int argc, char **argv) {
    if (argc > 1) only = argv[1];
    {
        Bench<float> f;
#define FIR2D_ROW_F(name)                                                       \
    if (std::string(#name).find("_d_") == std::string::npos)                    \
        f.row(#name, [&](halide_buffer_t *t) {                                  \
            return name(kReflect, f.in.raw_buffer(), t, t, f.out.raw_buffer()); \
        });
        FIR2D_VARIANTS(FIR2D_ROW_F)
        f.row(
            "correlate columns+rows (f32)",
            [&](halide_buffer_t *t) {
                const halide_buffer_t *unused = t;
                (void)unused;
                return cascade_correlate_columns_o0_cuda(f.in.raw_buffer(), 15, kReflect,
                                                         f.box31.raw_buffer(), f.mid.raw_buffer()) |
                       cascade_correlate_rows_o0_cuda(f.mid.raw_buffer(), 15, kReflect, f.box31.raw_buffer(),
                                                      f.out.raw_buffer());
            },
            false);
    }
    {
        Bench<double> d;
#define FIR2D_ROW_D(name)                                                       \
    if (std::string(#name).find("_d_") != std::string::npos)                    \
        d.row(#name, [&](halide_buffer_t *t) {                                  \
            return name(kReflect, d.in.raw_buffer(), t, t, d.out.raw_buffer()); \
        });
        FIR2D_VARIANTS(FIR2D_ROW_D)
        d.row(
            "correlate columns+rows (f64)",
            [&](halide_buffer_t *t) {
                (void)t;
                return cascade_correlate_columns_f64_o0_cuda(d.in.raw_buffer(), 15, kReflect,
                                                             d.box31.raw_buffer(), d.mid.raw_buffer()) |
                       cascade_correlate_rows_f64_o0_cuda(d.mid.raw_buffer(), 15, kReflect,
                                                          d.box31.raw_buffer(), d.out.raw_buffer());
            },
            false);
    }
    return 0;
}
