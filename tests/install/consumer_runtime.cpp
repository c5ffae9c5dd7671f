// An application linking Cascade::runtime: a plan made once, run on host images, checked against
// the definition.
#include <cascade/cascade.h>

#include <cstdio>
#include <random>

#include "reference.h"

int main() {
    const int W = 97, H = 41;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<Line> image(H, Line(W));
    cascade::Image in(W, H, 1), out(W, H, 1);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in.at(x, y, 0) = float(image[y][x] = u(rng));
    try {
        const cascade::RecursiveFilter g = cascade::van_vliet_gaussian(2.5);
        cascade::IirPlan plan({g, g}, W, H, {cascade::Boundary::reflect, cascade::DeviceChoice::cpu});
        plan.run(in, out);
        const auto expected = filter_2d(image, g.gain, g.feedback, reflect_at, 400);
        double err = 0, norm = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                err += (out.at(x, y, 0) - expected[y][x]) * (out.at(x, y, 0) - expected[y][x]);
                norm += expected[y][x] * expected[y][x];
            }
        const double relative = std::sqrt(err / norm);
        std::printf("consumer_runtime: relative L2 error %.3g against the double definition\n", relative);
        return relative < 1e-5 ? 0 : 1;
    } catch (const cascade::Error &e) {
        std::fprintf(stderr, "consumer_runtime: error: %s\n", e.what());
        return 1;
    }
}
