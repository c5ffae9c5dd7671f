#pragma once
// How a line continues past its ends. Every filter takes one of these, exact without padding in
// the AOT pipelines (the initial feedbacks of Nehab & Maximo 2016, docs/boundaries.md).
#include <cstdint>
#include <string>
#include <vector>

namespace cascade {

// none: zero feedbacks (not an extension: the anticausal pass ignores the causal pass's tail);
// zero: zeros past both ends; clamp: the edge samples repeat; periodic: the line repeats;
// reflect: d c b a | a b c d | d c b a (half-sample symmetric, scipy's `reflect`, period 2n);
// mirror: d c b | a b c d | c b a (whole-sample symmetric, scipy's `mirror`, period 2n − 2).
enum class Boundary { none, zero, clamp, periodic, reflect, mirror };

Boundary parse_boundary(const std::string &text);  // the names above
std::vector<std::string> boundary_names();         // every one, in the order above
const char *boundary_name(Boundary boundary);

// The sample of a line of n that position i (any integer) of the extension holds, or −1 where
// the extension is zero (none, zero).
int64_t extended_index(Boundary boundary, int64_t i, int64_t n);

}  // namespace cascade
