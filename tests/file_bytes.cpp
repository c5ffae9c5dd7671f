#include "file_bytes.h"

#include <fstream>
#include <sstream>

namespace cascade::testing {

std::string read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void write_bytes(const std::string &path, const std::string &bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string be32(uint32_t v) { return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; }

std::string le(uint64_t v, int bytes) {
    std::string out;
    for (int i = 0; i < bytes; i++) out += char(v >> (8 * i));
    return out;
}

uint32_t crc32(const std::string &bytes) {
    uint32_t crc = 0xffffffffu;
    for (unsigned char b : bytes) {
        crc ^= b;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

std::string zlib_stored(const std::string &data) {
    uint32_t a = 1, b = 0;
    for (unsigned char c : data) {
        a = (a + c) % 65521;
        b = (b + a) % 65521;
    }
    const uint16_t n = uint16_t(data.size()), nn = uint16_t(~n);
    return std::string("\x78\x01\x01", 3) + char(n & 0xff) + char(n >> 8) + char(nn & 0xff) + char(nn >> 8) +
           data + be32(b << 16 | a);
}

const std::string kPngSignature = "\x89PNG\r\n\x1a\n";

std::string png_chunk(const std::string &type, const std::string &data) {
    return be32(uint32_t(data.size())) + type + data + be32(crc32(type + data));
}

std::string png_ihdr(uint32_t width, uint32_t height, int depth, int color, bool interlaced) {
    return png_chunk("IHDR", be32(width) + be32(height) + char(depth) + char(color) + std::string(2, '\0') +
                                 char(interlaced));
}

std::string png_file(uint32_t width, uint32_t height, int depth, int color, const std::string &rows,
                     const std::string &extra_chunks, bool interlaced) {
    return kPngSignature + png_ihdr(width, height, depth, color, interlaced) + extra_chunks +
           png_chunk("IDAT", zlib_stored(rows)) + png_chunk("IEND", "");
}

std::string npy_file(const std::string &dict, const std::string &data, int major) {
    std::string header = dict;
    const size_t preamble = major == 1 ? 10 : 12;
    header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    return std::string("\x93NUMPY", 6) + char(major) + '\0' + le(header.size(), major == 1 ? 2 : 4) + header +
           data;
}

std::string tiff_file(const std::vector<Tag> &tags, const std::string &data) {
    const uint32_t ifd = uint32_t(8 + data.size() + data.size() % 2);
    const uint32_t extra_at = ifd + 2 + 12 * uint32_t(tags.size()) + 4;
    std::string entries, extra;
    for (const Tag &tag : tags) {
        const int size = tag.type == 3 ? 2 : 4;
        std::string values;
        for (uint32_t v : tag.values) values += le(v, size);
        entries += le(tag.id, 2) + le(tag.type, 2) + le(tag.values.size(), 4);
        if (values.size() <= 4) {
            entries += values + std::string(4 - values.size(), '\0');
        } else {
            entries += le(extra_at + extra.size(), 4);
            extra += values;
        }
    }
    return std::string("II*\0", 4) + le(ifd, 4) + data + std::string(data.size() % 2, '\0') +
           le(tags.size(), 2) + entries + le(0, 4) + extra;
}

}  // namespace cascade::testing
