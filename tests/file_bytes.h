#pragma once
// Byte-level builders of image files, for the tests that hand-build what our writers never
// produce (palette PNG, big-endian or version-2 NPY, odd TIFF layouts) or damage it on purpose.
#include <cstdint>
#include <string>
#include <vector>

namespace cascade::testing {

// A whole file's bytes; empty when it cannot be read.
std::string read_bytes(const std::string &path);
// Writes `bytes` as the whole file at `path`, replacing what was there.
void write_bytes(const std::string &path, const std::string &bytes);

// `v` as 4 bytes, most significant first.
std::string be32(uint32_t v);
// The low `bytes` bytes of `v`, least significant first.
std::string le(uint64_t v, int bytes);

// The CRC-32 of PNG chunks (and zlib, gzip): reflected polynomial 0xedb88320.
uint32_t crc32(const std::string &bytes);
// A zlib stream of one stored (uncompressed) deflate block; enough for a few tiny rows.
std::string zlib_stored(const std::string &data);

// The 8 bytes every PNG file starts with.
extern const std::string kPngSignature;
// A PNG chunk: length, type, data and a valid CRC.
std::string png_chunk(const std::string &type, const std::string &data);
// An IHDR chunk saying what it likes (compression and filter method 0).
std::string png_ihdr(uint32_t width, uint32_t height, int depth = 8, int color = 0, bool interlaced = false);
// A PNG of signature, IHDR, `extra_chunks` (PLTE, tRNS, tEXt...), one IDAT holding `rows` (each
// scanline preceded by its filter byte, 0: none) and IEND, every CRC valid.
std::string png_file(uint32_t width, uint32_t height, int depth, int color, const std::string &rows,
                     const std::string &extra_chunks = "", bool interlaced = false);

// A NPY file of version `major`.0: magic, header length (2 bytes for version 1, 4 after), `dict`
// padded with spaces and a newline to a multiple of 64 bytes, then `data` as it is.
std::string npy_file(const std::string &dict, const std::string &data, int major = 1);

// A TIFF directory entry.
struct Tag {
    uint16_t id, type;  // type 3: SHORT, 4: LONG
    std::vector<uint32_t> values;
};

// A little-endian TIFF: header, `data` from offset 8, one directory of `tags` in the order given,
// then the values that do not fit in an entry.
std::string tiff_file(const std::vector<Tag> &tags, const std::string &data);

}  // namespace cascade::testing
