// PFM: "PF" (RGB) or "Pf" (gray), width, height and a scale whose sign gives the byte order
// (negative: little-endian), each followed by white space, then float32 rows from bottom to top.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "image_io_formats.h"

namespace cascade::io {
namespace {

// The next white-space-delimited header field; consumes the single white-space byte that ends it.
std::string next_field(InputFile &file, const std::string &path) {
    std::string field;
    int c;
    while ((c = std::fgetc(file.get())) != EOF && std::isspace(c)) {
    }
    while (c != EOF && !std::isspace(c)) {
        if (field.size() >= 32) fail_read(path, "not a PFM file (malformed header)");
        field += char(c);
        c = std::fgetc(file.get());
    }
    if (c == EOF) fail_read(path, "truncated header");
    return field;
}

uint64_t parse_dimension(const std::string &field, const std::string &path) {
    if (field.empty() || field.size() > 12 || field.find_first_not_of("0123456789") != std::string::npos)
        fail_read(path, "bad PFM dimension '" + printable(field) + "'");
    return std::stoull(field);
}

}  // namespace

RawImage read_pfm(const std::string &path) {
    InputFile file(path);
    const std::string magic = next_field(file, path);
    if (magic != "PF" && magic != "Pf") fail_read(path, "not a PFM file");
    RawImage image;
    image.type = SampleType::f32;
    image.channels = magic == "PF" ? 3 : 1;
    image.width = parse_dimension(next_field(file, path), path);
    image.height = parse_dimension(next_field(file, path), path);
    const std::string scale_field = next_field(file, path);
    char *end = nullptr;
    const double scale = std::strtod(scale_field.c_str(), &end);
    if (*end != '\0' || !std::isfinite(scale) || scale == 0)
        fail_read(path, "bad PFM scale '" + printable(scale_field) + "'");
    const bool little_endian = scale < 0;

    const size_t bytes = checked_image_bytes(path, image.height, image.width, image.channels, 4);
    const uint64_t offset = uint64_t(std::ftell(file.get()));
    check_payload_size(path, file.size(), offset, bytes);
    check_fits_in_memory(path, image.height, image.width, image.channels, bytes);
    image.bytes.resize(bytes);
    const size_t row_bytes = image.width * image.channels * 4;
    for (size_t y = image.height; y-- > 0;)
        file.read_exact(image.bytes.data() + y * row_bytes, row_bytes, "data");
    if (little_endian != kLittleEndian) swap_bytes(image.bytes.data(), image.samples(), 4);
    return image;
}

void write_pfm(const std::string &path, const std::string &temp, const RawImage &image) {
    if (image.type != SampleType::f32 || (image.channels != 1 && image.channels != 3))
        fail_write(path, "PFM holds only float32 samples with 1 or 3 channels, not " + describe(image));
    OutputFile file(path, temp);
    const std::string header = std::string(image.channels == 3 ? "PF" : "Pf") + "\n" +
                               std::to_string(image.width) + " " + std::to_string(image.height) + "\n-1.0\n";
    file.write(header.data(), header.size());
    const size_t row_bytes = image.width * image.channels * 4;
    std::vector<uint8_t> row(row_bytes);
    for (size_t y = image.height; y-- > 0;) {
        std::memcpy(row.data(), image.bytes.data() + y * row_bytes, row_bytes);
        if (!kLittleEndian) swap_bytes(row.data(), row_bytes / 4, 4);
        file.write(row.data(), row_bytes);
    }
    file.close();
}

}  // namespace cascade::io
