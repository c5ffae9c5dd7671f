#include "cascade/sat.h"

#include <HalideBuffer.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <thread>

#include "cascade/error.h"
#include "cascade/planes.h"
#include "names.h"
#include "pipeline_call.h"
#include "sat_one_read.h"
#include "sat_variant.h"

// Present when the build links Halide's CUDA runtime; null otherwise.
extern "C" const halide_device_interface_t *halide_cuda_device_interface() __attribute__((weak));

namespace cascade {

namespace {

constexpr Named<SatAlgorithm> kNames[] = {{SatAlgorithm::automatic, "auto"},
                                          {SatAlgorithm::overlapped, "overlapped"},
                                          {SatAlgorithm::two_read, "2r1w"},
                                          {SatAlgorithm::one_read, "1r1w"},
                                          {SatAlgorithm::one_read_split, "1r1w-split"},
                                          {SatAlgorithm::naive, "naive"},
                                          {SatAlgorithm::strips, "strips"}};

const char *type_suffix(halide_type_t t) {
    if (t == halide_type_of<float>()) return "f32";
    if (t == halide_type_of<uint8_t>()) return "u8";
    if (t == halide_type_of<uint16_t>()) return "u16";
    if (t == halide_type_of<uint32_t>()) return "u32";
    if (t == halide_type_of<uint64_t>()) return "u64";
    throw Error("summed-area tables take float32, uint8 or uint16 samples");
}

// The key of the table of `kind` from `in` samples into `out` sums on `device`.
VariantKey sat_key(const std::string &kind, halide_type_t in, halide_type_t out, Device device) {
    VariantKey key;
    key.family = Family::sat;
    key.kind = kind;
    key.samples = std::string(type_suffix(in)) + "_" + type_suffix(out);
    return wanted(key, 0, device);
}

const Variant &find_sat_variant(const std::string &kind, halide_type_t in, halide_type_t out, Device device) {
    return find_variant(sat_key(kind, in, out, device));
}

// The algorithm `automatic` stands for, the fastest in docs/performance.md: on the CPU the
// strips where the build has them, else (and on the GPU) the tiled 2R1W.
SatAlgorithm resolve(SatAlgorithm algorithm, halide_type_t in, halide_type_t out, Device device) {
    if (algorithm != SatAlgorithm::automatic) return algorithm;
    if (device == Device::cpu && lookup_variant(sat_key("strips", in, out, device)))
        return SatAlgorithm::strips;
    return SatAlgorithm::two_read;
}

// Rows per strip of the CPU's strips: 256 (at 4096 float columns, 4 MB of running sums a strip,
// in the last-level cache), fewer where each thread would get fewer than four strips or a
// strip's sums would pass 4 MB; at least 8. 4096², 2 cores: 6.9 ms at 64 rows, 5.9 at 256
// (docs/performance.md).
int strips_rows(const halide_buffer_t *output) {
    const long long width = output->dim[0].extent, height = output->dim[1].extent;
    const long long threads = std::max(1u, std::thread::hardware_concurrency());
    const long long fitting = (4LL << 20) / std::max(1LL, width * output->type.bytes());
    return int(std::clamp(std::min(height / (4 * threads), fitting) / 8 * 8, 8LL, 256LL));
}

}  // namespace

std::string two_read_kind(long long width, long long height, Device device) {
    const bool in_block =
        device != Device::cuda || (width <= kCornerInBlockColumns && width * height <= kCornerInBlockSamples);
    return in_block ? "2r1w" : "2r1w_corner_kernel";
}

SatAlgorithm parse_sat_algorithm(const std::string &text) {
    return parse_named(text, kNames, "SAT algorithm");
}

const char *sat_algorithm_name(SatAlgorithm algorithm) { return name_of(algorithm, kNames); }

std::vector<std::string> sat_algorithm_names() { return names_of(kNames); }

SampleType sat_output_type(const RawImage &input) {
    if (input.type == SampleType::f32 || input.type == SampleType::f64) return SampleType::f32;
    const double largest = input.type == SampleType::u8 ? 255.0 : 65535.0;
    // The table's largest entry is its last: every sample at its maximum.
    const double bound = largest * double(input.height) * double(input.width);
    return bound <= double(std::numeric_limits<uint32_t>::max()) ? SampleType::u32 : SampleType::u64;
}

void summed_area_table(halide_buffer_t *input, halide_buffer_t *output, SatAlgorithm algorithm,
                       Device device) {
    // Worded as a missing variant, as the IIR strips' refusal is (the bench's "not built").
    if (algorithm == SatAlgorithm::strips && device != Device::cpu)
        throw Error(std::string("no ") + device_name(device) +
                    " variant of sat_strips: the SAT algorithm strips runs on the CPU only");
    algorithm = resolve(algorithm, input->type, output->type, device);
    if (algorithm == SatAlgorithm::one_read || algorithm == SatAlgorithm::one_read_split) {
        // The wavefront's stages, and for the split its two 2R1W parts.
        const Variant &stage = find_sat_variant("1r1w_stage", input->type, output->type, device);
        if (algorithm == SatAlgorithm::one_read) return sat_one_read(input, output, stage);
        return sat_one_read_split(input, output, stage,
                                  find_sat_variant("2r1w", input->type, output->type, device),
                                  find_sat_variant("2r1w_bounded", input->type, output->type, device));
    }
    const std::string kind = algorithm == SatAlgorithm::two_read
                                 ? two_read_kind(input->dim[0].extent, input->dim[1].extent, device)
                                 : sat_algorithm_name(algorithm);
    const Variant &variant = find_sat_variant(kind, input->type, output->type, device);
    PipelineCall call;
    call.buffer("input", input).buffer("output", output);
    if (algorithm == SatAlgorithm::strips) call.scalar("strip", strips_rows(output));
    call.run(variant);
}

}  // namespace cascade

namespace cascade {

namespace {

// Runs on host buffers: on the CPU directly; for CUDA through device copies of both, released
// before returning.
void run_from_host(halide_buffer_t *input, halide_buffer_t *output, const SatOptions &options) {
    const Device device = resolve_device(options.device);
    if (device == Device::cpu) {
        summed_area_table(input, output, options.algorithm, device);
        return;
    }
    const halide_device_interface_t *cuda =
        halide_cuda_device_interface ? halide_cuda_device_interface() : nullptr;
    if (!cuda) throw Error("this build has no CUDA runtime");
    std::string failure;
    input->set_host_dirty(true);
    if (halide_copy_to_device(nullptr, input, cuda) != 0 ||
        halide_device_malloc(nullptr, output, cuda) != 0) {
        failure = "could not place the image on the CUDA device";
    } else {
        try {
            summed_area_table(input, output, options.algorithm, device);
            output->set_device_dirty(true);
            if (halide_copy_to_host(nullptr, output) != 0)
                failure = "copying the table from the CUDA device failed";
        } catch (const Error &e) {
            failure = e.what();
        }
    }
    for (halide_buffer_t *b : {input, output})
        if (b->device) halide_device_free(nullptr, b);
    if (!failure.empty()) throw Error(failure);
}

}  // namespace

RawImage summed_area_table(const RawImage &input, const SatOptions &options) {
    if (input.samples() == 0) throw Error("the input image is empty");
    require_addressable("image", input.width, input.height, input.channels, int(sample_size(input.type)));
    require_addressable("summed-area table", input.width, input.height, input.channels,
                        int(sample_size(sat_output_type(input))));
    // float64 samples are summed as float32; every other type as it is, without a copy.
    RawImage converted;
    if (input.type == SampleType::f64) converted = from_planar_float(to_planar_float(input), SampleType::f32);
    const RawImage &source = input.type == SampleType::f64 ? converted : input;
    const int w = int(source.width), h = int(source.height), ch = int(source.channels);
    const int border = options.exclusive ? 1 : 0;
    RawImage table;
    table.width = w + border;
    table.height = h + border;
    table.channels = ch;
    table.type = sat_output_type(source);
    table.bytes.assign(table.samples() * sample_size(table.type), 0);

    const halide_type_t in_type = halide_type(source.type), out_type = halide_type(table.type);
    // The pipelines take planar channels; the files hold them interleaved.
    Halide::Runtime::Buffer<> planar_in(in_type, w, h, ch), planar_out(out_type, w, h, ch);
    planar_in.copy_from(view(in_type, const_cast<uint8_t *>(source.bytes.data()), w, h, ch, ch, w * ch, 1));
    run_from_host(planar_in.raw_buffer(), planar_out.raw_buffer(), options);
    const size_t interior = (size_t(border) * table.width + border) * ch * sample_size(table.type);
    view(out_type, table.bytes.data() + interior, w, h, ch, ch, int(table.width) * ch, 1)
        .copy_from(planar_out);
    return table;
}

Image summed_area_table(const Image &input, const SatOptions &options) {
    if (input.data.empty()) throw Error("the input image is empty");
    const int border = options.exclusive ? 1 : 0;
    require_addressable("image", input.width, input.height, input.channels, sizeof(float));
    Image table(input.width + border, input.height + border, input.channels);
    auto in = view<float>(halide_type_of<float>(), const_cast<float *>(input.data.data()), input.width,
                          input.height, input.channels, 1, input.width, input.width * input.height);
    // The exclusive table's interior, written in place: its first row and column stay zero.
    auto out =
        view<float>(halide_type_of<float>(), table.data.data() + border * (table.width + 1), input.width,
                    input.height, input.channels, 1, table.width, table.width * table.height);
    run_from_host(in.raw_buffer(), out.raw_buffer(), options);
    return table;
}

}  // namespace cascade
