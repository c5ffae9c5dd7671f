#include "sat_one_read.h"

#include <HalideRuntimeCuda.h>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "cascade/error.h"
#include "pipeline_call.h"

namespace cascade {

namespace {

// A view of `base` starting at sample (x, y) of channel 0, with the given dimensions (extent,
// stride in samples). On the device the view points into the same allocation.
struct View {
    halide_buffer_t buffer{};
    std::vector<halide_dimension_t> dims;

    View(const halide_buffer_t &base, int x, int y, std::vector<halide_dimension_t> shape)
        : dims(std::move(shape)) {
        const int64_t offset = int64_t(x) * base.dim[0].stride + int64_t(y) * base.dim[1].stride;
        const int64_t bytes = offset * base.type.bytes();
        buffer.type = base.type;
        buffer.dimensions = int(dims.size());
        buffer.dim = dims.data();
        if (base.device) {
            buffer.device = base.device + uint64_t(bytes);
            buffer.device_interface = base.device_interface;
        } else {
            buffer.host = base.host + bytes;
        }
    }
};

// One zero sample of the table's type, where the table lives; viewed with all strides 0 it is
// the table above or left of the image's first row or column.
struct Zero {
    uint64_t host = 0;
    halide_buffer_t buffer{};
    halide_dimension_t dim{0, 1, 0, 0};

    explicit Zero(const halide_buffer_t &like) {
        buffer.type = like.type;
        buffer.dimensions = 1;
        buffer.dim = &dim;
        buffer.host = reinterpret_cast<uint8_t *>(&host);
        if (like.device) {
            buffer.set_host_dirty(true);
            if (halide_copy_to_device(nullptr, &buffer, like.device_interface) != 0)
                throw Error("1r1w: could not place a zero on the device");
            buffer.host = nullptr;
        }
    }
    ~Zero() {
        if (buffer.device) halide_device_free(nullptr, &buffer);
    }
};

// The zero viewed with `shape` (strides forced to 0).
struct ZeroView {
    halide_buffer_t buffer;
    std::vector<halide_dimension_t> dims;

    ZeroView(const Zero &zero, std::vector<halide_dimension_t> shape)
        : buffer(zero.buffer), dims(std::move(shape)) {
        for (auto &d : dims) d.stride = 0;
        buffer.dimensions = int(dims.size());
        buffer.dim = dims.data();
    }
};

}  // namespace

namespace {

// The wavefront over every tile for which `skip` is false; tiles skipped must not be needed by
// those run (their table already written, or written only after).
template <typename Skip>
void wavefront(halide_buffer_t *input, halide_buffer_t *output, const Variant &stage, Skip skip) {
    const int b = kOneReadTile;
    const int width = input->dim[0].extent, height = input->dim[1].extent, channels = input->dim[2].extent;
    const int nx = (width + b - 1) / b, ny = (height + b - 1) / b;
    const halide_dimension_t in_c{0, channels, input->dim[2].stride, 0},
        out_c{0, channels, output->dim[2].stride, 0};
    // One step along a diagonal: a tile right, a tile up.
    auto step = [b](const halide_buffer_t &buf) { return b * buf.dim[0].stride - b * buf.dim[1].stride; };
    const Zero zero(*output);

    for (int k = 0; k < nx + ny - 1; k++) {
        const int first = std::max(0, k - (ny - 1)), last = std::min(k, nx - 1);
        for (int a = first; a <= last;) {
            if (skip(a, k - a)) {
                a++;
                continue;
            }
            // A run of tiles sharing their shape and edges: one pipeline call.
            auto shape_of = [&](int tx) {
                const int ty = k - tx;
                return std::array<int, 4>{tx == 0, ty == 0, std::min(b, width - tx * b),
                                          std::min(b, height - ty * b)};
            };
            int n = 1;
            while (a + n <= last && !skip(a + n, k - a - n) && shape_of(a + n) == shape_of(a)) n++;
            const auto [at_left, at_top, w, h] = shape_of(a);
            const int x0 = a * b, y0 = (k - a) * b;
            const halide_dimension_t in_t{0, n, step(*input), 0}, out_t{0, n, step(*output), 0};
            const halide_dimension_t in_x{0, w, input->dim[0].stride, 0}, in_y{0, h, input->dim[1].stride, 0};
            const halide_dimension_t out_x{0, w, output->dim[0].stride, 0},
                out_y{0, h, output->dim[1].stride, 0};

            View in(*input, x0, y0, {in_x, in_y, in_t, in_c});
            View out(*output, x0, y0, {out_x, out_y, out_t, out_c});
            // Edges read the table written by earlier stages, or zeros outside the image.
            std::optional<View> top, left, corner;
            std::optional<ZeroView> top0, left0, corner0;
            const std::vector<halide_dimension_t> row{out_x, out_t, out_c}, column{out_y, out_t, out_c};
            const std::vector<halide_dimension_t> point{out_t, out_c};
            halide_buffer_t *top_b =
                at_top ? &top0.emplace(zero, row).buffer : &top.emplace(*output, x0, y0 - 1, row).buffer;
            halide_buffer_t *left_b = at_left ? &left0.emplace(zero, column).buffer
                                              : &left.emplace(*output, x0 - 1, y0, column).buffer;
            halide_buffer_t *corner_b = at_top || at_left
                                            ? &corner0.emplace(zero, point).buffer
                                            : &corner.emplace(*output, x0 - 1, y0 - 1, point).buffer;
            PipelineCall call;
            call.buffer("input", &in.buffer)
                .buffer("output", &out.buffer)
                .buffer("top", top_b)
                .buffer("left", left_b);
            call.buffer("corner", corner_b);
            call.run(stage);
            a += n;
        }
    }
}

halide_dimension_t dim(int min, int extent, int stride) { return {min, extent, stride, 0}; }

}  // namespace

void sat_one_read(halide_buffer_t *input, halide_buffer_t *output, const Variant &stage) {
    wavefront(input, output, stage, [](int, int) { return false; });
}

void sat_one_read_split(halide_buffer_t *input, halide_buffer_t *output, const Variant &stage,
                        const Variant &two_read, const Variant &bounded) {
    const int b = kOneReadTile;
    const int width = input->dim[0].extent, height = input->dim[1].extent, channels = input->dim[2].extent;
    const int nx = (width + b - 1) / b, ny = (height + b - 1) / b, k = std::min(nx, ny) / 3;
    if (k == 0) return sat_one_read(input, output, stage);
    const int xb = (nx - k) * b, yb = (ny - k) * b;  // the bottom-right part's first sample
    auto crop = [&](halide_buffer_t *base, int x, int y, int w, int h) {
        return View(*base, x, y,
                    {dim(0, w, base->dim[0].stride), dim(0, h, base->dim[1].stride),
                     dim(0, channels, base->dim[2].stride)});
    };

    View in_a = crop(input, 0, 0, k * b, k * b), out_a = crop(output, 0, 0, k * b, k * b);
    PipelineCall().buffer("input", &in_a.buffer).buffer("output", &out_a.buffer).run(two_read);

    wavefront(input, output, stage,
              [&](int tx, int ty) { return (tx < k && ty < k) || (tx >= nx - k && ty >= ny - k); });

    View in_b = crop(input, xb, yb, width - xb, height - yb),
         out_b = crop(output, xb, yb, width - xb, height - yb);
    // The table's row above and column left of the part, both from the sample above-left of it.
    const halide_dimension_t c_dim = dim(0, channels, output->dim[2].stride);
    View top(*output, xb - 1, yb - 1, {dim(-1, width - xb + 1, output->dim[0].stride), c_dim});
    View left(*output, xb - 1, yb - 1, {dim(-1, height - yb + 1, output->dim[1].stride), c_dim});
    PipelineCall()
        .buffer("input", &in_b.buffer)
        .buffer("output", &out_b.buffer)
        .buffer("top", &top.buffer)
        .buffer("left", &left.buffer)
        .run(bounded);
}

}  // namespace cascade
