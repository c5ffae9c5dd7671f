// The image IO layer: round trips of every format, sample type and channel count; hand-built files
// for the layouts our writers never produce (palette PNG, big-endian NPY/PFM, NPY 2.0); the float
// conversions; and the refusal of corrupt, truncated or unwritable files.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <tuple>

#include "cascade/error.h"
#include "file_bytes.h"
#include "io/image_io.h"
#include "test_support.h"

namespace cascade {
namespace {

namespace fs = std::filesystem;
using cascade::testing::be32;
using cascade::testing::npy_file;
using cascade::testing::png_chunk;
using cascade::testing::png_file;
using cascade::testing::read_bytes;
using cascade::testing::rng_for_test;
using cascade::testing::Tag;
using cascade::testing::temporary_folder;
using cascade::testing::tiff_file;
using cascade::testing::write_bytes;

size_t entries_in(const std::string &folder) {
    size_t n = 0;
    for ([[maybe_unused]] auto &entry : fs::directory_iterator(folder)) n++;
    return n;
}

// Succeeds when `f` throws a cascade::Error whose message is one non-empty line containing `part`.
template <typename F>
::testing::AssertionResult throws_error(F &&f, const std::string &part) {
    try {
        f();
    } catch (const Error &e) {
        const std::string message = e.what();
        if (message.empty()) return ::testing::AssertionFailure() << "empty message";
        if (message.find('\n') != std::string::npos)
            return ::testing::AssertionFailure() << "message has several lines: " << message;
        if (message.find(part) == std::string::npos)
            return ::testing::AssertionFailure() << "message '" << message << "' lacks '" << part << "'";
        return ::testing::AssertionSuccess() << message;
    }
    return ::testing::AssertionFailure() << "no cascade::Error thrown";
}

::testing::AssertionResult read_fails(const std::string &path, const std::string &part = "") {
    return throws_error([&] { read_image(path); }, part);
}

// Random bytes make every bit pattern a sample can hold, NaN payloads and subnormals included.
RawImage random_raw(std::mt19937_64 &rng, size_t height, size_t width, size_t channels, SampleType type) {
    RawImage image;
    image.height = height;
    image.width = width;
    image.channels = channels;
    image.type = type;
    image.bytes.resize(image.samples() * sample_size(type));
    for (uint8_t &b : image.bytes) b = uint8_t(rng());
    return image;
}

void expect_same(const RawImage &a, const RawImage &b) {
    EXPECT_EQ(a.height, b.height);
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.channels, b.channels);
    EXPECT_EQ(a.type, b.type);
    EXPECT_TRUE(a.bytes == b.bytes) << "samples differ";
}

// ---- Round trips ---------------------------------------------------------------------------------

struct RoundTrip {
    std::string extension;
    SampleType type;
    size_t channels, height, width;
};

std::vector<RoundTrip> round_trips() {
    const std::vector<std::pair<std::string, std::vector<SampleType>>> formats = {
        {".png", {SampleType::u8, SampleType::u16}},
        {".tif", {SampleType::u8, SampleType::u16, SampleType::f32, SampleType::f64}},
        {".pfm", {SampleType::f32}},
        {".npy", {SampleType::u8, SampleType::u16, SampleType::f32, SampleType::f64}},
    };
    const std::pair<size_t, size_t> sizes[] = {{1, 1}, {7, 3}, {13, 17}, {131, 257}};
    std::vector<RoundTrip> cases;
    for (const auto &[extension, types] : formats)
        for (SampleType type : types)
            for (size_t channels = 1; channels <= 4; channels++) {
                if (extension == ".pfm" && channels != 1 && channels != 3) continue;
                for (auto [height, width] : sizes)
                    cases.push_back({extension, type, channels, height, width});
            }
    return cases;
}

class RoundTripTest : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(RoundTripTest, IsBitExact) {
    const RoundTrip &p = GetParam();
    auto rng = rng_for_test();
    const RawImage image = random_raw(rng, p.height, p.width, p.channels, p.type);
    const std::string path = temporary_folder() + "/image" + p.extension;
    write_image(path, image);
    expect_same(read_image(path), image);
}

INSTANTIATE_TEST_SUITE_P(AllFormats, RoundTripTest, ::testing::ValuesIn(round_trips()),
                         [](const ::testing::TestParamInfo<RoundTrip> &info) {
                             const RoundTrip &p = info.param;
                             return p.extension.substr(1) + "_" + sample_name(p.type) + "_c" +
                                    std::to_string(p.channels) + "_" + std::to_string(p.height) + "x" +
                                    std::to_string(p.width);
                         });

TEST(ImageIO, ExtensionsAreCaseInsensitive) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    const std::tuple<std::string, size_t, SampleType> cases[] = {
        {"a.PNG", 2, SampleType::u16}, {"b.TIFF", 4, SampleType::f32}, {"c.tiff", 3, SampleType::u8},
        {"d.Tif", 1, SampleType::u16}, {"e.PFM", 3, SampleType::f32},  {"f.NpY", 2, SampleType::f64}};
    for (const auto &[name, channels, type] : cases) {
        const RawImage image = random_raw(rng, 5, 4, channels, type);
        write_image(folder + "/" + name, image);
        SCOPED_TRACE(name);
        expect_same(read_image(folder + "/" + name), image);
    }
}

TEST(ImageIO, NpyHoldsAnyChannelCount) {
    auto rng = rng_for_test();
    const RawImage image = random_raw(rng, 3, 5, 7, SampleType::f64);
    const std::string path = temporary_folder() + "/seven.npy";
    write_image(path, image);
    expect_same(read_image(path), image);
}

TEST(ImageIO, ReadsBundledAstronaut) {
    const RawImage image = read_image(cascade::testing::source_dir() + "/data/astronaut.png");
    EXPECT_EQ(image.height, 512u);
    EXPECT_EQ(image.width, 512u);
    EXPECT_EQ(image.channels, 3u);
    EXPECT_EQ(image.type, SampleType::u8);
    ASSERT_EQ(image.bytes.size(), 512u * 512 * 3);
    const auto [low, high] = std::minmax_element(image.bytes.begin(), image.bytes.end());
    EXPECT_LT(*low, 20);  // a photograph spans most of the range
    EXPECT_GT(*high, 235);

    const std::string folder = temporary_folder();
    write_image(folder + "/copy.png", image);
    write_image(folder + "/copy.tif", image);
    expect_same(read_image(folder + "/copy.png"), image);
    expect_same(read_image(folder + "/copy.tif"), image);
}

// ---- Hand-built PNG files ------------------------------------------------------------------------

std::vector<uint8_t> bytes_of(const RawImage &image) { return image.bytes; }

TEST(PngRead, SixteenBitIsBigEndianInTheFile) {
    const std::string path = temporary_folder() + "/g16.png";
    write_bytes(path, png_file(2, 1, 16, 0, std::string("\0\x12\x34\xab\xcd", 5)));
    const RawImage image = read_image(path);
    ASSERT_EQ(image.type, SampleType::u16);
    ASSERT_EQ(image.bytes.size(), 4u);
    uint16_t v[2];
    std::memcpy(v, image.bytes.data(), 4);
    EXPECT_EQ(v[0], 0x1234);
    EXPECT_EQ(v[1], 0xabcd);
}

TEST(PngRead, ExpandsOneBitGrayToEightBits) {
    const std::string path = temporary_folder() + "/g1.png";
    write_bytes(path, png_file(10, 1, 1, 0, std::string("\0\xb3\x40", 3)));  // 10110011 01
    const RawImage image = read_image(path);
    EXPECT_EQ(image.channels, 1u);
    EXPECT_EQ(image.type, SampleType::u8);
    EXPECT_EQ(bytes_of(image), (std::vector<uint8_t>{255, 0, 255, 255, 0, 0, 255, 255, 0, 255}));
}

TEST(PngRead, ExpandsPaletteAndTransparency) {
    const std::string palette = png_chunk("PLTE", "\x10\x20\x30\x40\x50\x60\x70\x80\x90");
    const std::string rows("\0\x24", 2);  // 2-bit indices 0, 2, 1
    const std::string folder = temporary_folder();
    write_bytes(folder + "/rgb.png", png_file(3, 1, 2, 3, rows, palette));
    write_bytes(folder + "/rgba.png",
                png_file(3, 1, 2, 3, rows, palette + png_chunk("tRNS", std::string("\0\x80", 2))));

    const RawImage rgb = read_image(folder + "/rgb.png");
    EXPECT_EQ(rgb.channels, 3u);
    EXPECT_EQ(bytes_of(rgb), (std::vector<uint8_t>{0x10, 0x20, 0x30, 0x70, 0x80, 0x90, 0x40, 0x50, 0x60}));
    const RawImage rgba = read_image(folder + "/rgba.png");
    EXPECT_EQ(rgba.channels, 4u);
    EXPECT_EQ(bytes_of(rgba),
              (std::vector<uint8_t>{0x10, 0x20, 0x30, 0x00, 0x70, 0x80, 0x90, 0xff, 0x40, 0x50, 0x60, 0x80}));
}

TEST(PngRead, DeinterlacesAdam7) {
    // A 2×2 image has pixels in passes 1 (0,0), 6 (1,0) and 7 (0,1), (1,1) only.
    const std::string path = temporary_folder() + "/adam7.png";
    write_bytes(path, png_file(2, 2, 8, 0, std::string("\0\x0a\0\x0b\0\x0c\x0d", 7), "", true));
    EXPECT_EQ(bytes_of(read_image(path)), (std::vector<uint8_t>{0x0a, 0x0b, 0x0c, 0x0d}));
}

TEST(PngRead, RefusesHeaderClaimingMoreThanTheFileHolds) {
    const std::string path = temporary_folder() + "/huge.png";
    write_bytes(path, png_file(1000000, 1000000, 16, 6, std::string("\0\0", 2)));
    EXPECT_TRUE(read_fails(path, "more than the file's"));
}

TEST(PngRead, RejectsBadChecksum) {
    std::string file = png_file(1, 1, 8, 0, std::string("\0\x7f", 2));
    file[29] ^= 1;  // inside IHDR's CRC
    const std::string path = temporary_folder() + "/crc.png";
    write_bytes(path, file);
    EXPECT_TRUE(read_fails(path, "cannot read '" + path + "'"));
}

// ---- Hand-built NPY and PFM files ----------------------------------------------------------------

std::string big_endian_floats(std::initializer_list<float> values) {
    std::string out;
    for (float v : values) {
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        out += be32(bits);
    }
    return out;
}

std::vector<float> floats_of(const RawImage &image) {
    std::vector<float> values(image.bytes.size() / 4);
    std::memcpy(values.data(), image.bytes.data(), image.bytes.size());
    return values;
}

TEST(NpyRead, ConvertsBigEndianSamples) {
    const std::string folder = temporary_folder();
    write_bytes(folder + "/f.npy", npy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }",
                                            big_endian_floats({1.5f, -2.0f, 3.25f, 1e10f})));
    const RawImage f = read_image(folder + "/f.npy");
    EXPECT_EQ(f.type, SampleType::f32);
    EXPECT_EQ(f.channels, 1u);
    EXPECT_EQ(floats_of(f), (std::vector<float>{1.5f, -2.0f, 3.25f, 1e10f}));

    write_bytes(folder + "/u.npy",
                npy_file("{'descr': '>u2', 'fortran_order': False, 'shape': (1, 1, 1)}", "\x12\x34"));
    const RawImage u = read_image(folder + "/u.npy");
    uint16_t v;
    std::memcpy(&v, u.bytes.data(), 2);
    EXPECT_EQ(u.type, SampleType::u16);
    EXPECT_EQ(v, 0x1234);
}

TEST(NpyRead, ReadsVersionTwoAndThreeHeaders) {
    const std::string folder = temporary_folder();
    for (int major : {2, 3}) {
        SCOPED_TRACE(major);
        const std::string path = folder + "/v" + std::to_string(major) + ".npy";
        write_bytes(path, npy_file("{\"descr\": \"<u1\", \"fortran_order\": False, \"shape\": (1, 3)}", "abc",
                                   major));
        const RawImage image = read_image(path);
        EXPECT_EQ(image.type, SampleType::u8);
        EXPECT_EQ(bytes_of(image), (std::vector<uint8_t>{'a', 'b', 'c'}));
    }
}

TEST(NpyWrite, HeaderIsVersionOneAlignedAndDescribesTheArray) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    write_image(folder + "/gray.npy", random_raw(rng, 7, 3, 1, SampleType::u16));
    write_image(folder + "/rgb.npy", random_raw(rng, 7, 3, 2, SampleType::u8));
    for (const auto &[name, expected] :
         {std::pair<std::string, std::string>{"gray.npy",
                                              "{'descr': '<u2', 'fortran_order': False, 'shape': (7, 3), }"},
          {"rgb.npy", "{'descr': '|u1', 'fortran_order': False, 'shape': (7, 3, 2), }"}}) {
        const std::string file = read_bytes(folder + "/" + name);
        ASSERT_GT(file.size(), 10u);
        EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
        const size_t length = uint8_t(file[8]) | uint8_t(file[9]) << 8;
        EXPECT_EQ((10 + length) % 64, 0u);
        const std::string header = file.substr(10, length);
        EXPECT_EQ(header.back(), '\n');
        EXPECT_EQ(header.substr(0, expected.size()), expected);
        EXPECT_EQ(header.find_first_not_of(' ', expected.size()), length - 1);
    }
}

TEST(PfmRead, ReadsBigEndianRowsBottomToTop) {
    const std::string path = temporary_folder() + "/be.pfm";
    write_bytes(path, "Pf\n2 2\n1.0\n" + big_endian_floats({1, 2, 3, 4}));
    const RawImage image = read_image(path);
    EXPECT_EQ(image.channels, 1u);
    EXPECT_EQ(floats_of(image), (std::vector<float>{3, 4, 1, 2}));
}

TEST(PfmWrite, WritesLittleEndianRowsBottomToTop) {
    RawImage image;
    image.height = 2;
    image.width = 1;
    image.channels = 3;
    image.type = SampleType::f32;
    const float values[] = {1, 2, 3, 4, 5, 6};
    image.bytes.assign(reinterpret_cast<const uint8_t *>(values),
                       reinterpret_cast<const uint8_t *>(values + 6));
    const std::string path = temporary_folder() + "/le.pfm";
    write_image(path, image);
    const std::string file = read_bytes(path);
    const std::string header = "PF\n1 2\n-1.0\n";
    ASSERT_EQ(file.size(), header.size() + 24);
    EXPECT_EQ(file.substr(0, header.size()), header);
    const unsigned char four_le[] = {0x00, 0x00, 0x80, 0x40};  // 4.0f
    EXPECT_EQ(std::memcmp(file.data() + header.size(), four_le, 4), 0);
}

// ---- Hand-built TIFF files -----------------------------------------------------------------------

// A 2×2 single-strip uncompressed gray image with `bits` bits per sample and the tags given
// replacing the defaults.
std::string gray_tiff(int bits, int format, const std::vector<Tag> &overrides, uint32_t bytes = 4) {
    std::vector<Tag> tags = {{256, 4, {2}},
                             {257, 4, {2}},
                             {258, 3, {uint32_t(bits)}},
                             {259, 3, {1}},
                             {262, 3, {1}},
                             {273, 4, {8}},
                             {277, 3, {1}},
                             {278, 4, {2}},
                             {279, 4, {bytes}},
                             {339, 3, {uint32_t(format)}}};
    for (const Tag &o : overrides)
        for (Tag &t : tags)
            if (t.id == o.id) t = o;
    return tiff_file(tags, std::string(bytes, '\x11'));
}

TEST(TiffRead, InterleavesSeparatePlanes) {
    const std::string path = temporary_folder() + "/planes.tif";
    write_bytes(path, tiff_file({{256, 4, {2}},
                                 {257, 4, {2}},
                                 {258, 3, {8, 8}},
                                 {259, 3, {1}},
                                 {262, 3, {1}},
                                 {273, 4, {8, 12}},
                                 {277, 3, {2}},
                                 {278, 4, {2}},
                                 {279, 4, {4, 4}},
                                 {284, 3, {2}}},
                                "\x01\x02\x03\x04\x05\x06\x07\x08"));
    const RawImage image = read_image(path);
    EXPECT_EQ(image.channels, 2u);
    EXPECT_EQ(image.type, SampleType::u8);
    EXPECT_EQ(bytes_of(image), (std::vector<uint8_t>{1, 5, 2, 6, 3, 7, 4, 8}));
}

TEST(TiffRead, ReadsHandBuiltGrayAndRejectsOtherLayouts) {
    const std::string folder = temporary_folder();
    write_bytes(folder + "/plain.tif", gray_tiff(8, 1, {}));
    EXPECT_EQ(bytes_of(read_image(folder + "/plain.tif")), (std::vector<uint8_t>{0x11, 0x11, 0x11, 0x11}));

    const std::pair<std::string, std::string> cases[] = {
        {gray_tiff(12, 1, {}, 6), "unsupported TIFF: 12 bits per sample"},
        {gray_tiff(16, 2, {}, 8), "unsupported TIFF: 16-bit signed integer samples"},
        {gray_tiff(16, 3, {}, 8), "unsupported TIFF: 16-bit float samples"},
        {gray_tiff(8, 1, {{262, 3, {0}}}), "unsupported TIFF: photometric interpretation 0"},
        {gray_tiff(8, 1, {{258, 3, {8, 8, 8, 8, 8}}, {277, 3, {5}}}, 20), "5 samples per pixel"},
        {gray_tiff(8, 1, {{256, 4, {100000}}, {257, 4, {100000}}}), "more than the file's"},
        {gray_tiff(8, 1, {{256, 4, {0}}}), "cannot read"},  // libtiff itself refuses a zero width
    };
    int i = 0;
    for (const auto &[bytes, expected] : cases) {
        const std::string path = folder + "/case" + std::to_string(i++) + ".tif";
        write_bytes(path, bytes);
        EXPECT_TRUE(read_fails(path, expected)) << expected;
    }
}

// ---- Planar float conversion ---------------------------------------------------------------------

TEST(PlanarFloat, SampleSizesAndNames) {
    EXPECT_EQ(sample_size(SampleType::u8), 1u);
    EXPECT_EQ(sample_size(SampleType::u16), 2u);
    EXPECT_EQ(sample_size(SampleType::f32), 4u);
    EXPECT_EQ(sample_size(SampleType::f64), 8u);
    EXPECT_STREQ(sample_name(SampleType::u8), "uint8");
    EXPECT_STREQ(sample_name(SampleType::u16), "uint16");
    EXPECT_STREQ(sample_name(SampleType::f32), "float32");
    EXPECT_STREQ(sample_name(SampleType::f64), "float64");
}

TEST(PlanarFloat, InterleavedBecomesPlanar) {
    RawImage raw;
    raw.height = 2;
    raw.width = 3;
    raw.channels = 2;
    raw.type = SampleType::u8;
    for (int i = 0; i < 12; i++) raw.bytes.push_back(uint8_t(i * 20));
    const Image image = to_planar_float(raw);
    ASSERT_EQ(image.width, 3);
    ASSERT_EQ(image.height, 2);
    ASSERT_EQ(image.channels, 2);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 2; c++)
                EXPECT_EQ(image.at(x, y, c), float((y * 3 + x) * 2 + c) * 20 / 255.0f);
    EXPECT_EQ(bytes_of(from_planar_float(image, SampleType::u8)), raw.bytes);
}

TEST(PlanarFloat, EveryIntegerLevelSurvives) {
    for (SampleType type : {SampleType::u8, SampleType::u16}) {
        const size_t levels = type == SampleType::u8 ? 256 : 65536;
        RawImage raw;
        raw.height = 1;
        raw.width = levels;
        raw.channels = 1;
        raw.type = type;
        raw.bytes.resize(levels * sample_size(type));
        for (size_t i = 0; i < levels; i++) {
            const uint16_t v16 = uint16_t(i);
            const uint8_t v8 = uint8_t(i);
            std::memcpy(&raw.bytes[i * sample_size(type)], type == SampleType::u8 ? (const void *)&v8 : &v16,
                        sample_size(type));
        }
        const Image image = to_planar_float(raw);
        EXPECT_EQ(image.at(0, 0, 0), 0.0f);
        EXPECT_EQ(image.at(int(levels) - 1, 0, 0), 1.0f);
        EXPECT_EQ(image.at(1, 0, 0), 1.0f / float(levels - 1));
        EXPECT_TRUE(from_planar_float(image, type).bytes == raw.bytes) << sample_name(type);
    }
}

Image single_row(std::initializer_list<float> values) {
    Image image(int(values.size()), 1, 1);
    std::copy(values.begin(), values.end(), image.data.begin());
    return image;
}

TEST(PlanarFloat, IntegersClampRoundAndZeroNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const Image image = single_row({-0.5f, 1.5f, nan, inf, -inf, 0.5f, 100.4f / 255, 100.6f / 255, 1.0f});
    EXPECT_EQ(bytes_of(from_planar_float(image, SampleType::u8)),
              (std::vector<uint8_t>{0, 255, 0, 255, 0, 128, 100, 101, 255}));

    const RawImage u16 =
        from_planar_float(single_row({-1, 2, nan, 0.5f, 1000.4f / 65535, 1000.6f / 65535}), SampleType::u16);
    std::vector<uint16_t> values(6);
    std::memcpy(values.data(), u16.bytes.data(), 12);
    EXPECT_EQ(values, (std::vector<uint16_t>{0, 65535, 0, 32768, 1000, 1001}));

    // uint64's largest value is no double: 1 and above still give it, not a wrapped 2^64.
    const RawImage u64 = from_planar_float(single_row({1.0f, 7.0f, inf, 0.25f, -2.0f}), SampleType::u64);
    std::vector<uint64_t> wide(5);
    std::memcpy(wide.data(), u64.bytes.data(), 40);
    const uint64_t top = std::numeric_limits<uint64_t>::max();
    EXPECT_EQ(wide, (std::vector<uint64_t>{top, top, top, uint64_t(1) << 62, 0}));
}

TEST(PlanarFloat, FloatsPassThrough) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Image image = single_row({-3.5f, 1e30f, 0.1f, nan});
    const std::vector<float> back = floats_of(from_planar_float(image, SampleType::f32));
    EXPECT_EQ(back[0], -3.5f);
    EXPECT_EQ(back[1], 1e30f);
    EXPECT_EQ(back[2], 0.1f);
    EXPECT_TRUE(std::isnan(back[3]));

    const RawImage f64 = from_planar_float(image, SampleType::f64);
    double d[4];
    ASSERT_EQ(f64.bytes.size(), sizeof d);
    std::memcpy(d, f64.bytes.data(), sizeof d);
    EXPECT_EQ(d[1], double(1e30f));
    EXPECT_EQ(d[2], double(0.1f));
    EXPECT_TRUE(std::isnan(d[3]));

    d[2] = 0.1;  // a double that float must round
    RawImage doubles = f64;
    std::memcpy(doubles.bytes.data(), d, sizeof d);
    const Image from_doubles = to_planar_float(doubles);
    EXPECT_EQ(from_doubles.at(0, 0, 0), -3.5f);
    EXPECT_EQ(from_doubles.at(2, 0, 0), 0.1f);
}

TEST(PlanarFloat, RejectsNegativeDimensions) {
    EXPECT_TRUE(throws_error([] { Image(-1, 2, 3); }, "negative"));
}

// ---- Corrupt and unreadable files ----------------------------------------------------------------

TEST(CorruptFiles, RandomBytesAreRejected) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    // Random bytes, then random bytes behind each format's own signature.
    const std::pair<std::string, std::string> formats[] = {{".png", "\x89PNG\r\n\x1a\n"},
                                                           {".tif", std::string("II*\0", 4)},
                                                           {".tiff", "MM"},
                                                           {".npy", std::string("\x93NUMPY\x01\x00", 8)},
                                                           {".pfm", "PF\n"}};
    for (const auto &[extension, signature] : formats)
        for (size_t length : {0, 1, 8, 100, 5000})
            for (const std::string &prefix : {std::string(), signature}) {
                std::string bytes = prefix;
                for (size_t i = 0; i < length; i++) bytes += char(rng());
                const std::string path = folder + "/random" + std::to_string(length) + extension;
                write_bytes(path, bytes);
                EXPECT_TRUE(read_fails(path, "cannot read '" + path + "'")) << extension << " " << length;
            }
}

TEST(CorruptFiles, TruncatedFilesAreRejected) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    const std::pair<std::string, SampleType> formats[] = {{".png", SampleType::u8},
                                                          {".tif", SampleType::u16},
                                                          {".pfm", SampleType::f32},
                                                          {".npy", SampleType::f32}};
    for (const auto &[extension, type] : formats) {
        const std::string path = folder + "/whole" + extension;
        write_image(path, random_raw(rng, 13, 17, 3, type));
        const std::string whole = read_bytes(path);
        for (size_t length :
             {size_t(0), size_t(1), size_t(7), size_t(8), size_t(20), whole.size() / 2, whole.size() - 1}) {
            const std::string cut = folder + "/cut" + std::to_string(length) + extension;
            write_bytes(cut, whole.substr(0, length));
            EXPECT_TRUE(read_fails(cut, "cannot read '" + cut + "'")) << extension << " cut at " << length;
        }
    }
}

TEST(CorruptFiles, NpyTruncatedDataSaysHowMuch) {
    const std::string path = temporary_folder() + "/a.npy";
    write_bytes(path, npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (10, 30), }",
                               std::string(100, 'x')));
    EXPECT_TRUE(
        read_fails(path, "cannot read '" + path + "': truncated data (expected 1200 bytes, found 100)"));
}

TEST(CorruptFiles, NpyHeadersThatAreNotImages) {
    const std::string folder = temporary_folder();
    const std::pair<std::string, std::string> cases[] = {
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", "Fortran"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 4), }",
         "expected an H×W or H×W×C array, got shape (1, 1, 1, 4)"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", "got shape (4,)"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", "unsupported dtype '<i4'"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 2), }", "unsupported dtype"},
        {"{'descr': '<f4', 'shape': (2, 2), }", "lacks 'fortran_order'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4), }", "empty image"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (100000000, 100000000, 3), }", "truncated data"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
         "too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }",
         "absurdly large"},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 2), }", "malformed NPY header"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)", "malformed NPY header"},
    };
    int i = 0;
    for (const auto &[dict, expected] : cases) {
        const std::string path = folder + "/case" + std::to_string(i++) + ".npy";
        write_bytes(path, npy_file(dict, std::string(16, '\0')));
        EXPECT_TRUE(read_fails(path, expected)) << dict;
    }
}

TEST(CorruptFiles, PfmHeadersThatAreNotImages) {
    const std::string folder = temporary_folder();
    const std::pair<std::string, std::string> cases[] = {
        {"PF\n100000000 100000000\n-1.0\n", "truncated data"},
        {"PF\n99999999999999999 99999999999999999\n-1.0\n", "bad PFM dimension"},
        {"Pf\n0 3\n-1.0\n", "empty image"},
        {"Pf\n1 1\nabc\n", "bad PFM scale"},
        {"Pf\n1 1\n0\n", "bad PFM scale"},
        {"Pf\n-1 1\n-1\n", "bad PFM dimension"},
        {"P6\n1 1\n255\n", "not a PFM file"},
        {"Pf\n2 2\n-1.0\n" + std::string(20, '\0'),
         "unexpected bytes after the data (expected 16 bytes, found 20)"},
    };
    int i = 0;
    for (const auto &[bytes, expected] : cases) {
        const std::string path = folder + "/case" + std::to_string(i++) + ".pfm";
        write_bytes(path, bytes + (expected == "truncated data" ? std::string(64, '\0') : ""));
        EXPECT_TRUE(read_fails(path, expected)) << bytes;
    }
}

TEST(CorruptFiles, UnknownExtensionsAndMissingFiles) {
    const std::string folder = temporary_folder();
    write_bytes(folder + "/x.bmp", "BM");
    EXPECT_TRUE(read_fails(folder + "/x.bmp",
                           "unknown image extension '.bmp' (supported: .png .tif .tiff .pfm .npy)"));
    EXPECT_TRUE(read_fails(folder + "/noextension", "no image extension"));
    EXPECT_TRUE(read_fails(folder + "/dotted.dir/noextension", "no image extension"));
    for (const char *name : {"missing.png", "missing.tif", "missing.pfm", "missing.npy"}) {
        const std::string path = folder + "/" + name;
        EXPECT_TRUE(read_fails(path, "cannot open '" + path + "': No such file or directory"));
    }
    fs::create_directory(folder + "/folder.png");
    EXPECT_TRUE(
        read_fails(folder + "/folder.png", "cannot open '" + folder + "/folder.png': Is a directory"));
}

// ---- Writing -------------------------------------------------------------------------------------

TEST(WriteImage, MissingFolderLeavesNothing) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    const std::string path = folder + "/missing/out.png";
    EXPECT_TRUE(throws_error([&] { write_image(path, random_raw(rng, 2, 2, 1, SampleType::u8)); },
                             "cannot write '" + path + "': No such file or directory"));
    EXPECT_FALSE(fs::exists(folder + "/missing"));
    EXPECT_EQ(entries_in(folder), 0u);
}

TEST(WriteImage, UnwritableImagesLeaveNoFile) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    RawImage empty;
    empty.type = SampleType::u8;
    RawImage short_bytes = random_raw(rng, 2, 2, 1, SampleType::u8);
    short_bytes.bytes.pop_back();
    const std::tuple<std::string, RawImage, std::string> cases[] = {
        {"float.png", random_raw(rng, 2, 2, 3, SampleType::f32),
         "PNG holds only 8/16-bit samples with 1-4 channels"},
        {"five.png", random_raw(rng, 2, 2, 5, SampleType::u8), "PNG holds only"},
        {"five.tif", random_raw(rng, 2, 2, 5, SampleType::f32), "TIFF holds 1-4 channels"},
        {"bytes.pfm", random_raw(rng, 2, 2, 3, SampleType::u8), "PFM holds only float32"},
        {"two.pfm", random_raw(rng, 2, 2, 2, SampleType::f32), "PFM holds only float32"},
        {"empty.npy", empty, "empty image"},
        {"short.npy", short_bytes, "expected 4"},
        {"image.bmp", random_raw(rng, 2, 2, 1, SampleType::u8), "unknown image extension '.bmp'"},
    };
    for (const auto &c : cases) {
        // C++17 lambdas cannot capture structured bindings (clang refuses): name the fields.
        const std::string &name = std::get<0>(c), &expected = std::get<2>(c);
        const RawImage &image = std::get<1>(c);
        EXPECT_TRUE(throws_error([&] { write_image(folder + "/" + name, image); }, expected)) << name;
        EXPECT_EQ(entries_in(folder), 0u) << name;
    }
}

TEST(WriteImage, FailedWriteKeepsExistingFile) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    const std::string path = folder + "/keep.png";
    write_image(path, random_raw(rng, 4, 4, 3, SampleType::u8));
    const std::string before = read_bytes(path);
    EXPECT_TRUE(throws_error([&] { write_image(path, random_raw(rng, 4, 4, 3, SampleType::f32)); }, "PNG"));
    EXPECT_EQ(read_bytes(path), before);
    EXPECT_EQ(entries_in(folder), 1u);
}

TEST(WriteImage, OverwritesWholeWithUsualPermissions) {
    auto rng = rng_for_test();
    const std::string folder = temporary_folder();
    const std::string path = folder + "/over.npy";
    write_image(path, random_raw(rng, 9, 9, 3, SampleType::f64));
    const RawImage second = random_raw(rng, 2, 3, 1, SampleType::u8);
    write_image(path, second);
    expect_same(read_image(path), second);
    EXPECT_EQ(entries_in(folder), 1u);
    const mode_t mask = umask(0);
    umask(mask);
    struct stat info;
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
}

TEST(ImageIO, SupportedPathsAndDefaultTypes) {
    EXPECT_TRUE(is_supported_image_path("a.png"));
    EXPECT_TRUE(is_supported_image_path("dir/a.TIFF"));
    EXPECT_TRUE(is_supported_image_path("a.tif"));
    EXPECT_TRUE(is_supported_image_path("a.Pfm"));
    EXPECT_TRUE(is_supported_image_path("a.b.npy"));
    EXPECT_FALSE(is_supported_image_path("a.bmp"));
    EXPECT_FALSE(is_supported_image_path("png"));
    EXPECT_FALSE(is_supported_image_path("a.png/b"));
    EXPECT_FALSE(is_supported_image_path(""));
    EXPECT_EQ(default_output_type("out.PNG"), SampleType::u8);
    EXPECT_EQ(default_output_type("out.tif"), SampleType::f32);
    EXPECT_EQ(default_output_type("out.pfm"), SampleType::f32);
    EXPECT_EQ(default_output_type("out.npy"), SampleType::f32);
}

// ---- Headers that lie, found by fuzzing (fuzz/) ---------------------------------------------------

// The peak resident memory of this process so far, in MiB.
long peak_mib() {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

TEST(TiffRead, LyingHeaderOfUnknownCodecFailsBeforeAllocating) {
    // JPEG, ZSTD and LZMA have no expansion bound to check the header against: the image must
    // grow as rows decode, not be allocated (3.4 GiB here) from the header's word.
    const std::string folder = temporary_folder();
    for (uint32_t compression : {7u, 50000u, 34925u}) {
        const std::string path = folder + "/tall" + std::to_string(compression) + ".tif";
        write_bytes(path, gray_tiff(8, 1, {{256, 4, {60000}}, {257, 4, {60000}}, {259, 3, {compression}}}));
        const long before = peak_mib();
        EXPECT_TRUE(read_fails(path, "cannot read '" + path + "'")) << compression;
        EXPECT_LT(peak_mib() - before, 256) << compression;
    }
}

TEST(TiffRead, UnknownCodecRowWiderThanTheFileCanHoldIsRefused) {
    const std::string path = temporary_folder() + "/wide.tif";
    write_bytes(path, gray_tiff(16, 1, {{256, 4, {1500000000}}, {257, 4, {1}}, {259, 3, {50000}}}));
    EXPECT_TRUE(read_fails(path, "header claims rows of 3000000000 bytes, more than the file's"));
}

TEST(TiffRead, ImageLargerThanMemoryIsRefusedUpFront) {
    // Rows a small file can hold, but two billion of them: refused with the sizes, before any
    // allocation, not left to fail (or to succeed and be killed while filling).
    const std::string path = temporary_folder() + "/endless.tif";
    write_bytes(
        path,
        gray_tiff(8, 1,
                  {{256, 4, {1000000}}, {257, 4, {2000000000}}, {278, 4, {2000000000}}, {259, 3, {50000}}}));
    EXPECT_TRUE(read_fails(path, "MiB of memory"));
}

TEST(PngRead, TextChunkClaimingGigabytesIsSkippedUnread) {
    // A text chunk whose length says 1.9 GB, then the end of the file: libpng allocates that
    // length before reading (2 GB resident under AddressSanitizer) unless it is skipped unread.
    const std::string full = png_file(2, 1, 8, 0, std::string("\0\x01\x02", 3));
    const std::string path = temporary_folder() + "/text.png";
    write_bytes(path, full.substr(0, 33) + be32(0x74470789) + "tEXtComment");
    const long before = peak_mib();
    EXPECT_TRUE(read_fails(path, "truncated file"));
    EXPECT_LT(peak_mib() - before, 256);

    // A whole text chunk is skipped too, and the image read.
    write_bytes(path, png_file(2, 1, 8, 0, std::string("\0\x01\x02", 3), png_chunk("tEXt", "Comment\0hi")));
    EXPECT_EQ(bytes_of(read_image(path)), (std::vector<uint8_t>{1, 2}));
}

TEST(TiffRead, DamagedJpegStripCannotDecodeToGigabytes) {
    // Found by fuzz_tiff: 60000×60000, JPEG, a 45-byte strip. libjpeg fills the rows the stream
    // lacks, so each row decoded and the image grew to 2 GB before any error.
    const std::string path =
        cascade::testing::source_dir() + "/fuzz/corpus/tiff/regress_jpeg_decodes_to_gigabytes";
    std::string copy = temporary_folder() + "/jpeg.tif";
    std::filesystem::copy_file(path, copy);
    const long before = peak_mib();
    EXPECT_TRUE(read_fails(copy, "decodes to more than 65536 times the file's 484 bytes"));
    EXPECT_LT(peak_mib() - before, 256);
}

}  // namespace
}  // namespace cascade
