#include "image_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>

#include "image_io_formats.h"

namespace cascade {
namespace io {

namespace {

std::string one_line(std::string text) {
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

}  // namespace

void fail_read(const std::string &path, const std::string &why) {
    throw Error("cannot read '" + path + "': " + one_line(why));
}

void check_payload_size(const std::string &path, uint64_t file_size, uint64_t offset, uint64_t bytes) {
    const uint64_t found = file_size - std::min(offset, file_size);
    if (found != bytes)
        fail_read(path, std::string(found < bytes ? "truncated data" : "unexpected bytes after the data") +
                            " (expected " + std::to_string(bytes) + " bytes, found " + std::to_string(found) +
                            ")");
}

void fail_write(const std::string &path, const std::string &why) {
    throw Error("cannot write '" + path + "': " + one_line(why));
}

void swap_bytes(uint8_t *data, size_t count, size_t size) {
    for (size_t i = 0; i < count; i++, data += size) std::reverse(data, data + size);
}

size_t checked_image_bytes(const std::string &path, uint64_t height, uint64_t width, uint64_t channels,
                           size_t sample_size) {
    const std::string dims =
        std::to_string(height) + "×" + std::to_string(width) + "×" + std::to_string(channels);
    if (height == 0 || width == 0 || channels == 0) fail_read(path, "empty image (" + dims + ")");
    // ptrdiff_t bounds what one allocation can hold.
    const uint64_t limit = uint64_t(std::numeric_limits<std::ptrdiff_t>::max());
    uint64_t total = sample_size;
    for (uint64_t d : {height, width, channels}) {
        if (total > limit / d) fail_read(path, "image of " + dims + " samples is too large");
        total *= d;
    }
    return size_t(total);
}

void check_fits_in_memory(const std::string &path, uint64_t height, uint64_t width, uint64_t channels,
                          uint64_t bytes) {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return;  // unknown: let the allocation decide
    const uint64_t memory = uint64_t(pages) * uint64_t(page_size);
    if (bytes <= memory) return;
    constexpr uint64_t kMiB = uint64_t(1) << 20;
    fail_read(path, "image of " + std::to_string(height) + "×" + std::to_string(width) + "×" +
                        std::to_string(channels) + " samples needs " +
                        std::to_string((bytes + kMiB - 1) / kMiB) + " MiB, more than this machine's " +
                        std::to_string(memory / kMiB) + " MiB of memory");
}

std::string printable(const std::string &text) {
    std::string out = text.substr(0, 40);
    for (char &c : out)
        if (c < 0x20 || c > 0x7e) c = '?';
    return text.size() > 40 ? out + "..." : out;
}

std::string describe(const RawImage &image) {
    return std::string(sample_name(image.type)) + " with " + std::to_string(image.channels) +
           (image.channels == 1 ? " channel" : " channels");
}

InputFile::InputFile(const std::string &path) : path_(path) {
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw Error("cannot open '" + path + "': " + std::strerror(errno));
    struct stat info;
    std::string problem;
    if (fstat(fileno(file_), &info) != 0)
        problem = std::strerror(errno);
    else if (S_ISDIR(info.st_mode))
        problem = std::strerror(EISDIR);
    else if (!S_ISREG(info.st_mode))
        problem = "not a regular file";
    if (!problem.empty()) {
        std::fclose(file_);
        throw Error("cannot open '" + path + "': " + problem);
    }
    size_ = uint64_t(info.st_size);
}

InputFile::~InputFile() { std::fclose(file_); }

size_t InputFile::read(void *data, size_t n) { return std::fread(data, 1, n, file_); }

void InputFile::read_exact(void *data, size_t n, const char *what) {
    if (read(data, n) == n) return;
    if (std::ferror(file_)) fail_read(path_, std::strerror(errno));
    fail_read(path_, std::string("truncated ") + what);
}

OutputFile::OutputFile(const std::string &path, const std::string &temp) : path_(path) {
    file_ = std::fopen(temp.c_str(), "wb");
    if (!file_) fail_write(path, std::strerror(errno));
}

OutputFile::~OutputFile() {
    if (file_) std::fclose(file_);
}

void OutputFile::write(const void *data, size_t n) {
    if (std::fwrite(data, 1, n, file_) != n) fail_write(path_, std::strerror(errno));
}

void OutputFile::close() {
    FILE *file = file_;
    file_ = nullptr;
    const bool failed = std::ferror(file) != 0;
    if (std::fclose(file) != 0 || failed) fail_write(path_, std::strerror(errno));
}

}  // namespace io

namespace {

struct Format {
    const char *extension;
    RawImage (*read)(const std::string &path);
    void (*write)(const std::string &path, const std::string &temp, const RawImage &image);
};

const Format kFormats[] = {
    {".png", io::read_png, io::write_png},    {".tif", io::read_tiff, io::write_tiff},
    {".tiff", io::read_tiff, io::write_tiff}, {".pfm", io::read_pfm, io::write_pfm},
    {".npy", io::read_npy, io::write_npy},
};

// The lower-cased extension of the file name at the end of `path`, dot included; "" when none.
std::string extension_of(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    const size_t name = slash == std::string::npos ? 0 : slash + 1;
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || dot <= name) return "";
    std::string extension = path.substr(dot);
    for (char &c : extension) c = char(std::tolower((unsigned char)c));
    return extension;
}

const Format *find_format(const std::string &path) {
    const std::string extension = extension_of(path);
    for (const Format &format : kFormats)
        if (extension == format.extension) return &format;
    return nullptr;
}

// The format `path` names; otherwise fails the read or write with "unknown image extension".
const Format &require_format(const std::string &path, bool writing) {
    if (const Format *format = find_format(path)) return *format;
    const std::string extension = extension_of(path);
    const std::string why = (extension.empty() ? std::string("no image extension")
                                               : "unknown image extension '" + extension + "'") +
                            " (supported: .png .tif .tiff .pfm .npy)";
    if (writing) io::fail_write(path, why);
    io::fail_read(path, why);
}

// mkstemp makes files readable by their owner only; give the result the usual umask-derived mode.
// The umask can only be read by setting it, so do that once.
mode_t new_file_mode() {
    static const mode_t mode = [] {
        const mode_t mask = umask(0);
        umask(mask);
        return mode_t(0666 & ~mask);
    }();
    return mode;
}

}  // namespace

RawImage read_image(const std::string &path) {
    const Format &format = require_format(path, false);
    try {
        return format.read(path);
    } catch (const std::bad_alloc &) {
        io::fail_read(path, "not enough memory");
    }
}

void write_image(const std::string &path, const RawImage &image) {
    const Format &format = require_format(path, true);
    if (image.samples() == 0) io::fail_write(path, "empty image");
    if (image.bytes.size() / sample_size(image.type) != image.samples() ||
        image.bytes.size() % sample_size(image.type) != 0)
        io::fail_write(path, "image holds " + std::to_string(image.bytes.size()) + " bytes, expected " +
                                 std::to_string(image.samples() * sample_size(image.type)));
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = mkstemp(temp.data());
    if (fd < 0) io::fail_write(path, std::strerror(errno));
    fchmod(fd, new_file_mode());
    ::close(fd);
    try {
        format.write(path, temp, image);
        if (std::rename(temp.c_str(), path.c_str()) != 0) io::fail_write(path, std::strerror(errno));
    } catch (...) {
        std::remove(temp.c_str());
        throw;
    }
}

bool is_supported_image_path(const std::string &path) { return find_format(path) != nullptr; }

SampleType default_output_type(const std::string &path) {
    return extension_of(path) == ".png" ? SampleType::u8 : SampleType::f32;
}

}  // namespace cascade
