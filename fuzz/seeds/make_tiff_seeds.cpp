// Writes the compressed TIFF seeds of fuzz/corpus/tiff with libtiff's own encoders: every codec
// the reader may meet (deflate, LZW, PackBits, JPEG, ZSTD, LZMA), so fuzzing reaches each decoder.
// Build: c++ -std=c++17 make_tiff_seeds.cpp -ltiff -o make_tiff_seeds && ./make_tiff_seeds OUT_DIR
#include <tiffio.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

void write(const std::string &path, int compression, int channels, int rows_per_strip) {
    if (!TIFFIsCODECConfigured(compression)) {
        std::fprintf(stderr, "codec %d not configured, skipping %s\n", compression, path.c_str());
        return;
    }
    const int width = 16, height = 8;
    TIFF *tif = TIFFOpen(path.c_str(), "w");
    if (!tif) return;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, channels);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
    std::vector<uint8_t> row(size_t(width) * channels);
    for (int y = 0; y < height; y++) {
        for (size_t x = 0; x < row.size(); x++) row[x] = uint8_t(x * 9 + y * 17);
        TIFFWriteScanline(tif, row.data(), y, 0);
    }
    TIFFClose(tif);
}

}  // namespace

int main(int argc, char **argv) {
    const std::string out = argc > 1 ? argv[1] : ".";
    write(out + "/deflate_gray8.tif", COMPRESSION_ADOBE_DEFLATE, 1, 3);
    write(out + "/lzw_rgb8.tif", COMPRESSION_LZW, 3, 8);
    write(out + "/packbits_gray8.tif", COMPRESSION_PACKBITS, 1, 2);
    write(out + "/jpeg_gray8.tif", COMPRESSION_JPEG, 1, 8);
    write(out + "/zstd_gray8.tif", COMPRESSION_ZSTD, 1, 8);
    write(out + "/lzma_rgb8.tif", COMPRESSION_LZMA, 3, 8);
    return 0;
}
