#pragma once
// Tuning tables: the measured times of a filter's realisations per device and size, and the
// winner `--algorithm auto` runs (docs/tuning.md). Written by `cascade tune`; read from the
// tables the library ships (tuning/tables/) and from the files CASCADE_TUNING_TABLE names.
#include <cmath>
#include <string>
#include <vector>

#include "cascade/boundary.h"
#include "cascade/device.h"
#include "cascade/filter.h"

namespace cascade {

struct TunedCandidate {
    std::string name;  // a realisation (realisation.h)
    double ms = 0;     // median of the timed calls
    double gips = 0;
    double copy_fraction = 0;  // GiP/s over the copy's at 12 B/px, measured in the same run
    double error = 0;          // relative L2 error against the double reference (the verification)
};

struct TuningEntry {
    std::string device;  // tuning_device()
    std::string filter;  // filter_key()
    std::string shape;   // filter_shape()
    Boundary boundary = Boundary::none;
    int width = 0, height = 0;
    double copy_ms = 0;
    std::string winner;        // the fastest candidate
    std::string fixed_choice;  // what auto ran before any table: the realisation it names
    std::vector<TunedCandidate> candidates;
    // With `cascade tune --check-auto`: what auto ran in the same run, as the tables then in force
    // directed it, and its median time; else "" and NaN.
    std::string auto_choice;
    double auto_ms = NAN;
};

struct TuningTable {
    std::vector<TuningEntry> entries;
};

// A candidate must beat the fixed choice by more than this fraction of its time to win: two
// timings of one kernel in one run differ by up to 0.5% on an H100 (docs/tuning.md).
constexpr double kTuningMargin = 0.01;

// The winner among `candidates` (sorted fastest first): the fastest, unless the fixed choice is
// within kTuningMargin of it.
std::string tuned_winner(const std::vector<TunedCandidate> &candidates, const std::string &fixed_choice);

// The table as JSON, and back. read_tuning_table throws cascade::Error naming `origin` and the
// field on malformed text.
std::string write_tuning_table(const TuningTable &table);
TuningTable read_tuning_table(const std::string &json, const std::string &origin);

// How entries name devices: "cpu", or the CUDA device's name ("NVIDIA H100 80GB HBM3").
std::string tuning_device(Device device);
// The filter's coefficients (9 significant digits), and its structure: each dimension's section
// kinds ("r" a real pole, "rr" two, "c" a complex pair), so that a table tuned for one Gaussian
// serves another of the same structure.
std::string filter_key(const Filter2D &filter);
std::string filter_shape(const Filter2D &filter);

// The realisation the tables name for this filter, boundary, device and size, or "" when none
// does. An entry of the same filter wins over one of the same shape; then the nearest size, within
// a factor 4 in pixels. Tables: the files in CASCADE_TUNING_TABLE (':'-separated; "off" disables
// every table, the shipped ones too), then the shipped ones. A malformed file throws cascade::Error.
std::string tuned_realisation(const Filter2D &filter, Boundary boundary, Device device, int width,
                              int height);

// Every entry the tables above hold (for `cascade tune --show`).
std::vector<TuningEntry> loaded_tuning_entries();

}  // namespace cascade
