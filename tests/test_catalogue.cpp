// The variant catalogue: every key of the build reads back from its name, malformed names are
// refused, and `auto` runs only what the default catalogue holds, never the comparison one.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cascade/bspline.h"
#include "cascade/error.h"
#include "cascade/gaussian.h"
#include "cascade/iir.h"
#include "contract/tiled_layout.h"
#include "cuda_support.h"
#include "line_filter.h"
#include "test_support.h"
#include "variants.h"

namespace cascade {
namespace {

TEST(Catalogue, EveryKeyReadsBackFromItsName) {
    ASSERT_FALSE(variants().empty());
    for (const Variant &v : variants()) {
        const VariantKey back = VariantKey::parse(v.key.name());
        EXPECT_TRUE(back == v.key) << v.key.name();
        EXPECT_EQ(back.name(), v.key.name());
        EXPECT_EQ(v.key.name().rfind(v.key.computes(), 0), 0u) << v.key.name();
        EXPECT_FALSE(v.catalogue.empty()) << v.key.name();
    }
}

TEST(Catalogue, MalformedNamesAreRefused) {
    for (const char *bad : {"", "iir_a6", "iir_a6_o2", "iir_a6_o2_gpu", "iir_a6_exact_sections_t64r2_o2_cpu",
                            "iir_a6_sections_t64_o2_cpu", "sat_2r1w_o0_cpu", "iir_a6_sections_t64r2_o2_cpu_x",
                            "blur_o1_cpu", "iir_a6_sections_vector16_scanshared_t64r2_o2_cpu"})
        EXPECT_THROW(VariantKey::parse(bad), std::invalid_argument) << bad;
    const VariantKey k =
        VariantKey::parse("iir_a6_sections_exact_level_u8_t64r2_scanshared_vector16_o2_cuda");
    EXPECT_EQ(k.family, Family::iir_tiled);
    EXPECT_EQ(k.algorithm, 6);
    EXPECT_TRUE(k.sections && k.exact && k.level);
    EXPECT_EQ(k.samples, "u8");
    EXPECT_EQ(k.tile, 64);
    EXPECT_EQ(k.rows, 2);
    EXPECT_EQ(k.knobs, "scan=shared,vector=16");
    EXPECT_EQ(k.order, 2);
    EXPECT_EQ(k.device, "cuda");
    EXPECT_EQ(VariantKey::parse("sat_2r1w_corner_kernel_u16_u64_o0_cuda").kind, "2r1w_corner_kernel");
    EXPECT_EQ(VariantKey::parse("line_strips3_sections_exact_w64_o4_cpu").overlap, 64);
    EXPECT_EQ(VariantKey::parse("iir_rt_sections_columns_exact_li2018_o2_cpu").passes, "columns");
}

bool built_for(Device device) { return has_variants(device); }

// find_variant's refusal: the catalogue lacks what a plan asked for.
bool missing_variant(const Error &e) {
    const std::string what = e.what();
    return what.rfind("no cpu variant of", 0) == 0 || what.rfind("no cuda variant of", 0) == 0;
}

// The filters `auto` meets: Gaussians, B-splines, random filters of every order the catalogue
// runs, real and complex poles, slow and fast.
std::vector<RecursiveFilter> filters() {
    std::vector<RecursiveFilter> out = {van_vliet_gaussian(0.8), van_vliet_gaussian(4),
                                        van_vliet_gaussian(30),  bspline_prefilter(3),
                                        bspline_prefilter(5),    bspline_prefilter(9)};
    auto rng = testing::rng_for_test();
    for (int order = 1; order <= 8; order++)
        for (double pole : {0.5, 0.95})
            for (bool complex_poles : {false, true})
                if (!(complex_poles && order == 1))
                    out.push_back(testing::random_stable_filter(rng, order, pole, complex_poles));
    return out;
}

// Every combination `auto` can be asked for runs a variant of the default catalogue: a missing one
// fails here rather than as "no cuda variant of …" in a user's call.
TEST(Catalogue, AutoRunsOnlyTheDefaultCatalogue) {
    const std::vector<std::pair<int, int>> sizes = {
        {67, 45}, {4096, 4096}, {3, TiledLayout::kMostGpuTiles * CASCADE_TEST_IIR_TILE + 1}};
    int planned = 0;
    for (Device device : {Device::cpu, Device::cuda}) {
        if (!built_for(device)) continue;
        for (const RecursiveFilter &f : filters())
            for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                                      Boundary::reflect, Boundary::mirror})
                for (SampleType samples : {SampleType::f32, SampleType::u8, SampleType::u16})
                    for (const auto &[width, height] : sizes) {
                        const std::string what = std::string(device_name(device)) + " order " +
                                                 std::to_string(f.order()) + " " + boundary_name(boundary) +
                                                 " " + sample_name(samples) + " " + std::to_string(width) +
                                                 "x" + std::to_string(height);
                        // 8/16-bit samples the pipelines cannot convert are converted on the host
                        // and filtered as float32, the case above.
                        IirOptions options;
                        options.boundary = boundary;
                        if (!converts_samples({f, f}, options, samples, device)) continue;
                        // Exact boundaries are built to 4 sections (catalogue/iir.json).
                        if (boundary != Boundary::none && to_sections(f).size() > 4) continue;
                        try {
                            const IirPlan plan({f, f}, width, height, {boundary, choice_of(device)}, samples);
                            EXPECT_NE(plan.variant().catalogue, "comparison")
                                << what << ": " << plan.variant().key.name();
                            planned++;
                        } catch (const Error &e) {
                            // Combinations no build runs (8/16-bit samples above two sections)
                            // are refused for what they are, never for a variant this build lacks.
                            EXPECT_FALSE(missing_variant(e)) << what << ": " << e.what();
                        }
                    }
        // One long signal, under every boundary.
        for (const RecursiveFilter &f : filters())
            for (Boundary boundary : {Boundary::none, Boundary::zero, Boundary::clamp, Boundary::periodic,
                                      Boundary::reflect, Boundary::mirror}) {
                const std::string what = std::string(device_name(device)) + " line of order " +
                                         std::to_string(f.order()) + " " + boundary_name(boundary);
                try {
                    const LinePlan plan(f, 100003, 3, device, LineMethod::automatic, boundary);
                    EXPECT_NE(plan.variant().catalogue, "comparison")
                        << what << ": " << plan.variant().key.name();
                    planned++;
                } catch (const Error &e) {
                    EXPECT_FALSE(missing_variant(e)) << what << ": " << e.what();
                }
            }
    }
    EXPECT_GE(planned, 500);
}

}  // namespace
}  // namespace cascade
