#pragma once
// Numbers drawn from a fuzz input: each call consumes bytes from the front and yields zeros once
// they run out, so every input, however short, means one definite case.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cascade::fuzz {

class FuzzBytes {
public:
    FuzzBytes(const uint8_t *data, size_t size) : data_(data), size_(size) {}

    uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
    // An integer in [low, high].
    int in_range(int low, int high) { return low + int(byte() % unsigned(high - low + 1)); }
    bool flag() { return byte() & 1; }

    // Mostly the doubles that break arithmetic (NaN, infinities, the extremes, denormals, values
    // at the edge of stability), sometimes a small decimal, sometimes any bit pattern.
    double number() {
        static const double kSpecial[] = {
            std::numeric_limits<double>::quiet_NaN(),
            std::numeric_limits<double>::infinity(),
            -std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::max(),
            -std::numeric_limits<double>::max(),
            std::numeric_limits<double>::denorm_min(),
            -std::numeric_limits<double>::denorm_min(),
            std::numeric_limits<double>::min(),
            std::numeric_limits<double>::epsilon(),
            0.0,
            -0.0,
            1.0,
            -1.0,
            1.0 - 1e-16,
            -(1.0 - 1e-16),
            1.0 - 1e-9,
            -(1.0 - 1e-9),
            0.5,
            -0.5,
            2.0,
            -2.0,
            1e-300,
            1e300,
            0.4,
            2000.0,
            2000.0000001,
            4.0,
            0.49999999,
        };
        const uint8_t kind = byte();
        if (kind < 96) return kSpecial[kind % (sizeof kSpecial / sizeof kSpecial[0])];
        if (kind < 224) return (int(byte()) - 128) / 64.0 + (int(byte()) - 128) / 16384.0;
        uint64_t bits = 0;
        for (int i = 0; i < 8; i++) bits = bits << 8 | byte();
        double value;
        std::memcpy(&value, &bits, sizeof value);
        return value;
    }

private:
    const uint8_t *data_;
    size_t size_;
    size_t pos_ = 0;
};

}  // namespace cascade::fuzz
