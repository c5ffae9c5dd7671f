// Runs the generated library on an awkward size and checks it against the definition.
#include <HalideBuffer.h>
#include <cascade/cascade.h>

#include <cstdio>
#include <random>

#include "consumer_blur.h"
#include "reference.h"

int main() {
    const int W = 53, H = 31;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<Line> image(H, Line(W));
    Halide::Runtime::Buffer<float> in(W, H), out(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = float(image[y][x] = u(rng));
    out.fill(NAN);
    // The run-time recursion: a first-order smoother of unit DC gain; its margin from Cascade.
    const cascade::RecursiveFilter r{0.4, {-0.6}};
    if (consumer_blur(in, float(r.gain), float(r.feedback[0]), cascade::margin_for(r), out) != 0) return 1;

    const cascade::RecursiveFilter g = cascade::van_vliet_gaussian(3.0);
    for (Line &row : image)
        for (double &v : row) v *= 2;
    auto expected = filter_2d(image, g.gain, g.feedback, reflect_at, 400);
    expected = filter_2d(expected, r.gain, r.feedback, clamp_at, 400);
    double err = 0, norm = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const double e = expected[y][x] + 1.0;
            err += (out(x, y) - e) * (out(x, y) - e);
            norm += e * e;
        }
    const double relative = std::sqrt(err / norm);
    std::printf("consumer_funcs: relative L2 error %.3g against the double definition\n", relative);
    return relative < 1e-5 ? 0 : 1;
}
