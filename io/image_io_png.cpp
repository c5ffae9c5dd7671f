// PNG through libpng's classic API. libpng reports errors by calling a handler that must not
// return; ours records the message and longjmps back to the setjmp in the function that made the
// failing call. Those functions hold no C++ objects with destructors, so the jump skips none.
#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>

#include "image_io_formats.h"

namespace cascade::io {
namespace {

struct Context {
    FILE *file = nullptr;
    int io_errno = 0;  // errno of a failed write, 0 if none
    char message[256] = "";
};

Context &context_of(png_structp png) { return *static_cast<Context *>(png_get_error_ptr(png)); }

void on_error(png_structp png, png_const_charp message) {
    Context &context = context_of(png);
    std::snprintf(context.message, sizeof context.message, "%s", message);
    png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

void read_data(png_structp png, png_bytep data, size_t n) {
    Context &context = context_of(png);
    if (std::fread(data, 1, n, context.file) != n)
        png_error(png, std::ferror(context.file) ? "read error" : "truncated file");
}

void write_data(png_structp png, png_bytep data, size_t n) {
    Context &context = context_of(png);
    if (std::fwrite(data, 1, n, context.file) != n) {
        context.io_errno = errno;
        png_error(png, "write error");
    }
}

void flush_data(png_structp) {}

struct Layout {
    png_uint_32 width = 0, height = 0;
    int color = 0, channels = 0, depth = 0;
    size_t row_bytes = 0;
    uint64_t stored_bytes = 0;  // the decompressed size of the file's own rows
};

// Reads the chunks up to the image data. False when libpng failed.
bool read_header(png_structp png, png_infop info, Layout *layout) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_info(png, info);
    png_get_IHDR(png, info, &layout->width, &layout->height, &layout->depth, &layout->color, nullptr, nullptr,
                 nullptr);
    layout->stored_bytes =
        uint64_t(layout->height) *
        (1 + (uint64_t(layout->width) * png_get_channels(png, info) * layout->depth + 7) / 8);
    return true;
}

// Sets up the expansions to 8/16-bit gray(+alpha) or RGB(A), which allocates libpng's row buffers.
bool expand(png_structp png, png_infop info, Layout *layout) {
    if (setjmp(png_jmpbuf(png))) return false;
    if (layout->color == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
        if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    }
    if (layout->color == PNG_COLOR_TYPE_GRAY && layout->depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (layout->depth == 16 && kLittleEndian) png_set_swap(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    layout->channels = png_get_channels(png, info);
    layout->depth = png_get_bit_depth(png, info);
    layout->row_bytes = png_get_rowbytes(png, info);
    return true;
}

bool read_rows(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, nullptr);
    return true;
}

bool write_rows(png_structp png, png_infop info, const RawImage *image, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_write_fn(png, png_get_error_ptr(png), write_data, flush_data);
    static const int kColorTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                      PNG_COLOR_TYPE_RGB_ALPHA};
    const int depth = image->type == SampleType::u8 ? 8 : 16;
    png_set_IHDR(png, info, png_uint_32(image->width), png_uint_32(image->height), depth,
                 kColorTypes[image->channels - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (depth == 16 && kLittleEndian) png_set_swap(png);
    png_write_image(png, rows);
    png_write_end(png, nullptr);
    return true;
}

// Which IHDR field libpng refused, read from the file itself: libpng names it only in a warning,
// or not at all for a size of 2^31 or more ("PNG unsigned integer out of range"). "" when the
// IHDR looks valid or is not there.
std::string ihdr_problem(FILE *file) {
    uint8_t h[25];
    if (std::fseek(file, 8, SEEK_SET) != 0 || std::fread(h, 1, sizeof h, file) != sizeof h ||
        std::memcmp(h + 4, "IHDR", 4) != 0)
        return "";
    auto u32 = [&](int at) {
        return uint32_t(h[at]) << 24 | uint32_t(h[at + 1]) << 16 | h[at + 2] << 8 | h[at + 3];
    };
    const uint32_t width = u32(8), height = u32(12);
    const int depth = h[16], color = h[17];
    for (auto [name, value] : {std::pair<const char *, uint32_t>{"width", width}, {"height", height}}) {
        if (value == 0) return std::string(name) + " is zero";
        if (value > PNG_UINT_31_MAX)
            return std::string(name) + " " + std::to_string(value) + " is past PNG's limit of 2^31 - 1";
    }
    static const int kDepths[5][5] = {{1, 2, 4, 8, 16}, {8, 16}, {1, 2, 4, 8}, {8, 16}, {8, 16}};
    const int colors[] = {0, 2, 3, 4, 6};
    for (int k = 0; k < 5; k++) {
        if (color != colors[k]) continue;
        for (int d : kDepths[k])
            if (d == depth) return "";
        return "bit depth " + std::to_string(depth) + " with color type " + std::to_string(color);
    }
    return "color type " + std::to_string(color) + " (PNG has 0, 2, 3, 4 and 6)";
}

}  // namespace

RawImage read_png(const std::string &path) {
    InputFile file(path);
    png_byte signature[8];
    if (file.read(signature, 8) != 8 || png_sig_cmp(signature, 0, 8) != 0) fail_read(path, "not a PNG file");

    Context context;
    context.file = file.get();
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    struct Guard {
        png_structp &png;
        png_infop &info;
        ~Guard() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
    } guard{png, info};
    if (!info) fail_read(path, "libpng could not start");
    png_set_read_fn(png, &context, read_data);
    png_set_sig_bytes(png, 8);
    // The guard below replaces libpng's limit of a million pixels a side.
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    // libpng allocates a text chunk at the length it claims before reading it (its chunk size
    // limit only warns): a 75-byte file asked for 2 GB. The samples need none of the ancillary
    // chunks but tRNS, which libpng always handles, so every other one is skipped unread.
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);

    Layout layout;
    if (!read_header(png, info, &layout)) {
        const std::string field = ihdr_problem(file.get());
        fail_read(path, context.message + (field.empty() ? "" : " (IHDR " + field + ")"));
    }
    // Deflate expands at most 1032-fold; a header claiming more than the file could hold is a lie
    // we refuse before allocating for it.
    if (layout.stored_bytes > 2 * 1032 * file.size() + 65536)
        fail_read(path, "header claims " + std::to_string(layout.height) + "×" +
                            std::to_string(layout.width) + " pixels, more than the file's " +
                            std::to_string(file.size()) + " bytes can hold");
    if (!expand(png, info, &layout)) fail_read(path, context.message);
    if ((layout.depth != 8 && layout.depth != 16) || layout.channels < 1 || layout.channels > 4)
        fail_read(path, "unsupported PNG layout (" + std::to_string(layout.channels) + " channels of " +
                            std::to_string(layout.depth) + " bits)");

    RawImage image;
    image.height = layout.height;
    image.width = layout.width;
    image.channels = size_t(layout.channels);
    image.type = layout.depth == 8 ? SampleType::u8 : SampleType::u16;
    const size_t bytes =
        checked_image_bytes(path, image.height, image.width, image.channels, sample_size(image.type));
    if (layout.row_bytes * image.height != bytes) fail_read(path, "unexpected PNG row size");
    check_fits_in_memory(path, image.height, image.width, image.channels, bytes);
    image.bytes.resize(bytes);
    std::vector<png_bytep> rows(image.height);
    for (size_t y = 0; y < image.height; y++) rows[y] = image.bytes.data() + y * layout.row_bytes;
    if (!read_rows(png, rows.data())) fail_read(path, context.message);
    return image;
}

void write_png(const std::string &path, const std::string &temp, const RawImage &image) {
    if ((image.type != SampleType::u8 && image.type != SampleType::u16) || image.channels < 1 ||
        image.channels > 4)
        fail_write(path, "PNG holds only 8/16-bit samples with 1-4 channels, not " + describe(image));
    if (image.width > PNG_UINT_31_MAX || image.height > PNG_UINT_31_MAX)
        fail_write(path, "image too large for PNG");

    OutputFile file(path, temp);
    Context context;
    context.file = file.get();
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    struct Guard {
        png_structp &png;
        png_infop &info;
        ~Guard() { png_destroy_write_struct(&png, info ? &info : nullptr); }
    } guard{png, info};
    if (!info) fail_write(path, "libpng could not start");
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);

    const size_t row_bytes = image.width * image.channels * sample_size(image.type);
    std::vector<png_bytep> rows(image.height);
    // libpng copies each row before transforming it, so the const_cast never leads to a write.
    for (size_t y = 0; y < image.height; y++)
        rows[y] = const_cast<png_bytep>(image.bytes.data() + y * row_bytes);
    if (!write_rows(png, info, &image, rows.data()))
        fail_write(path, context.io_errno
                             ? std::string(context.message) + ": " + std::strerror(context.io_errno)
                             : std::string(context.message));
    file.close();
}

}  // namespace cascade::io
