#pragma once
// Integer images enter and leave the filters in their own first and last pass, so that 8- and
// 16-bit images cost no conversion pass over memory (and a quarter or half of float32's traffic).
// The filters work on floats in [0, 1], as include/cascade/image.h maps integer samples.
#include <Halide.h>

namespace cascade {

// The type the filters compute in: float64 for float64 samples, float32 for the others.
inline Halide::Type working_type(const Halide::Type &samples) {
    return samples == Halide::Float(64) ? samples : Halide::Float(32);
}

// a + b, or b where a is undefined: a sum that takes the type of its terms, where Halide's `+=`
// would keep the float32 of a 0.0f it started from.
inline Halide::Expr plus(const Halide::Expr &a, const Halide::Expr &b) { return a.defined() ? a + b : b; }

// A sample of any type as the filters see it: integers divided by their largest value (255,
// 65535), floats unchanged.
inline float largest_level(const Halide::Type &type) { return float((uint64_t(1) << type.bits()) - 1); }

inline Halide::Expr to_working(const Halide::Expr &sample) {
    const Halide::Type t = sample.type();
    if (t.is_float()) return Halide::cast(working_type(t), sample);
    return Halide::cast<float>(sample) * (1.0f / largest_level(t));
}

// A filtered value stored as `type`: integers clamped to [0, 1] and rounded to the nearest level
// (as include/cascade/image.h's from_planar_float), floats unchanged.
inline Halide::Expr from_working(const Halide::Expr &value, const Halide::Type &type) {
    if (type.is_float()) return Halide::cast(type, value);
    const float largest = largest_level(type);
    return Halide::cast(type, Halide::clamp(value * largest + 0.5f, 0.0f, largest));
}

}  // namespace cascade
