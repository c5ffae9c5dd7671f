// The bad-input catalogue, one test per line, run through the real `cascade` binary: every
// bad input ends in one line on stderr ("cascade: error: ..." or "cascade: usage error: ..."
// naming the problem), a non-zero exit status, and a folder exactly as it was before the run: no
// output, no temporary file, the input and an existing output byte for byte the same.
// The bad files are built here, from valid ones written by the IO layer or by hand.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "cascade/cascade.h"
#include "cuda_support.h"
#include "file_bytes.h"
#include "io/image_io.h"
#include "test_support.h"

extern char **environ;

namespace cascade {
namespace {

namespace fs = std::filesystem;
using testing::be32;
using testing::kPngSignature;
using testing::le;
using testing::npy_file;
using testing::png_chunk;
using testing::png_file;
using testing::png_ihdr;
using testing::read_bytes;
using testing::Tag;
using testing::tiff_file;
using testing::write_bytes;

// ---- Running the command line ----------------------------------------------------------------

std::vector<std::string> words(const std::string &text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::string shown(const std::vector<std::string> &args) {
    std::string s = "cascade";
    for (const std::string &a : args) s += " " + a;
    return s;
}

// How a child runs, beyond its arguments.
struct Limits {
    std::vector<std::string> env;  // NAME=value, added to the environment
    size_t address_space = 0;      // RLIMIT_AS in bytes; 0 leaves it
    bool as_nobody = false;        // run as uid/gid 65534 (root ignores file permissions)
};

struct Child {
    pid_t pid;
    std::string out, err;
};

struct Outcome {
    int status;  // the exit status; -1 when killed by a signal
    std::string out, err;
};

// Starts `cascade args...` with stdout and stderr in files of a folder of its own. Everything the
// child needs is prepared before fork: the test process may hold Halide's worker threads, so the
// child calls nothing that could take a lock before exec.
Child spawn(const std::vector<std::string> &args, const Limits &limits = {}) {
    static const std::string logs = testing::temporary_folder();
    static int count = 0;
    const std::string stem = logs + "/" + std::to_string(count++);
    Child child{0, stem + ".out", stem + ".err"};
    const std::string cli = testing::cli_path();
    std::vector<char *> argv{const_cast<char *>(cli.c_str())};
    for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char *> envp;
    // An added variable replaces the inherited one: getenv would find the first of two.
    const auto overridden = [&](const char *entry) {
        for (const std::string &e : limits.env)
            if (std::strncmp(entry, e.c_str(), e.find('=') + 1) == 0) return true;
        return false;
    };
    for (char **e = environ; *e; e++)
        if (!overridden(*e)) envp.push_back(*e);
    for (const std::string &e : limits.env) envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    const int out = open(child.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(child.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    child.pid = fork();
    if (child.pid == 0) {
        dup2(out, 1);
        dup2(err, 2);
        if (limits.address_space) {
            const rlimit limit{limits.address_space, limits.address_space};
            if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(125);
        }
        if (limits.as_nobody && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(126);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    close(out);
    close(err);
    return child;
}

Outcome finish(const Child &child) {
    int raw = 0;
    waitpid(child.pid, &raw, 0);
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_bytes(child.out), read_bytes(child.err)};
}

Outcome run_cli(const std::vector<std::string> &args, const Limits &limits = {}) {
    return finish(spawn(args, limits));
}

// ---- Folders ---------------------------------------------------------------------------------

// Every entry under a folder: files by their bytes, folders by their permission bits.
using Snapshot = std::map<std::string, std::string>;

Snapshot snapshot(const std::string &dir) {
    Snapshot s;
    for (const auto &entry : fs::recursive_directory_iterator(dir)) {
        const std::string name = fs::relative(entry.path(), dir).string();
        s[name] = entry.is_directory() ? "<folder " + std::to_string(int(entry.status().permissions())) + ">"
                                       : read_bytes(entry.path().string());
    }
    return s;
}

// What differs between two snapshots, by name: the half-written or leftover files a run made.
std::string difference(const Snapshot &before, const Snapshot &after) {
    std::string d;
    for (const auto &[name, bytes] : after) {
        auto it = before.find(name);
        if (it == before.end())
            d += " created '" + name + "' (" + std::to_string(bytes.size()) + " bytes);";
        else if (it->second != bytes)
            d += " changed '" + name + "';";
    }
    for (const auto &[name, bytes] : before)
        if (!after.count(name)) d += " removed '" + name + "';";
    return d;
}

// ---- Hand-built files (the byte-level builders are file_bytes.h's) -----------------------------

std::string npy_of(const std::string &descr, const std::string &shape, const std::string &data) {
    return npy_file("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }", data);
}

// A width×height single-strip TIFF of `samples` samples per pixel holding `data` (4 bytes of 0x11 by
// default, whatever the header claims), with `overrides` replacing the default tags.
std::string tiff_of(uint32_t width, uint32_t height, int bits, int format, int samples = 1,
                    const std::vector<Tag> &overrides = {}, std::string data = std::string(4, '\x11')) {
    std::vector<Tag> tags = {{256, 4, {width}},
                             {257, 4, {height}},
                             {258, 3, std::vector<uint32_t>(samples, uint32_t(bits))},
                             {259, 3, {1}},
                             {262, 3, {samples >= 3 ? 2u : 1u}},
                             {273, 4, {8}},
                             {277, 3, {uint32_t(samples)}},
                             {278, 4, {height}},
                             {279, 4, {uint32_t(data.size())}},
                             {339, 3, std::vector<uint32_t>(samples, uint32_t(format))}};
    for (const Tag &o : overrides) {
        auto it = std::find_if(tags.begin(), tags.end(), [&](const Tag &t) { return t.id == o.id; });
        if (it != tags.end())
            *it = o;
        else
            tags.insert(std::find_if(tags.begin(), tags.end(), [&](const Tag &t) { return t.id > o.id; }), o);
    }
    return tiff_file(tags, data);
}

// True when `tiff` (classic, little-endian, as libtiff writes it here) ends with the 4-byte offset of
// a next directory, so that a cut within those bytes loses no pixel and no tag.
bool cuts_only_the_last_tiff_link(const std::string &tiff) {
    if (tiff.size() < 8 || tiff.compare(0, 4, std::string("II*\0", 4)) != 0) return false;
    const auto at = [&](size_t offset, int bytes) {
        uint64_t v = 0;
        for (int i = bytes; i-- > 0;) v = v << 8 | uint8_t(tiff[offset + i]);
        return v;
    };
    const uint64_t ifd = at(4, 4);
    return ifd + 2 <= tiff.size() && ifd + 2 + 12 * at(ifd, 2) + 4 == tiff.size();
}

// ---- The fixture ---------------------------------------------------------------------------------

// Each command, with the options it needs, on the CPU: a bad input goes through all of them in
// turn, since they read and check their inputs along different paths (common.cpp, box, sat).
const char *const kCommands[] = {"iir --feedback -0.5", "gaussian --sigma 2", "bspline", "sat",
                                 "box --radius 1"};
constexpr int kCommandCount = 5;

std::vector<std::string> command(int n, const std::string &in, const std::string &out) {
    return words(kCommands[n % kCommandCount]) + std::vector<std::string>{in, out, "--device", "cpu"};
}

RawImage raw_of(const Image &image, SampleType type) { return from_planar_float(image, type); }

class BadInput : public ::testing::Test {
protected:
    std::string dir = testing::temporary_folder();
    std::mt19937_64 rng = testing::rng_for_test();
    int turn = 0;  // bad inputs so far, to rotate through kCommands

    std::string path(const std::string &name) const { return dir + "/" + name; }
    std::string put(const std::string &name, const std::string &bytes) const {
        write_bytes(path(name), bytes);
        return path(name);
    }
    std::string put(const std::string &name, const RawImage &image) const {
        write_image(path(name), image);
        return path(name);
    }
    RawImage random_raw(int width, int height, int channels, SampleType type) {
        return raw_of(testing::random_image(rng, width, height, channels), type);
    }

    // Whether a small image goes through the command line within `limits`.
    bool runs_within(const Limits &limits) {
        const std::string in = put("probe.npy", random_raw(64, 64, 3, SampleType::f32));
        const bool ran = run_cli(command(0, in, path("probe-out.npy")), limits).status == 0;
        fs::remove(in);
        fs::remove(path("probe-out.npy"));
        return ran;
    }

    // Runs `args` and expects it to fail with `status`, one line naming every needle, and this
    // folder exactly as it was.
    Outcome expect_refused(const std::vector<std::string> &args, const std::vector<std::string> &needles,
                           int status = 1, const Limits &limits = {}) {
        const Snapshot before = snapshot(dir);
        const Outcome r = run_cli(args, limits);
        const std::string prefix = status == 2 ? "cascade: usage error: " : "cascade: error: ";
        std::string wrong;
        if (r.status != status) wrong += " exit status " + std::to_string(r.status) + ";";
        if (r.err.rfind(prefix, 0) != 0 || std::count(r.err.begin(), r.err.end(), '\n') != 1 ||
            r.err.back() != '\n')
            wrong += " not one line starting '" + prefix + "';";
        // Needles other than paths are looked for outside the paths, which name the cases.
        std::string text = r.err;
        for (size_t at; (at = text.find(dir + "/")) != std::string::npos;)
            text.erase(at, std::min(text.find('\'', at), text.size()) - at);
        for (const std::string &needle : needles)
            if ((needle.find(dir) == std::string::npos ? text : r.err).find(needle) == std::string::npos)
                wrong += " no '" + needle + "';";
        wrong += difference(before, snapshot(dir));
        if (!wrong.empty()) ADD_FAILURE() << shown(args) << "\n ->" << wrong << "\n stderr: " << r.err;
        return r;
    }

    // A bad input file through the next command in turn: once with no output file, once with an
    // output that already exists (left byte for byte as it was).
    void expect_unreadable(const std::string &input, const std::vector<std::string> &needles) {
        const std::string out = path("out.npy");
        fs::remove(out);
        expect_refused(command(turn, input, out), needles);
        write_bytes(out, "an earlier result");
        expect_refused(command(turn++, input, out), needles);
        fs::remove(out);
    }
};

// ---- Truncated and corrupt files -------------------------------------------------------------

// Valid files of every format and layout the readers take, cut short at the signature, inside
// the header, inside the data and one byte before the end.
TEST_F(BadInput, TruncatedFilesOfEveryFormat) {
    const std::pair<std::string, RawImage> files[] = {{"rgb8.png", random_raw(37, 23, 3, SampleType::u8)},
                                                      {"gray16.png", random_raw(37, 23, 1, SampleType::u16)},
                                                      {"rgba8.tif", random_raw(37, 23, 4, SampleType::u8)},
                                                      {"float.tif", random_raw(37, 23, 1, SampleType::f32)},
                                                      {"rgb.pfm", random_raw(37, 23, 3, SampleType::f32)},
                                                      {"gray.pfm", random_raw(37, 23, 1, SampleType::f32)},
                                                      {"f32.npy", random_raw(37, 23, 2, SampleType::f32)},
                                                      {"u16.npy", random_raw(37, 23, 1, SampleType::u16)},
                                                      {"f64.npy", random_raw(37, 23, 3, SampleType::f64)}};
    for (const auto &[name, image] : files) {
        const std::string whole = read_bytes(put("whole-" + name, image));
        for (size_t length : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(12), size_t(30),
                              whole.size() / 2, whole.size() - 1}) {
            const std::string cut = put("cut" + std::to_string(length) + "-" + name, whole.substr(0, length));
            if (length + 4 >= whole.size() && cuts_only_the_last_tiff_link(whole)) {
                // The pixels and every tag are whole: libtiff reads them, as it should.
                try {
                    EXPECT_EQ(read_image(cut).bytes, read_image(path("whole-" + name)).bytes) << cut;
                } catch (const Error &) {
                }
            } else {
                expect_unreadable(cut, {"cannot read '" + cut + "'"});
            }
            fs::remove(cut);
        }
    }
}

// Headers and data damaged in the ways each format can tell: signatures, checksums, compressed
// streams, offsets past the end, fields that are not numbers, bytes after the data.
TEST_F(BadInput, CorruptFilesOfEveryFormat) {
    const std::string png = read_bytes(put("valid.png", random_raw(8, 4, 1, SampleType::u8)));
    std::string bad_signature = png, bad_crc = png;
    bad_signature[1] = 'Q';
    bad_crc[29] ^= 0x20;  // inside IHDR's CRC
    const std::string rows(4 * 9, '\0');
    const std::string npy_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    const std::string floats(16, '\0');
    const struct {
        std::string name, bytes, needle;
    } cases[] = {
        {"signature.png", bad_signature, "not a PNG file"},
        {"crc.png", bad_crc, "CRC"},
        {"zlib.png",
         kPngSignature + png_ihdr(8, 4) + png_chunk("IDAT", "\x78\x01garbage, not deflate") +
             png_chunk("IEND", ""),
         "cannot read"},
        {"no-idat.png", kPngSignature + png_ihdr(8, 4) + png_chunk("IEND", ""), "cannot read"},
        {"short-idat.png", png_file(8, 4, 8, 0, rows.substr(0, 9)), "cannot read"},
        {"color-type.png", png_file(8, 4, 8, 5, rows), "cannot read"},
        {"chunk-length.png", kPngSignature + png_ihdr(8, 4) + be32(0xfffffff0u) + "IDAT", "cannot read"},
        {"magic.tif", "XX" + tiff_of(2, 2, 8, 1).substr(2), "cannot read"},
        {"directory.tif", std::string("II*\0", 4) + le(1u << 20, 4) + std::string(64, '\0'), "cannot read"},
        {"strip-offset.tif", tiff_of(2, 2, 8, 1, 1, {{273, 4, {1u << 20}}}), "cannot read"},
        {"deflate.tif", tiff_of(2, 2, 8, 1, 1, {{259, 3, {8}}}), "cannot read"},
        {"codec.tif", tiff_of(2, 2, 8, 1, 1, {{259, 3, {12345}}}), "cannot read"},
        {"palette.tif", tiff_of(2, 2, 8, 1, 1, {{262, 3, {3}}, {320, 3, std::vector<uint32_t>(768, 0)}}),
         "photometric interpretation 3"},
        {"tiles.tif", tiff_of(2, 2, 8, 1, 1, {{322, 4, {16}}, {323, 4, {16}}, {324, 4, {8}}, {325, 4, {4}}}),
         "cannot read"},
        {"magic.pfm", "PX\n2 2\n-1.0\n" + floats, "not a PFM file"},
        {"scale.pfm", "Pf\n2 2\nabc\n" + floats, "bad PFM scale 'abc'"},
        {"zero-scale.pfm", "Pf\n2 2\n0\n" + floats, "bad PFM scale '0'"},
        {"width.pfm", "Pf\n2a 2\n-1.0\n" + floats, "bad PFM dimension '2a'"},
        {"field.pfm", "Pf\n" + std::string(64, '7') + " 2\n-1.0\n" + floats, "malformed header"},
        {"extra.pfm", "Pf\n2 2\n-1.0\n" + floats + "more", "unexpected bytes after the data"},
        {"magic.npy", "\x93NUMPX" + npy_file(npy_dict, floats).substr(6), "not a NPY file"},
        {"version.npy", npy_file(npy_dict, floats).replace(6, 1, "\x09"), "unsupported NPY version 9"},
        {"dict.npy", npy_file("hello", floats), "malformed NPY header"},
        {"unclosed.npy", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)", floats),
         "malformed NPY header"},
        {"header-length.npy", std::string("\x93NUMPY\x01\x00\xff\xff{'descr'", 17), "truncated header"},
        {"key.npy", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1, }", floats),
         "unexpected key 'x'"},
        {"no-shape.npy", npy_file("{'descr': '<f4', 'fortran_order': False, }", floats), "lacks 'shape'"},
        {"fortran.npy", npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", floats),
         "Fortran-order"},
        {"extra.npy", npy_file(npy_dict, floats + "more"), "unexpected bytes after the data"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        expect_unreadable(file, {"cannot read '" + file + "'", c.needle});
    }
    // Random bytes, bare and behind each format's signature.
    for (const char *extension : {".png", ".tif", ".pfm", ".npy"})
        for (const std::string &signature : {std::string(), kPngSignature, std::string("II*\0", 4),
                                             std::string("PF\n"), std::string("\x93NUMPY\x01\x00", 8)}) {
            std::string bytes = signature;
            for (int i = 0; i < 300; i++) bytes += char(rng());
            const std::string file = put(std::string("random") + extension, bytes);
            expect_unreadable(file, {"cannot read '" + file + "'"});
        }
}

// ---- Dimensions ------------------------------------------------------------------------------

// A header that claims no rows, no columns or no channels: refused as empty, in every format.
TEST_F(BadInput, ZeroSizedDimensions) {
    const struct {
        std::string name, bytes, needle;
    } cases[] = {
        {"rows.npy", npy_of("<f4", "(0, 4)", ""), "empty image (0×4×1)"},
        {"columns.npy", npy_of("<f4", "(4, 0)", ""), "empty image (4×0×1)"},
        {"channels.npy", npy_of("<f4", "(4, 4, 0)", ""), "empty image (4×4×0)"},
        {"scalar.npy", npy_of("<f4", "()", std::string(4, '\0')), "got shape ()"},
        {"width.pfm", "Pf\n0 3\n-1.0\n", "empty image"},
        {"height.pfm", "PF\n3 0\n-1.0\n", "empty image"},
        {"width.png", png_file(0, 2, 8, 0, std::string(2, '\0')), "Invalid IHDR data"},
        {"height.png", png_file(2, 0, 8, 0, ""), "Invalid IHDR data"},
        {"width.tif", tiff_of(0, 2, 8, 1), "cannot read"},
        {"height.tif", tiff_of(2, 0, 8, 1), "cannot read"},
        {"samples.tif", tiff_of(2, 2, 8, 1, 1, {{277, 3, {0}}}), "cannot read"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        expect_unreadable(file, {"cannot read '" + file + "'", c.needle});
    }
    // The smallest image there is goes through every command.
    const std::string one = put("one.npy", random_raw(1, 1, 1, SampleType::f32));
    for (int n = 0; n < kCommandCount; n++) {
        const Outcome r = run_cli(command(n, one, path("one-out.npy")));
        EXPECT_EQ(r.status, 0) << kCommands[n] << ": " << r.err;
        EXPECT_EQ(read_image(path("one-out.npy")).samples(), 1u) << kCommands[n];
    }
}

// The formats store sizes unsigned: values that a signed 32-bit reading would take as negative
// (2^31 and up) are refused as what they are, and a minus sign in a text header is not a size.
TEST_F(BadInput, NegativeDimensions) {
    const struct {
        std::string name, bytes, needle;
    } cases[] = {
        {"width.png", png_file(0x80000000u, 2, 8, 0, std::string(4, '\0')), "out of range"},
        {"height.png", png_file(2, 0xfffffffdu, 8, 0, std::string(4, '\0')), "out of range"},
        {"width.tif", tiff_of(0x80000000u, 2, 8, 1), "2×2147483648×1 samples, more than the file's"},
        {"height.tif", tiff_of(2, 0xfffffffdu, 32, 3, 1, {{278, 4, {0xffffffffu}}}),
         "4294967293×2×1 samples, more than the file's"},
        {"minint.tif", tiff_of(2, 0x80000000u, 16, 1, 1, {{278, 4, {0xffffffffu}}}),
         "2147483648×2×1 samples"},
        {"minus.npy", npy_of("<f4", "(-3, 4)", std::string(48, '\0')), "malformed NPY header"},
        {"wrapped.npy", npy_of("<f4", "(4294967293, 4)", std::string(48, '\0')), "truncated data"},
        {"minus.pfm", "Pf\n-3 4\n-1.0\n" + std::string(48, '\0'), "bad PFM dimension '-3'"},
        {"wrapped.pfm", "Pf\n4294967293 4\n-1.0\n" + std::string(48, '\0'), "truncated data"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        expect_unreadable(file, {"cannot read '" + file + "'", c.needle});
    }
    // The library's own images and plans refuse negative sizes too.
    EXPECT_THROW(Image(-3, 4, 1), Error);
    const RecursiveFilter f{0.5, {-0.5}};
    EXPECT_THROW(IirPlan({f, f}, -3, 4, {Boundary::none, DeviceChoice::cpu}), Error);
    EXPECT_THROW(IirPlan({f, f}, 4, -3, {Boundary::none, DeviceChoice::cpu, Form::automatic, Algorithm::rt}),
                 Error);
}

// ---- Channels and sample types -------------------------------------------------------------

// Files with more channels than their format holds, shapes that are not images, and outputs whose
// format cannot hold the input's channels.
TEST_F(BadInput, WrongChannelCounts) {
    const struct {
        std::string name, bytes, needle;
    } cases[] = {
        {"five.tif", tiff_of(2, 2, 8, 1, 5, {{338, 3, {0, 0}}}, std::string(20, '\x11')),
         "5 samples per pixel"},
        {"nine.tif", tiff_of(1, 1, 8, 1, 9, {{338, 3, std::vector<uint32_t>(6, 0)}}, std::string(9, '\x11')),
         "9 samples per pixel"},
        {"4d.npy", npy_of("<f4", "(2, 2, 1, 1)", std::string(16, '\0')), "got shape (2, 2, 1, 1)"},
        {"1d.npy", npy_of("<f4", "(4,)", std::string(16, '\0')), "got shape (4,)"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        expect_unreadable(file, {"cannot read '" + file + "'", c.needle});
    }
    // NPY holds any channel count and so does the filtering: five channels go through, but not into
    // a format that cannot hold them.
    const std::string five = put("five.npy", random_raw(9, 7, 5, SampleType::f32));
    const std::string two = put("two.npy", random_raw(9, 7, 2, SampleType::f32));
    for (int n = 0; n < kCommandCount; n++) {
        const Outcome r = run_cli(command(n, five, path("five-out.npy")));
        EXPECT_EQ(r.status, 0) << kCommands[n] << ": " << r.err;
        EXPECT_EQ(read_image(path("five-out.npy")).channels, 5u) << kCommands[n];
        fs::remove(path("five-out.npy"));
        expect_refused(command(n, five, path("five-out.tif")),
                       {"cannot write '" + path("five-out.tif") + "'", "TIFF holds 1-4 channels"});
        if (n != 3) {  // sat writes tables, which PNG and PFM cannot hold whatever the channels
            expect_refused(command(n, five, path("five-out.png")),
                           {"cannot write '" + path("five-out.png") + "'", "5 channels"});
            expect_refused(command(n, two, path("two-out.pfm")),
                           {"cannot write '" + path("two-out.pfm") + "'", "1 or 3 channels", "2 channels"});
        }
    }
}

// Sample types the readers do not take: 12-bit, 1-bit, signed and half-float TIFF; half-float,
// signed, boolean and complex NPY; PNG bit depths the format forbids.
TEST_F(BadInput, WrongBitDepths) {
    const struct {
        std::string name, bytes, needle;
    } cases[] = {
        {"12bit.tif", tiff_of(2, 2, 12, 1, 1, {}, std::string(6, '\x11')), "12 bits per sample"},
        {"1bit.tif", tiff_of(8, 1, 1, 1, 1, {}, std::string(1, '\x11')), "1 bits per sample"},
        {"int16.tif", tiff_of(2, 2, 16, 2, 1, {}, std::string(8, '\x11')), "16-bit signed integer samples"},
        {"int8.tif", tiff_of(2, 2, 8, 2), "8-bit signed integer samples"},
        {"half.tif", tiff_of(2, 2, 16, 3, 1, {}, std::string(8, '\x11')), "16-bit float samples"},
        {"half.npy", npy_of("<f2", "(2, 2)", std::string(8, '\0')), "unsupported dtype '<f2'"},
        {"int8.npy", npy_of("|i1", "(2, 2)", std::string(4, '\0')), "unsupported dtype '|i1'"},
        {"int32.npy", npy_of("<i4", "(2, 2)", std::string(16, '\0')), "unsupported dtype '<i4'"},
        {"bool.npy", npy_of("|b1", "(2, 2)", std::string(4, '\0')), "unsupported dtype '|b1'"},
        {"complex.npy", npy_of("<c8", "(2, 2)", std::string(32, '\0')), "unsupported dtype '<c8'"},
        {"quad.npy", npy_of("<f16", "(2, 2)", std::string(64, '\0')), "unsupported dtype '<f16'"},
        {"depth3.png", png_file(2, 2, 3, 0, std::string(4, '\0')), "Invalid IHDR data"},
        {"rgb4.png", png_file(2, 2, 4, 2, std::string(6, '\0')), "cannot read"},
        {"palette16.png", png_file(2, 2, 16, 3, std::string(6, '\0')), "cannot read"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        expect_unreadable(file, {"cannot read '" + file + "'", c.needle});
    }
}

// libpng names the wrong IHDR field only in a warning ("Image width is zero in IHDR"), or not at
// all for a size of 2^31 or more ("PNG unsigned integer out of range"): the reader names it.
TEST_F(BadInput, PngHeaderErrorsNameTheField) {
    const struct {
        std::string name, bytes, field;
    } cases[] = {
        {"a.png", png_file(0, 2, 8, 0, std::string(2, '\0')), "width"},
        {"b.png", png_file(2, 0, 8, 0, ""), "height"},
        {"c.png", png_file(0x80000000u, 2, 8, 0, std::string(4, '\0')), "width"},
        {"d.png", png_file(2, 0xfffffffdu, 8, 0, std::string(4, '\0')), "height"},
        {"e.png", png_file(2, 2, 3, 0, std::string(4, '\0')), "bit depth"},
        {"f.png", png_file(2, 2, 8, 5, std::string(6, '\0')), "color type"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        expect_unreadable(file, {"cannot read '" + file + "'", c.field});
    }
}

// ---- NaN and Inf -----------------------------------------------------------------------------

// The command line's policy: an input holding NaN or ±Inf, or float64 samples past float32's range
// (the filters' working type, where they would become Inf), is refused before any work, with the
// count of such samples and the position of the first. Every command, every float format.
TEST_F(BadInput, NanAndInfSamples) {
    Image image = testing::random_image(rng, 6, 5, 1);
    image.at(3, 1, 0) = NAN;
    image.at(4, 2, 0) = INFINITY;
    image.at(0, 4, 0) = -INFINITY;
    const std::string files[] = {
        put("nan.npy", raw_of(image, SampleType::f32)), put("nan64.npy", raw_of(image, SampleType::f64)),
        put("nan.tif", raw_of(image, SampleType::f32)), put("nan.pfm", raw_of(image, SampleType::f32))};
    for (int n = 0; n < kCommandCount; n++)
        for (const std::string &file : files)
            expect_refused(command(n, file, path("out.npy")), {"'" + file + "'", "3 non-finite samples",
                                                               "the first (nan) at x=3 y=1 channel 0"});

    // Only in the last channel, after many finite ones.
    Image rgb = testing::random_image(rng, 40, 30, 3);
    rgb.at(39, 29, 2) = -INFINITY;
    const std::string last = put("last.npy", raw_of(rgb, SampleType::f32));
    for (int n = 0; n < kCommandCount; n++)
        expect_refused(command(n, last, path("out.npy")),
                       {"1 non-finite sample", "(-inf) at x=39 y=29 channel 2"});

    // float64 samples that float32 cannot hold; those it rounds to zero are fine.
    RawImage wide = raw_of(testing::random_image(rng, 4, 4, 1), SampleType::f64);
    const double huge = 1e300, tiny = 1e-300;
    std::memcpy(&wide.bytes[5 * 8], &huge, 8);
    const std::string past = put("past-float32.npy", wide);
    for (int n = 0; n < kCommandCount; n++)
        expect_refused(command(n, past, path("out.npy")),
                       {"1 sample past float32's range", "1e+300", "x=1 y=1"});
    std::memcpy(&wide.bytes[5 * 8], &tiny, 8);
    const std::string small = put("small.npy", wide);
    for (int n = 0; n < kCommandCount; n++) {
        const Outcome r = run_cli(command(n, small, path("small-out.npy")));
        EXPECT_EQ(r.status, 0) << kCommands[n] << ": " << r.err;
    }

    // In a batch: nothing is written, not even the folder.
    const std::string clean = put("clean.npy", random_raw(6, 5, 1, SampleType::f32));
    expect_refused(words("gaussian --sigma 2 --device cpu") + std::vector<std::string>{clean, files[0]} +
                       words("--out-dir " + path("batch")),
                   {files[0], "3 non-finite samples"});
}

// The library's policy (include/cascade/iir.h): samples are not checked; NaN and Inf propagate as
// IEEE arithmetic carries them through each filter's recursion, within their channel. box_mean,
// whose tables hold the image less its channel means, refuses them instead.
TEST_F(BadInput, NanAndInfSamplesInTheLibrary) {
    std::string skipped;
    const std::vector<Algorithm> algorithms =
        testing::built_algorithms({Algorithm::rt, Algorithm::a4, Algorithm::a6}, skipped);
    const int W = 70, H = 45;
    const Image clean = testing::random_image(rng, W, H, 3);
    Image bad = clean;
    bad.at(20, 10, 0) = NAN;
    bad.at(50, 30, 2) = INFINITY;
    const auto all_finite = [&](const Image &image, int c) {
        return std::all_of(image.data.begin() + size_t(c) * W * H, image.data.begin() + size_t(c + 1) * W * H,
                           [](float v) { return std::isfinite(v); });
    };
    const auto none_finite = [&](const Image &image, int c) {
        return std::none_of(image.data.begin() + size_t(c) * W * H,
                            image.data.begin() + size_t(c + 1) * W * H,
                            [](float v) { return std::isfinite(v); });
    };
    const auto channel = [&](const Image &image, int c) {
        return std::vector<float>(image.data.begin() + size_t(c) * W * H,
                                  image.data.begin() + size_t(c + 1) * W * H);
    };
    // Recursions both ways in both dimensions: the channel holding one ends wholly non-finite (twoway,
    // whose lines are cut at their centres, at least where it was); the others are exactly what they
    // are without.
    const auto expect_propagated = [&](const std::function<Image(const Image &)> &filter,
                                       const std::string &what, bool whole = true) {
        const Image a = filter(clean), b = filter(bad);
        EXPECT_TRUE(all_finite(a, 0) && all_finite(a, 2)) << what;
        EXPECT_TRUE(whole ? none_finite(b, 0) : !std::isfinite(b.at(20, 10, 0)))
            << what << ": NaN in channel 0";
        EXPECT_TRUE(whole ? none_finite(b, 2) : !std::isfinite(b.at(50, 30, 2)))
            << what << ": Inf in channel 2";
        EXPECT_EQ(channel(b, 1), channel(a, 1)) << what << ": channel 1 holds neither";
    };
    const RecursiveFilter f{0.6, {-0.4}};
    for (Algorithm algorithm : algorithms)
        for (Boundary boundary : {Boundary::none, Boundary::reflect}) {
            IirOptions options{boundary, DeviceChoice::cpu};
            options.algorithm = algorithm;
            expect_propagated(
                [&](const Image &x) {
                    return iir_2d(x, Filter2D{f, f}, options);
                },
                std::string("iir_2d ") + algorithm_name(algorithm));
        }
    const RecursiveFilter spline = bspline_prefilter(3);
    expect_propagated(
        [&](const Image &x) {
            return iir_2d(x, Filter2D{spline, spline}, {Boundary::mirror, DeviceChoice::cpu});
        },
        "bspline");
    for (GaussianMethod method : {GaussianMethod::vanvliet, GaussianMethod::deriche2,
                                  GaussianMethod::deriche4, GaussianMethod::twoway})
        expect_propagated(
            [&](const Image &x) {
                return gaussian_blur(x, design_gaussian(2.0, method), {Boundary::clamp, DeviceChoice::cpu});
            },
            std::string("gaussian ") + gaussian_method_name(method), method != GaussianMethod::twoway);

    // A summed-area table carries one to every entry at and below-right of it, and to no other.
    for (SatAlgorithm algorithm :
         {SatAlgorithm::naive, SatAlgorithm::overlapped, SatAlgorithm::two_read, SatAlgorithm::one_read,
          SatAlgorithm::one_read_split, SatAlgorithm::strips}) {
        const Image table = summed_area_table(bad, SatOptions{algorithm, false, DeviceChoice::cpu});
        const Image expected = summed_area_table(clean, SatOptions{algorithm, false, DeviceChoice::cpu});
        int wrong = 0;
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const bool reached = (c == 0 && x >= 20 && y >= 10) || (c == 2 && x >= 50 && y >= 30);
                    const float v = table.at(x, y, c);
                    wrong += reached ? std::isfinite(v) : v != expected.at(x, y, c);
                }
        EXPECT_EQ(wrong, 0) << sat_algorithm_name(algorithm);
    }

    try {
        box_mean(bad, 2, Boundary::reflect, DeviceChoice::cpu);
        ADD_FAILURE() << "box_mean took a NaN";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("non-finite sample (nan) at x=20 y=10 channel 0"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(require_finite(bad), Error);
    EXPECT_NO_THROW(require_finite(clean));
    if (!skipped.empty()) GTEST_SKIP() << skipped;
}

// ---- Coefficients and sigmas -----------------------------------------------------------------

// Feedbacks with a pole on or outside the unit circle, on either axis, or within 1e-9 of it.
TEST_F(BadInput, UnstableCoefficients) {
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    const std::string out = path("out.npy");
    const std::string iir = "iir --device cpu " + in + " " + out + " ";
    for (const char *feedback :
         {"-1", "1", "-1.5", "0.2,1.1", "-2,1", "0,1", "-0.9999999999", "0,0,0,-1.01"}) {
        expect_refused(words(iir + "--feedback=" + feedback), {"unstable filter", "pole", "unit circle"});
        write_bytes(out, "an earlier result");
        expect_refused(words(iir + "--feedback-x=-0.5 --feedback-y=" + feedback), {"unstable filter"});
        fs::remove(out);
    }
    expect_refused(words(iir + "--feedback=-0.5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
                   {"this build has orders"});
    // The library refuses them when designing a plan, before any image is touched.
    for (const RecursiveFilter &f :
         {RecursiveFilter{0, {-1.0}}, RecursiveFilter{2.1, {0.2, 1.1}}, RecursiveFilter{1, {}}}) {
        EXPECT_THROW(require_stable(f), Error);
        EXPECT_THROW(IirPlan({f, f}, 8, 8, {Boundary::none, DeviceChoice::cpu}), Error);
        EXPECT_THROW(
            iir_2d(testing::random_image(rng, 8, 8, 1), Filter2D{f, f}, {Boundary::none, DeviceChoice::cpu}),
            Error);
        EXPECT_THROW(margin_for(f), Error);
    }
}

// NaN, Inf and numbers past double's range in feedbacks and gains, on every axis option.
TEST_F(BadInput, NonFiniteCoefficients) {
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    const std::string iir = "iir --device cpu " + in + " " + path("out.npy") + " ";
    for (const char *value : {"nan", "inf", "-inf", "NaN", "infinity"}) {
        expect_refused(words(iir + "--feedback=" + value),
                       {"coefficient '" + std::string(value) + "' is not finite"});
        expect_refused(words(iir + "--feedback=-0.5," + value), {"is not finite"});
        expect_refused(words(iir + "--feedback=-0.5 --feedback-x=" + value), {"is not finite"});
        expect_refused(words(iir + "--feedback=-0.5 --gain=" + value), {"gain is not a finite number"});
        expect_refused(words(iir + "--feedback=-0.5 --gain-y=" + value), {"gain is not a finite number"});
    }
    expect_refused(words(iir + "--feedback=1e400"), {"'1e400'", "out of range"});
    expect_refused(words(iir + "--feedback=-0.5,-1e400"), {"'-1e400'", "out of range"});
    // A coefficient too small for double is (almost) zero, not an error.
    const Outcome tiny = run_cli(words(iir + "--feedback=-0.5,1e-320"));
    EXPECT_EQ(tiny.status, 0) << tiny.err;

    for (double bad : {double(NAN), double(INFINITY), -double(INFINITY)}) {
        EXPECT_THROW(require_stable(RecursiveFilter{bad, {-0.5}}), Error);
        EXPECT_THROW(require_stable(RecursiveFilter{0.5, {bad}}), Error);
        EXPECT_THROW(require_stable(RecursiveFilter{0.5, {-0.5, bad}}), Error);
        const RecursiveFilter f{0.5, {bad}};
        EXPECT_THROW(IirPlan({f, f}, 8, 8, {Boundary::none, DeviceChoice::cpu}), Error);
    }
}

// Sigmas outside each method's range, not numbers, or not finite: refused before the input is read
// (the input here does not even exist), for every method.
TEST_F(BadInput, SigmaOutOfRange) {
    const std::string missing = path("never-read.npy"), out = path("out.npy");
    for (const char *method : {"vanvliet", "deriche2", "deriche4", "twoway"}) {
        const std::string gaussian = "gaussian --device cpu " + missing + " " + out + " --method " + method;
        for (const char *sigma : {"0", "-1", "0.49", "2000.5", "1e308", "nan", "inf", "-inf", "1e-320"})
            expect_refused(words(gaussian + " --sigma=" + sigma), {"is outside [0.5, "});
        expect_refused(words(gaussian + " --sigma=abc"), {"--sigma"}, 2);
        expect_refused(words(gaussian), {"--sigma"}, 2);
        EXPECT_THROW(design_gaussian(NAN, parse_gaussian_method(method)), Error) << method;
        EXPECT_THROW(design_gaussian(0.25, parse_gaussian_method(method)), Error) << method;
        EXPECT_THROW(design_gaussian(1e9, parse_gaussian_method(method)), Error) << method;
    }
    expect_refused(words("gaussian --device cpu " + missing + " " + out + " --method deriche4 --sigma 4.5"),
                   {"sigma 4.5 is outside [0.5, 4] for deriche4", "float32 cannot hold"});
    // Either end of the range is fine.
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    for (const char *sigma : {"0.5", "2000"}) {
        const Outcome r =
            run_cli(words("gaussian --device cpu --sigma " + std::string(sigma) + " " + in + " " + out));
        EXPECT_EQ(r.status, 0) << sigma << ": " << r.err;
    }
}

// The box filter's one number: a non-negative integer that fits.
TEST_F(BadInput, BoxRadiusOutOfRange) {
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    const std::string box = "box --device cpu " + in + " " + path("out.npy") + " --radius=";
    for (const char *radius : {"-1", "2.5", "abc", "1e3", "nan", "0x10"})
        expect_refused(words(box + radius),
                       {"--radius must be a non-negative integer, got '" + std::string(radius) + "'"});
    expect_refused(words(box + "2147483648"), {"--radius 2147483648 is too large"});
    expect_refused(words(box), {"--radius"}, 2);
    EXPECT_THROW(box_mean(testing::random_image(rng, 4, 4, 1), -1, Boundary::reflect, DeviceChoice::cpu),
                 Error);
}

// ---- Where the output goes -------------------------------------------------------------------

// OUT may be IN: the input is read whole first, and replaced (renamed over, so a hard link to it
// keeps the old bytes) only by a complete result; a run that fails leaves it as it was.
TEST_F(BadInput, OutputPathEqualToInput) {
    const std::pair<std::string, SampleType> formats[] = {{"x.png", SampleType::u8},
                                                          {"x.tif", SampleType::u16},
                                                          {"x.pfm", SampleType::f32},
                                                          {"x.npy", SampleType::f64}};
    for (const auto &[name, type] : formats) {
        const std::string original = read_bytes(put(name, random_raw(33, 21, name == "x.pfm" ? 3 : 2, type)));
        const std::string x = path(name), link = path("link-" + name), copy = path("copy-" + name);
        fs::create_hard_link(x, link);
        const std::string filter = "gaussian --sigma 2 --device cpu ";
        Outcome r = run_cli(words(filter + x + " " + copy));
        ASSERT_EQ(r.status, 0) << r.err;
        r = run_cli(words(filter + x + " " + x));
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(read_bytes(x), read_bytes(copy)) << name << ": the result, as a separate output gets it";
        EXPECT_NE(read_bytes(x), original) << name;
        EXPECT_EQ(read_bytes(link), original) << name << ": renamed over, not rewritten in place";

        // Failures before and after the filtering: the file stays as the last success left it.
        put(name, original);
        const std::string in_out = x + " " + x;
        expect_refused(words("iir --device cpu --feedback -1.5 " + in_out), {"unstable"});
        expect_refused(words("gaussian --device cpu --sigma 0 " + in_out), {"sigma 0"});
        expect_refused(words("gaussian --device cpu --sigma 2 --method twoway --algorithm rt " + in_out),
                       {"own traversal"});
        if (name == "x.png") {
            // Filtered, then refused by the writer: PNG holds no float32.
            expect_refused(words("gaussian --device cpu --sigma 2 --output-type float32 " + in_out),
                           {"PNG holds only"});
            expect_refused(words("sat --device cpu " + in_out), {"PNG"});
        }
        if (name == "x.pfm")
            expect_refused(words("bspline --device cpu --output-type uint8 " + in_out), {"PFM holds only"});
        EXPECT_EQ(read_bytes(x), original) << name;
        fs::remove(link);
        fs::remove(copy);
    }
    // A batch whose --out-dir is its inputs' folder: all replaced, or (one input bad) none.
    Image bad_image = testing::random_image(rng, 12, 10, 1);
    bad_image.at(1, 1, 0) = NAN;
    const std::string a = put("a.npy", random_raw(12, 10, 1, SampleType::f32));
    const std::string b = put("b.npy", raw_of(bad_image, SampleType::f32));
    expect_refused(words("gaussian --sigma 2 --device cpu " + a + " " + b + " --out-dir " + dir),
                   {b, "non-finite"});
    put("b.npy", random_raw(12, 10, 1, SampleType::f32));
    const Snapshot before = snapshot(dir);
    const Outcome r = run_cli(words("gaussian --sigma 2 --device cpu " + a + " " + b + " --out-dir " + dir));
    ASSERT_EQ(r.status, 0) << r.err;
    const Snapshot after = snapshot(dir);
    EXPECT_EQ(after.size(), before.size()) << difference(before, after);
    EXPECT_NE(after.at("a.npy"), before.at("a.npy"));
    EXPECT_NE(after.at("b.npy"), before.at("b.npy"));
}

// A folder the user cannot write to (checked as an unprivileged user: root writes anyway), a
// folder that does not exist, and an output that is a folder.
TEST_F(BadInput, UnwritableOutputDirectory) {
    Limits limits;
    if (geteuid() == 0) {
        // Root ignores permissions: run the command as nobody, who can read the input but not write.
        limits.as_nobody = true;
        fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec);
        const Outcome probe = run_cli({"--help"}, limits);
        if (probe.status != 0) GTEST_SKIP() << "running as root, and cannot run the command line as nobody";
    }
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    fs::permissions(
        in, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
    const std::string locked = path("locked");
    fs::create_directory(locked);
    write_bytes(locked + "/existing.npy", "an earlier result");
    fs::permissions(locked + "/existing.npy", fs::perms::all);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    for (int n = 0; n < kCommandCount; n++) {
        for (const std::string &out : {locked + "/out.npy", locked + "/existing.npy"})
            expect_refused(command(n, in, out), {"cannot write '" + out + "'", "Permission denied"}, 1,
                           limits);
    }
    expect_refused(words("gaussian --sigma 2 --device cpu " + in + " --out-dir " + locked + "/new"),
                   {locked + "/new", "Permission denied"}, 1, limits);
    fs::permissions(locked, fs::perms::owner_all);

    const std::string missing = path("missing/out.npy");
    expect_refused(command(0, in, missing), {"cannot write '" + missing + "'", "No such file or directory"});
    fs::create_directory(path("folder.npy"));
    for (int n = 0; n < kCommandCount; n++)
        expect_refused(command(n, in, path("folder.npy")),
                       {"cannot write '" + path("folder.npy") + "'", "Is a directory"});
}

// Two runs writing one output at once: each writes a temporary file of its own and renames it, so
// the output is always one of the two complete results, never a mix, and nothing is left behind.
// Also a failing run beside a succeeding one: the success stands.
TEST_F(BadInput, TwoRunsWriteTheSameOutputAtOnce) {
    const std::string in = put("in.npy", random_raw(600, 400, 3, SampleType::f32));
    for (const char *extension : {".npy", ".tif", ".png"}) {
        const std::string out = path(std::string("out") + extension);
        const std::string one = path(std::string("one") + extension),
                          two = path(std::string("two") + extension);
        const std::vector<std::string> first = words("gaussian --sigma 1 --device cpu " + in);
        const std::vector<std::string> second = words("bspline --device cpu " + in);
        ASSERT_EQ(run_cli(first + std::vector<std::string>{one}).status, 0);
        ASSERT_EQ(run_cli(second + std::vector<std::string>{two}).status, 0);
        const std::string result_one = read_bytes(one), result_two = read_bytes(two);
        ASSERT_NE(result_one, result_two);
        int got_one = 0, got_two = 0;
        for (int round = 0; round < 6; round++) {
            const Child a = spawn(first + std::vector<std::string>{out});
            const Child b = spawn(second + std::vector<std::string>{out});
            const Outcome ra = finish(a), rb = finish(b);
            EXPECT_EQ(ra.status, 0) << ra.err;
            EXPECT_EQ(rb.status, 0) << rb.err;
            const std::string result = read_bytes(out);
            got_one += result == result_one;
            got_two += result == result_two;
            EXPECT_TRUE(result == result_one || result == result_two)
                << extension << " round " << round << ": " << result.size() << " bytes, neither result";
            EXPECT_NO_THROW(read_image(out)) << extension;
        }
        EXPECT_EQ(got_one + got_two, 6) << extension;
        // One run fails (an unstable filter) while the other writes.
        const Child good = spawn(first + std::vector<std::string>{out});
        const Child bad = spawn(words("iir --device cpu --feedback -1.5 " + in + " " + out));
        EXPECT_EQ(finish(good).status, 0);
        EXPECT_EQ(finish(bad).status, 1);
        EXPECT_EQ(read_bytes(out), result_one) << extension;
    }
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"in.npy", "one.npy", "one.png", "one.tif", "out.npy",
                                               "out.png", "out.tif", "two.npy", "two.png", "two.tif"}));
}

// ---- Resources -------------------------------------------------------------------------------

// Headers that claim sizes past memory: refused from the header and the file's size, before any
// large allocation. The runs get 2 GiB of address space, so a reader that allocated what the header
// claims would fail here (cleanly, or not) rather than take the machine's memory.
TEST_F(BadInput, HeaderClaimsMoreThanMemory) {
    Limits small;
    small.address_space = size_t(2) << 30;
    if (!runs_within(small)) {
        // A sanitizer build reserves terabytes of address space for its shadow memory: the header
        // checks still run, without the guard.
        std::printf("cascade does not start within 2 GiB of address space: running unguarded\n");
        small.address_space = 0;
    }
    const struct {
        std::string name, bytes, needle;
    } cases[] = {
        {"square.npy", npy_of("<f4", "(4000000000, 4000000000)", std::string(64, '\0')), "too large"},
        {"cube.npy", npy_of("<f8", "(4294967296, 4294967296, 4294967296)", ""), "too large"},
        {"claims.npy", npy_of("<f4", "(100000, 100000, 3)", std::string(64, '\0')),
         "truncated data (expected 120000000000 bytes, found 64)"},
        {"claims.pfm", "PF\n100000 100000\n-1.0\n" + std::string(64, '\0'), "truncated data"},
        {"claims.png", png_file(0x7fffffffu, 0x7fffffffu, 16, 6, std::string(16, '\0')),
         "more than the file's"},
        {"wide.png", png_file(0x7fffffffu, 1, 8, 0, std::string(16, '\0')), "more than the file's"},
        {"claims.tif", tiff_of(65535, 65535, 32, 3), "more than the file's"},
        {"deflate.tif", tiff_of(65535, 65535, 32, 3, 1, {{259, 3, {8}}}), "more than the file's"},
    };
    for (const auto &c : cases) {
        const std::string file = put(c.name, c.bytes);
        const std::vector<std::string> needles = {"cannot read '" + file + "'", c.needle};
        expect_refused(command(turn++, file, path("out.npy")), needles, 1, small);
    }
    // Codecs without a known bound on their expansion (here LZMA and Zstandard, when libtiff has
    // them; JPEG): nothing in the header limits the claim, so the reader must not allocate for it
    // before the data proves it.
    for (uint32_t codec : {34925u, 50000u, 7u}) {
        const std::string file = put("codec" + std::to_string(codec) + ".tif",
                                     tiff_of(65535, 65535, 32, 3, 1, {{259, 3, {codec}}}));
        const Outcome r =
            expect_refused(command(turn++, file, path("out.npy")), {"cannot read '" + file + "'"}, 1, small);
        EXPECT_EQ(r.err.find("not enough memory"), std::string::npos)
            << "io/image_io_tiff.cpp allocated the 17 GB this header claims (refused only by the 2 GiB "
               "limit): "
            << r.err;
    }
}

// A valid image whose working copies do not fit: a clear "out of host memory" line, not a bare
// std::bad_alloc, and no output. The runs get 512 MiB of address space (a small image needs under
// 256); the 8192×8192 gray PNG is 64 MiB of samples, 256 MiB in float32, twice that as the uint64
// summed-area table its sum needs, and every command holds more than one copy.
TEST_F(BadInput, ImageLargerThanMemory) {
    RawImage big;
    big.width = big.height = 8192;
    big.channels = 1;
    big.type = SampleType::u8;
    Limits small;
    small.address_space = size_t(512) << 20;
    if (!runs_within(small))
        GTEST_SKIP() << "cascade does not start within 512 MiB of address space (a sanitizer build "
                        "reserves terabytes for its shadow memory)";
    big.bytes.assign(big.width * big.height, 0);
    const std::string file = put("big.png", big);
    big.bytes = {};
    for (int n = 0; n < kCommandCount; n++)
        expect_refused(command(n, file, path("out.npy")), {"out of host memory"}, 1, small);
}

// `--device cuda` where there is no device (on this machine, no driver either): the reason, status
// 1 and no output, from every command, before the input is read; `--device auto` runs on the CPU.
TEST_F(BadInput, CudaWithoutADevice) {
    if (has_variants(Device::cuda) && cuda_info().devices > 0)
        GTEST_SKIP() << "a CUDA device is present (" << cuda_info().name
                     << "); CudaDriverWithoutADevice covers this line on such a machine";
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    const std::string reason = has_variants(Device::cuda) ? "no CUDA device available: " + cuda_info().reason
                                                          : "this build has no CUDA variants";
    for (int n = 0; n < kCommandCount; n++) {
        std::vector<std::string> args = command(n, in, path("out.npy"));
        args.back() = "cuda";
        expect_refused(args, {"--device cuda", reason});
        args[args.size() - 4] = path("never-read.npy");
        expect_refused(args, {"--device cuda", reason});
        args[args.size() - 4] = in;
        args.back() = "auto";
        const Outcome r = run_cli(args);
        EXPECT_EQ(r.status, 0) << kCommands[n] << " --device auto: " << r.err;
        fs::remove(path("out.npy"));
    }
    EXPECT_THROW(iir_2d(testing::random_image(rng, 8, 8, 1), Filter2D{{0.5, {-0.5}}, {0.5, {-0.5}}},
                        {Boundary::none, DeviceChoice::cuda}),
                 Error);
}

// The same behind a driver that is installed but finds no device, or fails to start: a stand-in
// libcuda.so.1 (tests/fake_libcuda.cpp) put first on the library path, so this runs on GPU machines
// too.
TEST_F(BadInput, CudaDriverWithoutADevice) {
    if (!has_variants(Device::cuda))
        GTEST_SKIP() << "this build has no CUDA variants: --device cuda never probes a driver";
    // CASCADE_FAKE_LIBCUDA_DIR overrides the build's folder where the binaries run elsewhere.
    const char *moved = std::getenv("CASCADE_FAKE_LIBCUDA_DIR");
    const std::string dir = moved ? moved : FAKE_LIBCUDA_DIR;
    if (!fs::exists(dir + "/libcuda.so.1"))
        GTEST_SKIP() << "the stand-in driver " << dir << "/libcuda.so.1 is not on this machine";
    // The command line may find libcascade.so through the library path too: keep it behind.
    const char *library_path = std::getenv("LD_LIBRARY_PATH");
    const std::string in = put("in.npy", random_raw(9, 7, 1, SampleType::f32));
    const std::pair<std::string, std::string> drivers[] = {
        {"no-device", "the CUDA driver sees no device"},
        {"init-fails", "the CUDA driver failed to initialise (CUresult 100)"}};
    for (const auto &[mode, reason] : drivers) {
        Limits fake;
        fake.env = {"LD_LIBRARY_PATH=" + dir + (library_path ? std::string(":") + library_path : ""),
                    "FAKE_CUDA=" + mode};
        for (int n = 0; n < kCommandCount; n++) {
            std::vector<std::string> args = command(n, in, path("out.npy"));
            args.back() = "cuda";
            expect_refused(args, {"--device cuda: no CUDA device available: " + reason}, 1, fake);
            args.back() = "auto";
            const Outcome r = run_cli(args, fake);
            EXPECT_EQ(r.status, 0) << mode << " " << kCommands[n] << " --device auto: " << r.err;
            fs::remove(path("out.npy"));
        }
    }
}

}  // namespace
}  // namespace cascade
