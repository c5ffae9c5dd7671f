// One reader's fuzz target: the input bytes become a file of the format FUZZ_IMAGE_EXTENSION
// names, read through cascade::read_image exactly as the command line reads it. A clean
// cascade::Error is a fine outcome; a read that succeeds must describe its bytes truthfully and
// survive a write and a read back unchanged.
#include <cstring>
#include <exception>

#include "cascade/error.h"
#include "fuzz_support.h"
#include "io/image_io.h"

#ifndef FUZZ_IMAGE_EXTENSION
#error "define FUZZ_IMAGE_EXTENSION, e.g. \".png\""
#endif

namespace {

using namespace cascade;

void check_invariants(const RawImage &image) {
    FUZZ_CHECK(image.height > 0 && image.width > 0 && image.channels > 0, "empty image read");
    FUZZ_CHECK(image.bytes.size() == image.samples() * sample_size(image.type),
               std::to_string(image.bytes.size()) + " bytes for " + std::to_string(image.samples()) +
                   " samples of " + sample_name(image.type));
}

// Every image a reader returns is one its own format's writer can hold.
void check_round_trip(const RawImage &image) {
    const std::string path = fuzz::scratch_path("copy" FUZZ_IMAGE_EXTENSION);
    try {
        write_image(path, image);
    } catch (const Error &e) {
        fuzz::fail(std::string("cannot write what was read: ") + e.what());
    }
    const RawImage copy = read_image(path);
    FUZZ_CHECK(copy.height == image.height && copy.width == image.width && copy.channels == image.channels &&
                   copy.type == image.type,
               "the copy has another shape or sample type");
    FUZZ_CHECK(copy.bytes == image.bytes, "the copy holds other samples");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const std::string path = fuzz::scratch_path("input" FUZZ_IMAGE_EXTENSION);
    fuzz::write_file(path, data, size);
    RawImage image;
    if (fuzz::refused([&] { image = read_image(path); })) return 0;
    check_invariants(image);
    check_round_trip(image);
    fuzz::report("read " + std::to_string(image.height) + "x" + std::to_string(image.width) + "x" +
                 std::to_string(image.channels) + " " + sample_name(image.type));
    return 0;
}
