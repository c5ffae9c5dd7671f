#pragma once
#include <string>

#include "cascade/image.h"

namespace cascade {

// Reads PNG (8/16-bit gray, gray+alpha, RGB, RGBA; palette and low-bit gray are expanded to
// 8-bit), TIFF (8/16-bit unsigned, 32-bit float, 1-4 channels), PFM and NPY (float32, float64,
// uint8, uint16; H×W or H×W×C; C order). The format follows the extension (case-insensitive:
// .png .tif .tiff .pfm .npy). Throws cascade::Error with a one-line message on any problem.
RawImage read_image(const std::string &path);

// Writes `image` in the format its extension names. The file appears whole or not at all: the
// data goes to a temporary name in the same folder, which is renamed over `path` only once
// complete. Throws cascade::Error when the format cannot hold the image (PNG: 1-4 channels,
// uint8/uint16 only; TIFF: 1-4 channels; PFM: 1 or 3 channels, float32 only).
void write_image(const std::string &path, const RawImage &image);

// True when `path` has an extension write_image knows.
bool is_supported_image_path(const std::string &path);

// The sample type a float result is written as for `path` when the user asks for none:
// uint8 for PNG, float32 for the others.
SampleType default_output_type(const std::string &path);

}  // namespace cascade
