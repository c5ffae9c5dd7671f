// NumPy's .npy: "\x93NUMPY", a version, the header's length (2 bytes in version 1, 4 in 2 and 3)
// and a header that is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (512, 512, 3), }
// followed by the array's bytes.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "image_io_formats.h"

namespace cascade::io {
namespace {

// Reads the few Python literals an NPY header holds: strings, True/False and tuples of integers.
class HeaderParser {
public:
    HeaderParser(const std::string &text, const std::string &path) : text_(text), path_(path) {}

    bool accept(char c) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == c) {
            pos_++;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) malformed(std::string("expected '") + c + "'");
    }
    bool next_is(char c) {
        skip_space();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    std::string string() {
        skip_space();
        const char quote = pos_ < text_.size() ? text_[pos_] : '\0';
        if (quote != '\'' && quote != '"') malformed("expected a string");
        const size_t close = text_.find(quote, pos_ + 1);
        if (close == std::string::npos) malformed("unterminated string");
        std::string value = text_.substr(pos_ + 1, close - pos_ - 1);
        pos_ = close + 1;
        return value;
    }
    std::string word() {
        skip_space();
        const size_t start = pos_;
        while (pos_ < text_.size() && std::isalpha((unsigned char)text_[pos_])) pos_++;
        return text_.substr(start, pos_ - start);
    }
    std::vector<uint64_t> tuple() {
        expect('(');
        std::vector<uint64_t> values;
        while (!accept(')')) {
            values.push_back(integer());
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return values;
    }
    [[noreturn]] void malformed(const std::string &what) {
        fail_read(path_, "malformed NPY header (" + what + " at offset " + std::to_string(pos_) + ")");
    }

private:
    void skip_space() {
        while (pos_ < text_.size() && std::isspace((unsigned char)text_[pos_])) pos_++;
    }
    uint64_t integer() {
        skip_space();
        const size_t start = pos_;
        uint64_t value = 0;
        for (; pos_ < text_.size() && std::isdigit((unsigned char)text_[pos_]); pos_++) {
            const uint64_t digit = uint64_t(text_[pos_] - '0');
            if (value > (UINT64_MAX - digit) / 10)
                fail_read(path_, "NPY shape has an absurdly large dimension");
            value = value * 10 + digit;
        }
        if (pos_ == start) malformed("expected an integer");
        if (pos_ < text_.size() && text_[pos_] == 'L') pos_++;  // Python 2's long suffix
        return value;
    }

    const std::string &text_;
    const std::string &path_;
    size_t pos_ = 0;
};

// The sample type a dtype names and whether its byte order differs from this machine's.
bool parse_descr(const std::string &descr, SampleType *type, bool *swap) {
    if (descr.size() != 3) return false;
    const char order = descr[0];
    const std::string kind = descr.substr(1);
    if (kind == "u1" && std::strchr("|<>=", order)) {
        *type = SampleType::u8;
        *swap = false;
        return true;
    }
    if (order != '<' && order != '>') return false;
    if (kind == "u2")
        *type = SampleType::u16;
    else if (kind == "u4")
        *type = SampleType::u32;
    else if (kind == "u8")
        *type = SampleType::u64;
    else if (kind == "f4")
        *type = SampleType::f32;
    else if (kind == "f8")
        *type = SampleType::f64;
    else
        return false;
    *swap = (order == '<') != kLittleEndian;
    return true;
}

const char *descr_of(SampleType type) {
    switch (type) {
        case SampleType::u8:
            return "|u1";
        case SampleType::u16:
            return "<u2";
        case SampleType::u32:
            return "<u4";
        case SampleType::u64:
            return "<u8";
        case SampleType::f32:
            return "<f4";
        case SampleType::f64:
            return "<f8";
    }
    return "";
}

std::string shape_text(const std::vector<uint64_t> &shape) {
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); i++) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

RawImage read_npy(const std::string &path) {
    InputFile file(path);
    uint8_t preamble[8];
    if (file.read(preamble, 8) != 8 || std::memcmp(preamble, "\x93NUMPY", 6) != 0)
        fail_read(path, "not a NPY file");
    const int major = preamble[6];
    if (major < 1 || major > 3)
        fail_read(path,
                  "unsupported NPY version " + std::to_string(major) + "." + std::to_string(preamble[7]));
    const size_t length_size = major == 1 ? 2 : 4;
    uint8_t length_bytes[4];
    file.read_exact(length_bytes, length_size, "header");
    uint64_t length = 0;
    for (size_t i = length_size; i-- > 0;) length = length << 8 | length_bytes[i];
    if (length > file.size()) fail_read(path, "truncated header");
    std::string text(length, '\0');
    file.read_exact(text.data(), length, "header");

    HeaderParser parser(text, path);
    std::string descr;
    bool have_descr = false, have_order = false, have_shape = false, fortran_order = false;
    std::vector<uint64_t> shape;
    parser.expect('{');
    while (!parser.accept('}')) {
        const std::string key = parser.string();
        parser.expect(':');
        if (key == "descr") {
            if (!parser.next_is('\'') && !parser.next_is('"'))
                fail_read(path, "unsupported dtype (structured array)");
            descr = parser.string();
            have_descr = true;
        } else if (key == "fortran_order") {
            const std::string value = parser.word();
            if (value != "True" && value != "False") parser.malformed("expected True or False");
            fortran_order = value == "True";
            have_order = true;
        } else if (key == "shape") {
            shape = parser.tuple();
            have_shape = true;
        } else {
            fail_read(path, "unexpected key '" + printable(key) + "' in NPY header");
        }
        if (!parser.accept(',')) {
            parser.expect('}');
            break;
        }
    }
    if (!have_descr || !have_order || !have_shape)
        fail_read(path, "NPY header lacks '" +
                            std::string(!have_descr   ? "descr"
                                        : !have_order ? "fortran_order"
                                                      : "shape") +
                            "'");

    RawImage image;
    bool swap = false;
    if (!parse_descr(descr, &image.type, &swap))
        fail_read(path, "unsupported dtype '" + printable(descr) +
                            "' (supported: '|u1', '<u2', '<f4', '<f8' and big-endian forms)");
    if (fortran_order) fail_read(path, "Fortran-order arrays are not supported (save a C-order array)");
    if (shape.size() != 2 && shape.size() != 3)
        fail_read(path, "expected an H×W or H×W×C array, got shape " + shape_text(shape));
    image.height = shape[0];
    image.width = shape[1];
    image.channels = shape.size() == 3 ? shape[2] : 1;

    const size_t bytes =
        checked_image_bytes(path, shape[0], shape[1], image.channels, sample_size(image.type));
    const uint64_t offset = 8 + length_size + length;
    check_payload_size(path, file.size(), offset, bytes);
    check_fits_in_memory(path, image.height, image.width, image.channels, bytes);
    image.bytes.resize(bytes);
    file.read_exact(image.bytes.data(), bytes, "data");
    if (swap) swap_bytes(image.bytes.data(), image.samples(), sample_size(image.type));
    return image;
}

void write_npy(const std::string &path, const std::string &temp, const RawImage &image) {
    const size_t sample = sample_size(image.type);
    std::string header = std::string("{'descr': '") + descr_of(image.type) +
                         "', 'fortran_order': False, 'shape': (" + std::to_string(image.height) + ", " +
                         std::to_string(image.width) +
                         (image.channels == 1 ? "" : ", " + std::to_string(image.channels)) + "), }";
    // NumPy aligns the data to 64 bytes: pad the header (after the 10-byte preamble) with spaces.
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    const uint8_t preamble[10] = {
        0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, uint8_t(header.size() & 0xff), uint8_t(header.size() >> 8)};

    OutputFile file(path, temp);
    file.write(preamble, sizeof preamble);
    file.write(header.data(), header.size());
    if (kLittleEndian || sample == 1) {
        file.write(image.bytes.data(), image.bytes.size());
    } else {
        std::vector<uint8_t> data = image.bytes;
        swap_bytes(data.data(), image.samples(), sample);
        file.write(data.data(), data.size());
    }
    file.close();
}

}  // namespace cascade::io
