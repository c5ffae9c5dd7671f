#pragma once
// Internal to the image IO layer: one reader and one writer per format, and the file helpers they
// share. Every problem is thrown as a cascade::Error whose message names the user's path.
#include <cstdint>
#include <cstdio>
#include <string>

#include "cascade/error.h"
#include "cascade/image.h"

namespace cascade::io {

RawImage read_png(const std::string &path);
RawImage read_tiff(const std::string &path);
RawImage read_pfm(const std::string &path);
RawImage read_npy(const std::string &path);

// Writers put the file's bytes in `temp` (an empty file in the target's folder, renamed over `path`
// by the caller once the writer returns) and name `path` in their messages.
void write_png(const std::string &path, const std::string &temp, const RawImage &image);
void write_tiff(const std::string &path, const std::string &temp, const RawImage &image);
void write_pfm(const std::string &path, const std::string &temp, const RawImage &image);
void write_npy(const std::string &path, const std::string &temp, const RawImage &image);

// Throw "cannot read|write '<path>': <why>", with line breaks in `why` turned into spaces.
[[noreturn]] void fail_read(const std::string &path, const std::string &why);
[[noreturn]] void fail_write(const std::string &path, const std::string &why);

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// Reverses the bytes of each of `count` samples of `size` bytes.
void swap_bytes(uint8_t *data, size_t count, size_t size);

// height·width·channels·sample_size bytes, after checking that no dimension is zero and that the
// product fits in memory's address range; fails the read of `path` otherwise.
size_t checked_image_bytes(const std::string &path, uint64_t height, uint64_t width, uint64_t channels,
                           size_t sample_size);

// Fails the read of `path` with a clear message when an image of `bytes` (height×width×channels
// samples) could not fit in this machine's physical memory: better than an allocation that fails,
// or succeeds and has the kernel kill the process as it fills.
void check_fits_in_memory(const std::string &path, uint64_t height, uint64_t width, uint64_t channels,
                          uint64_t bytes);

// Fails the read of `path` unless exactly `bytes` of data follow the header's `offset` bytes in a
// file of `file_size` bytes (the raw formats, NPY and PFM, have no other length check).
void check_payload_size(const std::string &path, uint64_t file_size, uint64_t offset, uint64_t bytes);

// `text` from a file, with bytes outside printable ASCII shown as '?', fit to quote in a message.
std::string printable(const std::string &text);

// "uint8 with 3 channels": how write errors describe the image they refuse.
std::string describe(const RawImage &image);

// A regular file opened for reading; "cannot open '<path>': <reason>" when it cannot be.
class InputFile {
public:
    explicit InputFile(const std::string &path);
    ~InputFile();
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;

    FILE *get() const { return file_; }
    uint64_t size() const { return size_; }
    // Reads up to `n` bytes; returns how many it got.
    size_t read(void *data, size_t n);
    // Reads exactly `n` bytes, or fails the read with "truncated <what>".
    void read_exact(void *data, size_t n, const char *what);

private:
    std::string path_;
    FILE *file_ = nullptr;
    uint64_t size_ = 0;
};

// `temp` opened for writing; failures name `path`.
class OutputFile {
public:
    OutputFile(const std::string &path, const std::string &temp);
    ~OutputFile();
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    FILE *get() const { return file_; }
    void write(const void *data, size_t n);
    // Flushes and closes, failing the write if any data did not reach the file.
    void close();

private:
    std::string path_;
    FILE *file_ = nullptr;
};

}  // namespace cascade::io
