#pragma once
// Summed-area tables: V(x, y) = Σ_{x' ≤ x, y' ≤ y} X(x', y'), channel by channel.
#include <HalideRuntime.h>

#include <string>
#include <vector>

#include "cascade/device.h"
#include "cascade/image.h"

namespace cascade {

enum class SatAlgorithm {
    automatic,       // the fastest exact variant this build has for the device
    overlapped,      // Nehab et al. 2011 algorithm SAT: tile sums, carry completion, one re-read
    two_read,        // Kasagi et al. 2R1W: column, row and corner carries computed independently
    one_read,        // Kasagi et al. 1R1W: diagonal wavefront of tile stages, one read per pixel
    one_read_split,  // (1+r)R1W: 2R1W on the top-left and bottom-right triangles, 1R1W between
    naive,           // column scan, then row scan (for comparison)
    strips,          // CPU: strips of rows, each strip's column sums first (2 reads, 1 write)
};

SatAlgorithm parse_sat_algorithm(const std::string &text);  // "auto", "overlapped", "2r1w", ...
const char *sat_algorithm_name(SatAlgorithm algorithm);
std::vector<std::string> sat_algorithm_names();

struct SatOptions {
    SatAlgorithm algorithm = SatAlgorithm::automatic;
    bool exclusive = false;  // (H+1)×(W+1) with a zero first row and column (OpenCV, NPP)
    DeviceChoice device = DeviceChoice::automatic;
};

// The sample type of the table of `input`: float32 for float inputs; uint32 for uint8/uint16
// while H·W·max fits, uint64 beyond (never a silent wrap).
SampleType sat_output_type(const RawImage &input);

// The table of every channel of an H×W×C image, in one pipeline call; interleaved like the input.
// A NaN or Inf sample reaches every entry at and below-right of it (cascade/iir.h: NaN and Inf).
RawImage summed_area_table(const RawImage &input, const SatOptions &options = {});

// The float32 table of planar float channels (what box filters build on).
Image summed_area_table(const Image &input, const SatOptions &options = {});

// The table of a 3D (x, y, c) buffer into `output`, a W×H×C buffer of the table's type (for an
// exclusive table, a view of its interior), on `device`. Buffers may already live on the device
// (the bench keeps them there): results stay where the pipeline left them.
void summed_area_table(halide_buffer_t *input, halide_buffer_t *output, SatAlgorithm algorithm,
                       Device device);

}  // namespace cascade
