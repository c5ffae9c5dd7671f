// The CPU pipelines' scratch memory. Each parallel task of a pipeline (a strip, a tile row)
// allocates its buffers through halide_malloc and frees them at its end. Through malloc, a worker
// thread's arena hands the freed pages back to the kernel and takes them again, cleared, on the
// next call, so every call pays page faults on its scratch: the cubic spline's 2D prefilter of
// 256 planes of 256² float64 took 41 ms, 27 with the blocks kept here (2 cores, 2026-11-29). So
// each thread keeps the blocks it freed, a few and up to a bound, for its next tasks.
#include <HalideRuntime.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace cascade {

namespace {

// At least Halide's 32 bytes; a block is also readable a little past both ends, as Halide's
// vector loads may read (HalideRuntime.h, halide_malloc).
constexpr size_t kAlignment = 128;
// What a thread keeps: enough for a strip's window and rows at the sizes the catalogue runs on
// (a 2048² float64 image's strip of 128 rows: 2.2 MB), not a whole intermediate image.
constexpr size_t kKeptBlocks = 8;
constexpr size_t kKeptBytes = size_t(64) << 20;

struct Header {
    void *raw;    // what malloc returned
    size_t size;  // bytes the block holds
};

Header &header_of(void *block) { return *(reinterpret_cast<Header *>(block) - 1); }

// A thread's blocks, freed as it ends; a block freed after that (a static's, at exit) goes back to
// malloc at once.
thread_local bool ended = false;
struct KeptBlocks {
    std::vector<void *> blocks;
    size_t bytes = 0;
    ~KeptBlocks() {
        for (void *block : blocks) std::free(header_of(block).raw);
        ended = true;
    }
};

thread_local KeptBlocks kept;

void *allocate(void *, size_t size) {
    if (!ended) {
        // The smallest kept block that holds `size` without wasting more than its half.
        auto best = kept.blocks.end();
        for (auto it = kept.blocks.begin(); it != kept.blocks.end(); ++it) {
            const size_t held = header_of(*it).size;
            if (held >= size && held / 2 <= size &&
                (best == kept.blocks.end() || held < header_of(*best).size))
                best = it;
        }
        if (best != kept.blocks.end()) {
            void *block = *best;
            kept.bytes -= header_of(block).size;
            kept.blocks.erase(best);
            return block;
        }
    }
    void *raw = std::malloc(size + 2 * kAlignment);
    if (!raw) return nullptr;
    const uintptr_t start =
        (reinterpret_cast<uintptr_t>(raw) + sizeof(Header) + kAlignment - 1) & ~(kAlignment - 1);
    void *block = reinterpret_cast<void *>(start);
    header_of(block) = {raw, size};
    return block;
}

void release(void *, void *block) {
    if (!block) return;
    const size_t size = header_of(block).size;
    if (ended || size > kKeptBytes) {
        std::free(header_of(block).raw);
        return;
    }
    // The oldest go first.
    while (!kept.blocks.empty() && (kept.blocks.size() >= kKeptBlocks || kept.bytes + size > kKeptBytes)) {
        kept.bytes -= header_of(kept.blocks.front()).size;
        std::free(header_of(kept.blocks.front()).raw);
        kept.blocks.erase(kept.blocks.begin());
    }
    kept.blocks.push_back(block);
    kept.bytes += size;
}

// Installed as the library loads, before any pipeline allocates.
[[maybe_unused]] const bool installed = [] {
    halide_set_custom_malloc(allocate);
    halide_set_custom_free(release);
    return true;
}();

}  // namespace

}  // namespace cascade
