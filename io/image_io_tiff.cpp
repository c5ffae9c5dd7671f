// TIFF through libtiff, one scanline at a time. libtiff reports through process-wide handlers;
// ours keep the first error of the current thread's call so it can become the Error's message.
#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "image_io_formats.h"

namespace cascade::io {
namespace {

thread_local std::string tiff_error;

void on_error(const char *, const char *format, va_list args) {
    if (!tiff_error.empty()) return;
    char buffer[512];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    tiff_error = buffer;
}

// libjpeg answers a strip cut short with a warning and invents the missing rows, so a lying header
// could decode gigabytes from a few bytes; here a truncated JPEG strip fails like any other codec's.
void on_warning(const char *module, const char *format, va_list args) {
    if (!tiff_error.empty() || !module || std::strcmp(module, "JPEGLib") != 0) return;
    char buffer[512];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    if (std::strstr(buffer, "Premature end of JPEG")) tiff_error = buffer;
}

void start_call() {
    static std::once_flag once;
    std::call_once(once, [] {
        TIFFSetErrorHandler(on_error);
        TIFFSetWarningHandler(on_warning);
    });
    tiff_error.clear();
}

std::string reason(const char *fallback) { return tiff_error.empty() ? fallback : tiff_error; }

struct Handle {
    TIFF *tif;
    ~Handle() {
        if (tif) TIFFClose(tif);
    }
};

bool sample_type_of(int bits, int format, SampleType *type) {
    if (format == SAMPLEFORMAT_UINT && bits == 8)
        *type = SampleType::u8;
    else if (format == SAMPLEFORMAT_UINT && bits == 16)
        *type = SampleType::u16;
    else if (format == SAMPLEFORMAT_UINT && bits == 32)
        *type = SampleType::u32;
    else if (format == SAMPLEFORMAT_UINT && bits == 64)
        *type = SampleType::u64;
    else if (format == SAMPLEFORMAT_IEEEFP && bits == 32)
        *type = SampleType::f32;
    else if (format == SAMPLEFORMAT_IEEEFP && bits == 64)
        *type = SampleType::f64;
    else
        return false;
    return true;
}

// How many times its compressed size a strip can grow, for codecs with a known bound (deflate
// 1032, LZW about 1400, PackBits 128); 0 when unknown (JPEG, ZSTD, LZMA, WebP: each can reach
// ratios of thousands, and libjpeg invents the rows of a truncated strip).
uint64_t expansion_bound(int compression) {
    switch (compression) {
        case COMPRESSION_NONE:
            return 1;
        case COMPRESSION_ADOBE_DEFLATE:
        case COMPRESSION_DEFLATE:
        case COMPRESSION_LZW:
        case COMPRESSION_PACKBITS:
            return 2048;
        default:
            return 0;
    }
}

// The most a strip of any other codec can grow.
constexpr uint64_t kUnknownCodecRatio = uint64_t(1) << 16;

}  // namespace

RawImage read_tiff(const std::string &path) {
    uint64_t file_size;
    {
        InputFile probe(path);  // for the same "cannot open" messages as the other formats
        file_size = probe.size();
    }
    start_call();
    Handle handle{TIFFOpen(path.c_str(), "r")};
    TIFF *tif = handle.tif;
    if (!tif) fail_read(path, reason("not a TIFF file"));

    uint32_t width = 0, height = 0;
    uint16_t bits = 1, samples = 1, format = SAMPLEFORMAT_UINT, planar = PLANARCONFIG_CONTIG, photometric = 0,
             compression = COMPRESSION_NONE;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    RawImage image;
    if (!sample_type_of(bits, format, &image.type)) {
        const char *kind = format == SAMPLEFORMAT_INT      ? "-bit signed integer samples"
                           : format == SAMPLEFORMAT_IEEEFP ? "-bit float samples"
                                                           : " bits per sample";
        fail_read(path, "unsupported TIFF: " + std::to_string(bits) + kind);
    }
    if (samples < 1 || samples > 4)
        fail_read(path,
                  "unsupported TIFF: " + std::to_string(samples) + " samples per pixel (1-4 supported)");
    if (TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric) && photometric != PHOTOMETRIC_MINISBLACK &&
        photometric != PHOTOMETRIC_RGB)
        fail_read(path, "unsupported TIFF: photometric interpretation " + std::to_string(photometric) +
                            " (only gray and RGB)");
    if (TIFFIsTiled(tif)) fail_read(path, "unsupported TIFF: tiled layout (only strips)");

    image.height = height;
    image.width = width;
    image.channels = samples;
    const size_t sample = sample_size(image.type);
    const size_t bytes = checked_image_bytes(path, height, width, samples, sample);
    const uint64_t bound = expansion_bound(compression);
    if (bound && bytes > bound * file_size + 65536)
        fail_read(path, "header claims " + std::to_string(height) + "×" + std::to_string(width) + "×" +
                            std::to_string(samples) + " samples, more than the file's " +
                            std::to_string(file_size) + " bytes can hold");
    check_fits_in_memory(path, height, width, samples, bytes);

    const bool separate = planar == PLANARCONFIG_SEPARATE;
    const size_t row_bytes = size_t(width) * sample * (separate ? 1 : samples);
    if (uint64_t(TIFFScanlineSize64(tif)) != row_bytes)
        fail_read(path, reason("unexpected TIFF scanline size"));
    // With a known bound the header was checked against the file, so the image is allocated at
    // once. Otherwise it grows only as rows actually decode, and a lying header fails at its first
    // missing row. The one row that must exist before decoding is bounded by a ratio no codec
    // libtiff knows reaches (zstd's best is about 32768), and left uninitialised.
    const bool grow = bound == 0;
    if (grow && row_bytes > kUnknownCodecRatio * file_size + 65536)
        fail_read(path, "header claims rows of " + std::to_string(row_bytes) +
                            " bytes, more than the file's " + std::to_string(file_size) + " bytes can hold");
    const bool direct = !separate && !grow;
    if (!grow) image.bytes.resize(bytes);
    std::unique_ptr<uint8_t[]> line(direct ? nullptr : new uint8_t[row_bytes]);
    const size_t pixel = sample * samples, image_row = size_t(width) * pixel;
    for (uint16_t s = 0; s < (separate ? samples : 1); s++)
        for (uint32_t y = 0; y < height; y++) {
            uint8_t *row = direct ? image.bytes.data() + y * image_row : line.get();
            if (TIFFReadScanline(tif, row, y, s) < 0 || !tiff_error.empty())
                fail_read(path, reason("TIFF read error"));
            if (direct) continue;
            if (grow && s == 0) {
                // Decoders fill what a damaged stream lacks (libjpeg: grey): hold the whole image to
                // the ratio the first row was, or a 484-byte JPEG TIFF decodes to gigabytes.
                const size_t grown = (y + size_t(1)) * image_row;
                if (grown > kUnknownCodecRatio * file_size + 65536)
                    fail_read(path, "decodes to more than " + std::to_string(kUnknownCodecRatio) +
                                        " times the file's " + std::to_string(file_size) + " bytes");
                image.bytes.resize(grown);
            }
            uint8_t *dst = image.bytes.data() + y * image_row;
            if (!separate) {
                std::memcpy(dst, row, row_bytes);
                continue;
            }
            dst += s * sample;
            for (uint32_t x = 0; x < width; x++) std::memcpy(dst + x * pixel, row + x * sample, sample);
        }
    if (!tiff_error.empty()) fail_read(path, tiff_error);
    return image;
}

void write_tiff(const std::string &path, const std::string &temp, const RawImage &image) {
    if (image.channels < 1 || image.channels > 4)
        fail_write(path, "TIFF holds 1-4 channels, not " + std::to_string(image.channels));
    if (image.width > UINT32_MAX || image.height > UINT32_MAX) fail_write(path, "image too large for TIFF");
    const size_t sample = sample_size(image.type);
    const size_t row_bytes = image.width * image.channels * sample;
    // Classic TIFF addresses 4 GiB; leave room for the directory before switching to BigTIFF.
    const bool big = image.bytes.size() > (uint64_t(1) << 32) - (uint64_t(1) << 24);

    start_call();
    Handle handle{TIFFOpen(temp.c_str(), big ? "w8" : "w")};
    TIFF *tif = handle.tif;
    if (!tif) fail_write(path, reason("libtiff could not create the file"));
    const bool is_float = image.type == SampleType::f32 || image.type == SampleType::f64;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(image.width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(image.height));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, int(image.channels));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, int(sample * 8));
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, is_float ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, image.channels <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
    TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    if (image.channels == 2 || image.channels == 4) {
        const uint16_t extra[] = {EXTRASAMPLE_UNASSALPHA};
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, extra);
    }
    TIFFSetField(
        tif, TIFFTAG_COMPRESSION,
        TIFFIsCODECConfigured(COMPRESSION_ADOBE_DEFLATE) ? COMPRESSION_ADOBE_DEFLATE : COMPRESSION_NONE);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));

    // TIFFWriteScanline takes a mutable buffer (codecs may work in place), so copy each row.
    std::vector<uint8_t> line(row_bytes);
    for (size_t y = 0; y < image.height; y++) {
        std::memcpy(line.data(), image.bytes.data() + y * row_bytes, row_bytes);
        if (TIFFWriteScanline(tif, line.data(), uint32_t(y), 0) < 0)
            fail_write(path, reason("TIFF write error"));
    }
    if (!TIFFFlush(tif)) fail_write(path, reason("TIFF write error"));
    handle.tif = nullptr;
    TIFFClose(tif);
    if (!tiff_error.empty()) fail_write(path, tiff_error);
}

}  // namespace cascade::io
