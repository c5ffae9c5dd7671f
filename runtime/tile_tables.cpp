// The tables of run-time coefficients for the Func API's pipelines (contract/input_tables.h).
#include "cascade/tile_tables.h"

#include <algorithm>
#include <string>

#include "cascade/error.h"
#include "contract/input_tables.h"
#include "contract/tiled_layout.h"
#include "design/boundary_tables.h"
#include "design/level.h"
#include "design/tile_matrices.h"

namespace cascade::funcs {

using namespace input_tables;

namespace {

constexpr const char *kWho = "cascade::funcs::tile_tables";  // what a table's error names

}  // namespace

Halide::Runtime::Buffer<float> tile_tables(const RecursiveFilter &vertical, const RecursiveFilter &horizontal,
                                           Boundary boundary, int width, int height) {
    require_stable(vertical);
    require_stable(horizontal);
    if (width < 1 || height < 1)
        throw Error("cascade::funcs::tile_tables: the image must have at least one sample, not " +
                    std::to_string(width) + "x" + std::to_string(height));
    const int order = std::max(vertical.order(), horizontal.order()), b = tile(order);
    if (order > most_order(b))
        throw Error("cascade::funcs::tile_tables: the tiles take recursions to order " +
                    std::to_string(most_order(b)) + ", not " + std::to_string(order));
    const bool exact = boundary != Boundary::none;
    // As the tiles scan them: one direct-form recursion each, its coefficients rounded as the
    // pipeline holds them; the unit-gain filter's tables where the tiles scale the samples instead.
    const auto v = variant_sections(vertical, true, vertical.order()),
               h = variant_sections(horizontal, true, horizontal.order());
    const bool unit = TiledLayout::unit_gain_scans(exact);
    const std::vector<double> down = tiled_table(unit ? with_unit_gains(v) : v, b, height),
                              across = tiled_table(unit ? with_unit_gains(h) : h, b, width);
    std::vector<BoundaryTables> edges;
    if (exact) {
        edges.push_back(tiled_boundary_tables(v, height, b, boundary));
        edges.push_back(tiled_boundary_tables(h, width, b, boundary));
    }
    int rows = int(std::max(down.size(), across.size()) / size_t(b));
    for (const BoundaryTables &t : edges)
        rows = std::max({rows, int(t.seeds.rows()), int(t.start.rows()), int(t.end.rows())});
    Halide::Runtime::Buffer<float> tables(b, rows, planes(boundary));
    tables.fill(0.0f);
    auto put = [&](int plane, const std::vector<double> &t) {
        for (size_t k = 0; k < t.size(); k++)
            tables(int(k % size_t(b)), int(k / size_t(b)), plane) = table_entry(t[k], kWho);
    };
    put(kDown, down);
    put(kAcross, across);
    if (about_level(boundary))
        tables(kLevelGain, 0, kHeader) = table_entry(dc_response(v) * dc_response(h), kWho);
    for (size_t d = 0; d < edges.size(); d++) {
        const BoundaryTables &t = edges[d];
        const int first = d == 0 ? kColumnEdges : kRowEdges, tiles = d == 0 ? kColumnTiles : kRowTiles;
        const int K = d == 0 ? vertical.order() : horizontal.order();
        for (int s = 0; s < t.seeds.rows(); s++)
            for (int j = 0; j < t.seeds.cols(); j++) tables(j, s, first) = table_entry(t.seeds(s, j), kWho);
        for (int i = 0; i < t.start.rows(); i++)
            for (int j = 0; j < t.start.cols(); j++)
                tables(j, i, first + 1) = table_entry(t.start(i, j), kWho);
        for (int i = 0; i < t.end.rows(); i++)
            for (int j = 0; j < t.end.cols(); j++) tables(j, i, first + 2) = table_entry(t.end(i, j), kWho);
        tables(tiles, 0, kHeader) = float(t.start.rows() / K);
        tables(tiles + 1, 0, kHeader) = float(t.end.rows() / K);
    }
    tables.translate({width, height, int(boundary)});
    return tables;
}

}  // namespace cascade::funcs
