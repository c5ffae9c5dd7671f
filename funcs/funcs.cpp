// The Func-level API: which realisation each call builds over a user's Func and with which
// tables, through the builders the prebuilt variants' generators share (blocked_*.h, table_*.h),
// or the serial scans padded by the filter's margin.
#include "cascade/funcs.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include "algebra/boundary.h"
#include "algebra/recursive_filter.h"
#include "algebra/twoway.h"
#include "blocked_strips.h"
#include "blocked_tiles.h"
#include "cascade/bspline.h"
#include "cascade/deriche.h"
#include "cascade/error.h"
#include "cascade/twoway.h"
#include "contract/input_tables.h"
#include "runtime/design/boundary_tables.h"
#include "runtime/design/direct_form.h"
#include "runtime/design/level.h"
#include "runtime/design/tile_matrices.h"
#include "runtime/strips.h"
#include "schedules/rt_schedule.h"
#include "schedules/twoway_schedule.h"
#include "stages.h"
#include "table_strips.h"
#include "table_tiles.h"
#include "tile_constants.h"
#include "tile_inputs.h"
#include "tiles.h"

namespace cascade::funcs {

using namespace Halide;

namespace {

// The serial path's stages, scheduled together: every scan at the root, its lines in parallel.
struct Serial {
    std::vector<Pass> scans;          // recursive passes and prefix sums
    std::vector<TwoWayStep> two_way;  // Lee et al.'s steps
    std::vector<Func> maps;           // point-wise stages read by scans (FIR numerators, box rows)
};

// New stages of the serial path in `s`, and what they are made of.
std::shared_ptr<Serial> serial_stages(StagesPtr &s) {
    s = std::make_shared<Filtered::Stages>();
    auto serial = std::make_shared<Serial>();
    s->schedules.push_back([serial](const Target &target, Func) {
        const bool gpu = target.has_gpu_feature();
        // A Func no stage is named after: every scan is computed at the root.
        if (gpu) {
            schedule_rt_cuda(serial->scans, {}, {}, Func());
        } else {
            schedule_rt_cpu(serial->scans, {}, {}, Func());
        }
        for (const TwoWayStep &step : serial->two_way) {
            if (gpu) {
                schedule_two_way_cuda(step, false, 0);
            } else {
                schedule_two_way_cpu(step, false, 0);
            }
        }
        for (Func f : serial->maps) {
            const Var x = f.args()[0], y = f.args()[1];
            f.compute_root();
            if (gpu) {
                Var bx, by, tx, ty;
                f.gpu_tile(x, y, bx, by, tx, ty, 32, 8, TailStrategy::GuardWithIf);
            } else {
                f.vectorize(x, 8, TailStrategy::GuardWithIf).parallel(y);
            }
        }
    });
    return serial;
}

// Names unique within a process, so that two filters in one pipeline never share a Func name.
std::string fresh(const std::string &what) {
    static std::atomic<int> counter{0};
    return "cascade_" + what + "_" + std::to_string(counter++);
}

// The user's Func as (x, y, c) float32 samples (a 2D Func is one channel).
Func planar(Func input, Type type = Float(32)) {
    Var x("x"), y("y"), c("c");
    if (input.dimensions() != 2 && input.dimensions() != 3)
        throw Error("cascade::funcs takes Funcs of 2 or 3 dimensions, (x, y) or (x, y, c); this one has " +
                    std::to_string(input.dimensions()));
    Func f(fresh("input"));
    f(x, y, c) = cast(type, input.dimensions() == 3 ? input(x, y, c) : input(x, y));
    return f;
}

// `f` with the origin moved by (mx, my), back in the user's Func's arguments: `f` itself where
// that changes nothing, so that the user may make it their pipeline's output.
Func view_of(Func f, int dimensions, Expr mx, Expr my) {
    if (dimensions == 3 && is_const_zero(mx) && is_const_zero(my)) return f;
    Var x("x"), y("y"), c("c");
    Func v(fresh("output"));
    if (dimensions == 3) {
        v(x, y, c) = f(x + mx, y + my, c);
    } else {
        v(x, y) = f(x + mx, y + my, 0);
    }
    return v;
}

// `image` extended by `boundary` along `dim` only and seen from −m there: position p along `dim`
// holds the extension's sample p − m of a line of n. `none` reads as `zero`.
Func extended_along(Func image, Dim dim, Boundary boundary, Expr n, Expr m) {
    Var x("x"), y("y"), c("c");
    Func e(fresh(dim == Dim::y ? "extended_y" : "extended_x"));
    Expr p = (dim == Dim::y ? Expr(y) : Expr(x)) - m;
    Expr index = boundary == Boundary::none || boundary == Boundary::zero
                     ? clamp(p, 0, n - 1)
                     : extended_index(int(boundary), p, n);
    Expr value = dim == Dim::y ? image(x, index, c) : image(index, y, c);
    if (boundary == Boundary::none || boundary == Boundary::zero)
        value = select(p >= 0 && p < n, value, 0.0f);
    e(x, y, c) = value;
    return e;
}

Expr margin_of(const Recursion &r, Boundary boundary) {
    if (boundary == Boundary::none) return 0;
    if (r.margin.defined()) return r.margin;
    throw Error(
        "cascade::funcs: a recursion with run-time coefficients needs its margin (Recursion::margin, "
        "margin_for) for boundaries other than none");
}

// The passes of one dimension: every section causally, then every section anticausally.
void add_passes(Serial &s, Func &current, const std::vector<Coefficients> &sections, Dim dim, Expr extent) {
    for (int direction = 0; direction < 2; direction++)
        for (const Coefficients &k : sections) {
            Func out(fresh(dim == Dim::y ? (direction == 0 ? "down" : "up")
                                         : (direction == 0 ? "right" : "left")));
            s.scans.push_back(direction == 0 ? causal(out, current, k, dim, extent)
                                             : anticausal(out, current, k, dim, extent));
            current = out;
        }
}

// Sections as constant coefficients, a first-order section without the zero second feedback that
// variant_sections gives it.
std::vector<Coefficients> coefficients_of(const std::vector<RecursiveFilter> &sections) {
    std::vector<Coefficients> result;
    for (const RecursiveFilter &f : sections) {
        Coefficients k{Expr(float(f.gain)), {}};
        size_t order = f.feedback.size();
        while (order > 1 && f.feedback[order - 1] == 0.0) order--;
        for (size_t i = 0; i < order; i++) k.a.push_back(Expr(float(f.feedback[i])));
        result.push_back(k);
    }
    return result;
}

Coefficients coefficients_of(const Recursion &r) {
    if (!r.gain.defined() || r.feedback.empty())
        throw Error("cascade::funcs: a recursion needs a gain and at least one feedback coefficient");
    return {cast<float>(r.gain), [&] {
                std::vector<Expr> a;
                for (const Expr &e : r.feedback) a.push_back(cast<float>(e));
                return a;
            }()};
}

// One dimension's filter of `image` (exact over [0, n) along `dim`): the image extended along
// `dim` only by the margin `m` (and the FIR's radius), an optional symmetric FIR of `taps`, the
// passes, and the result seen from the margin again. Extending one axis at a time is the 2D
// extension (it maps each axis's index alone), and the columns' passes then run on W columns, not
// W + 2m (4.6× less work at σ = 24 on 512², apps/camera_pipe).
Func one_dimension(Serial &s, Func image, const std::vector<Coefficients> &sections, Dim dim,
                   Boundary boundary, Expr n, Expr m, const std::vector<double> &taps) {
    Var x("x"), y("y"), c("c");
    const int radius = taps.empty() ? 0 : int(taps.size() / 2);
    Func current = boundary == Boundary::none && radius == 0
                       ? image
                       : extended_along(image, dim, boundary, n, m + radius);
    if (radius > 0) {
        RDom k(0, int(taps.size()), fresh("tap"));
        Buffer<float> t(int(taps.size()));
        for (size_t i = 0; i < taps.size(); i++) t(int(i)) = float(taps[i]);
        Func numerator(fresh(dim == Dim::y ? "numerator_y" : "numerator_x"));
        numerator(x, y, c) = sum(dim == Dim::y ? t(k) * current(x, y + k, c) : t(k) * current(x + k, y, c));
        s.maps.push_back(numerator);
        current = numerator;
    }
    add_passes(s, current, sections, dim, n + 2 * m);
    Func cropped(fresh(dim == Dim::y ? "columns" : "rows"));
    cropped(x, y, c) = dim == Dim::y ? current(x, y + m, c) : current(x + m, y, c);
    return cropped;
}

// The 2D filter: down the columns over the image extended by `my` there, then along the rows of
// that result extended by `mx`; with `taps`, each dimension's FIR numerator first.
Filtered separable(Func input, const std::vector<Coefficients> &vertical,
                   const std::vector<Coefficients> &horizontal, Boundary boundary, Expr width, Expr height,
                   Expr mx, Expr my, const std::vector<double> &taps = {}) {
    StagesPtr s;
    const std::shared_ptr<Serial> serial = serial_stages(s);
    Func image = planar(input);
    serial->maps.push_back(image);
    Func columns = one_dimension(*serial, image, vertical, Dim::y, boundary, height, my, taps);
    Func rows = one_dimension(*serial, columns, horizontal, Dim::x, boundary, width, mx, taps);
    s->view = view_of(rows, input.dimensions(), 0, 0);
    return Filtered(s);
}

// Rows per strip: what the prebuilt plans choose for float32 (runtime/strips.h) up to an overlap of
// 128 on images of 512 rows or more, and for wider filters on images to 1024 rows on 2 threads. A
// constant: a height computed in the pipeline from the image's leaves Halide 14 unable to bound a
// strip's windows (van Vliet σ 4 at 2048², 1266 ms against 13.8).
constexpr int kStripRows = 256;

// The blocked path on a CPU target: the prebuilt variants' strips over `input`, the columns'
// windows reaching `overlap` rows past each strip, the rows `row_overlap` columns past each end
// under an exact boundary, about the image's level where `level_gain` is defined.
Filtered strips(Func input, const std::vector<Coefficients> &vertical,
                const std::vector<Coefficients> &horizontal, Boundary boundary, Expr width, Expr height,
                Expr overlap, Expr row_overlap, Expr level_gain) {
    // Inlined into the windows' first reads: a point-wise producer of yours costs no pass of its
    // own (schedule yours at the root where it is costly).
    Func image = planar(input);
    std::optional<StripsExtension> exact;
    if (boundary != Boundary::none) exact = StripsExtension{Expr(int(boundary)), row_overlap, level_gain};
    Func out(fresh("strips"));
    StagesPtr s =
        funcs::strips(image, out, width, height, vertical, horizontal, overlap, kStripRows, exact, Float(32));
    s->view = view_of(out, input.dimensions(), 0, 0);
    return Filtered(s);
}

// The strips of a filter known at generator time, or nothing where its reach passes the strips'
// largest overlap.
std::optional<Filtered> constant_strips(Func input, const Filter2D &filter, Boundary boundary, Expr width,
                                        Expr height) {
    const auto vertical = variant_sections(filter.vertical, false, int(to_sections(filter.vertical).size()));
    const auto horizontal =
        variant_sections(filter.horizontal, false, int(to_sections(filter.horizontal).size()));
    const int overlap = strips_overlap(vertical), row_overlap = strips_row_overlap(horizontal);
    if (overlap < 0 || row_overlap < 0) return std::nullopt;
    const Expr level_gain =
        about_level(filter, boundary) ? Expr(float(dc_response(vertical) * dc_response(horizontal))) : Expr();
    return strips(input, coefficients_of(vertical), coefficients_of(horizontal), boundary, width, height,
                  overlap, row_overlap, level_gain);
}

// A recursion's filter where its coefficients are constants.
std::optional<RecursiveFilter> constant_filter(const Recursion &r) {
    auto value = [](const Expr &e) -> std::optional<double> {
        Expr simple = Internal::simplify(cast<double>(e));
        if (const double *v = Internal::as_const_float(simple)) return *v;
        if (const int64_t *i = Internal::as_const_int(simple)) return double(*i);
        return std::nullopt;
    };
    RecursiveFilter f;
    auto gain = value(r.gain);
    if (!gain) return std::nullopt;
    f.gain = *gain;
    for (const Expr &a : r.feedback) {
        auto v = value(a);
        if (!v) return std::nullopt;
        f.feedback.push_back(*v);
    }
    return f;
}

// The blocked path of a recursion per dimension given as Exprs: the strips of constants as a
// filter known at generator time, else run-time coefficients in the direct form, reaching their
// margins, about the level wherever the extension keeps a constant line constant (the filter is
// not known to need it or not).
std::optional<Filtered> recursion_strips(Func input, const Recursion &vertical, const Recursion &horizontal,
                                         Boundary boundary, Expr width, Expr height) {
    const auto v = constant_filter(vertical), h = constant_filter(horizontal);
    if (v && h) {
        require_stable(*v);
        require_stable(*h);
        return constant_strips(input, Filter2D{*v, *h}, boundary, width, height);
    }
    if (!vertical.margin.defined() || !horizontal.margin.defined())
        throw Error(
            "cascade::funcs: on the blocked path a recursion with run-time coefficients needs its margin "
            "(Recursion::margin, margin_for); or take Path::serial");
    auto dc = [](const Recursion &r) {
        Expr sum = 1.0f;
        for (const Expr &a : r.feedback) sum += cast<float>(a);
        Expr d = cast<float>(r.gain) / sum;
        return d * d;
    };
    const bool keeps_constants = boundary != Boundary::none && boundary != Boundary::zero;
    const Expr overlap = max(vertical.margin, 1);
    const Expr row_overlap =
        (max(horizontal.margin, 1) + kStripsRowAlignment - 1) / kStripsRowAlignment * kStripsRowAlignment;
    return strips(input, {coefficients_of(vertical)}, {coefficients_of(horizontal)}, boundary, width, height,
                  overlap, row_overlap, keeps_constants ? dc(vertical) * dc(horizontal) : Expr());
}

bool blocked_on_cpu(const Target &target, Path path) {
    return path == Path::blocked && !target.has_gpu_feature();
}

bool blocked_on_gpu(const Target &target, Path path) {
    return path == Path::blocked && target.has_gpu_feature();
}

// A dimension's cascade as the tiles scan it, constants.
SectionCascade cascade_of(const std::vector<RecursiveFilter> &sections) {
    SectionCascade c{Expr(float(sections[0].gain)), {}};
    for (const RecursiveFilter &f : sections) {
        std::vector<Expr> a;
        for (double v : f.feedback) a.push_back(Expr(float(v)));
        c.feedback.push_back(a);
    }
    return c;
}

// Algorithm 6 over `input` as the prebuilt GPU variants run it, with the tables `down` and `across`
// (and `edges` under an exact boundary), on tiles of b, `rows` tile rows a block loads per pass.
Filtered tiles_over(Func input, const SectionCascade &vertical, const SectionCascade &horizontal, Func down,
                    Func across, const ExactEdges *edges, int b, int rows, Expr width, Expr height,
                    const Target &target) {
    TileChoice choice;
    choice.tile = b;
    choice.rows = rows;
    // On an image of whole tiles the output is written in whole tiles, its stores untested:
    // 61.6 against 67.5 µs for the output pass at 4096² on an H200, none. So the region your
    // output buffer asks for must be the image.
    if (target.has_gpu_feature()) choice.output_full = [](Expr full) { return full; };
    choice.over_image = true;
    Func out(fresh("tiles"));
    StagesPtr s =
        tiles(planar(input), out, width, height, vertical, horizontal, down, across, edges, choice, target);
    s->view = view_of(out, input.dimensions(), 0, 0);
    return Filtered(s);
}

}  // namespace

// The blocked path on a CUDA target for a filter known at generator time: algorithm 6 (Nehab &
// Maximo 2016) as the prebuilt GPU variants run it, its tables embedded (tile_constants.h), the
// form and level decided as the prebuilt plans decide them where no tuning table names a
// variant (runtime/iir.cpp), on the tiles this build's variants of that form use
// (generators/CMakeLists.txt): the direct form of order 3 on tiles of 128, four rows a pass (van
// Vliet's Gaussian at 2048², reflect: 75.1 µs on an H100; sections on tiles of 64: 85.0), order 1
// and sections of order 2 on tiles of 64, two rows a pass.
Filtered constant_tiles(Func input, const Filter2D &filter, Boundary boundary, Expr width, Expr height,
                        const Target &target) {
    const int order = std::max(filter.vertical.order(), filter.horizontal.order());
    const bool direct = tiles_in_direct_form(filter), direct3 = direct && order == kBlockDirectOrder;
    const int b = direct3 ? CASCADE_IIR_DIRECT3_TILE : CASCADE_IIR_TILE;
    const int rows = direct3 ? CASCADE_IIR_DIRECT3_ROWS : CASCADE_IIR_ROWS;
    auto sections_of = [&](const RecursiveFilter &f) {
        return variant_sections(f, direct, direct ? f.order() : int(to_sections(f).size()));
    };
    const auto vertical = sections_of(filter.vertical), horizontal = sections_of(filter.horizontal);
    const bool exact = boundary != Boundary::none;
    const bool unit = TiledLayout::unit_gain_scans(exact);
    const bool same = filter.vertical.gain == filter.horizontal.gain &&
                      filter.vertical.feedback == filter.horizontal.feedback;
    const TileConstants down(unit ? with_unit_gains(vertical) : vertical, b);
    const std::optional<TileConstants> across =
        same
            ? std::nullopt
            : std::optional<TileConstants>(TileConstants(unit ? with_unit_gains(horizontal) : horizontal, b));
    ExactEdges edges;
    if (exact) {
        const EdgeConstants y_edges(vertical, b, boundary);
        const std::optional<EdgeConstants> x_edges =
            same ? std::nullopt : std::optional<EdgeConstants>(EdgeConstants(horizontal, b, boundary));
        edges.vertical = y_edges.edges(height);
        edges.horizontal = (x_edges ? *x_edges : y_edges).edges(width);
        if (tiles_about_level(filter, boundary, direct3))
            edges.level_gain = float(dc_response(vertical) * dc_response(horizontal));
    }
    return tiles_over(input, cascade_of(vertical), cascade_of(horizontal), down.table(height),
                      (across ? *across : down).table(width), exact ? &edges : nullptr, b, rows, width,
                      height, target);
}

// The blocked path on a CUDA target for recursions of run-time coefficients: algorithm 6 in the
// direct form, reading its tables from `tables` (tile_inputs.h), about the level wherever the
// extension keeps constants (the filter is not known to need it or not); each tile's rows a pass
// as this build's variants on that tile run them (the direct form of order 3, or the others).
Filtered input_tiles(Func input, const Recursion &vertical, const Recursion &horizontal, ImageParam tables,
                     Boundary boundary, Expr width, Expr height, const Target &target) {
    const Coefficients v = coefficients_of(vertical), h = coefficients_of(horizontal);
    const int order = std::max(v.order(), h.order()), b = input_tables::tile(order);
    if (order > input_tables::most_order(b))
        throw Error("cascade::funcs: a recursion with run-time coefficients runs on tiles to order " +
                    std::to_string(input_tables::most_order(b)) + ", not " + std::to_string(order) +
                    "; take Path::serial");
    const TileInputs in = tile_inputs(tables, v.order(), h.order(), boundary, width, height);
    return tiles_over(input, SectionCascade{v.b0, {v.a}}, SectionCascade{h.b0, {h.a}}, in.vertical,
                      in.horizontal, boundary != Boundary::none ? &in.edges : nullptr, b,
                      b == CASCADE_IIR_DIRECT3_TILE ? CASCADE_IIR_DIRECT3_ROWS : CASCADE_IIR_ROWS, width,
                      height, target);
}

namespace {

// The blocked path of a filter known at generator time on `target`, or nothing where it has none.
std::optional<Filtered> constant_blocked(Func input, const Filter2D &filter, Boundary boundary, Expr width,
                                         Expr height, const Target &target, Path path) {
    if (blocked_on_gpu(target, path)) return constant_tiles(input, filter, boundary, width, height, target);
    if (blocked_on_cpu(target, path)) return constant_strips(input, filter, boundary, width, height);
    return std::nullopt;
}

// Rows per strip of the CPU's summed-area tables: the prebuilt plans' 256 on large images
// (runtime/sat.cpp), a constant for the reason kStripRows is.
constexpr int kTableStripRows = 256;

// The GPU's tables: the build's default tiles of 64 and four rows a pass, each tile's corner
// summed in its block, as the prebuilt plans run images to 2^25 samples (runtime/sat_variant.h).
constexpr int kTableTile = 64, kTableRowsPerPass = 4;

// The blocked path's table of `samples` (x, y, c) over width × height, in `type`, seen through
// `view` (the table itself, or what is read from it): the GPU's tiles on a target with a GPU,
// else the CPU's strips.
Filtered table_blocked(Func samples, int dimensions, Expr width, Expr height, Type type,
                       const std::function<Func(Func)> &view, const Target &target) {
    Func table(fresh(target.has_gpu_feature() ? "sat_tiles" : "sat_strips"));
    // Tiles from (0, 0), as the prebuilt tables' (every block's tile known statically).
    StagesPtr s = target.has_gpu_feature()
                      ? table_tiles(samples, table, width, height, type,
                                    {kTableTile, "2r1w", kTableRowsPerPass, true, true})
                      : table_strips(samples, table, width, height, type, kTableStripRows);
    s->view = view_of(view(table), dimensions, 0, 0);
    return Filtered(s);
}

}  // namespace

Recursion constant(const RecursiveFilter &filter) {
    require_stable(filter);
    Recursion r{Expr(float(filter.gain)), {}, Expr(margin_for(filter))};
    for (double a : filter.feedback) r.feedback.push_back(Expr(float(a)));
    return r;
}

Filtered iir(Func input, const Recursion &vertical, const Recursion &horizontal, Boundary boundary,
             Expr width, Expr height, const Target &target, Path path) {
    if (blocked_on_gpu(target, path)) {
        const auto v = constant_filter(vertical), h = constant_filter(horizontal);
        if (v && h) {
            require_stable(*v);
            require_stable(*h);
            return constant_tiles(input, Filter2D{*v, *h}, boundary, width, height, target);
        }
    }
    if (blocked_on_cpu(target, path))
        if (auto f = recursion_strips(input, vertical, horizontal, boundary, width, height)) return *f;
    return separable(input, {coefficients_of(vertical)}, {coefficients_of(horizontal)}, boundary, width,
                     height, margin_of(horizontal, boundary), margin_of(vertical, boundary));
}

Filtered iir(Func input, const Recursion &vertical, const Recursion &horizontal, const ImageParam &tables,
             Boundary boundary, Expr width, Expr height, const Target &target, Path path) {
    if (blocked_on_gpu(target, path) && !(constant_filter(vertical) && constant_filter(horizontal)))
        return input_tiles(input, vertical, horizontal, tables, boundary, width, height, target);
    return iir(input, vertical, horizontal, boundary, width, height, target, path);
}

Filtered bspline(Func input, int degree, Boundary boundary, Expr width, Expr height, const Target &target,
                 Path path) {
    const RecursiveFilter f = bspline_prefilter(degree);
    if (auto s = constant_blocked(input, Filter2D{f, f}, boundary, width, height, target, path)) return *s;
    const Expr m = boundary == Boundary::none ? Expr(0) : Expr(margin_for(f));
    const auto sections = coefficients_of(to_sections(f));
    return separable(input, sections, sections, boundary, width, height, m, m);
}

Filtered gaussian(Func input, double sigma, GaussianMethod method, Boundary boundary, Expr width, Expr height,
                  const Target &target, Path path) {
    if (method == GaussianMethod::twoway) {
        const TwoWayGaussian g = two_way_gaussian(sigma);
        const int radius = int(g.kernel.size() / 2);
        // zero is none here: the first passes start from zero states, the centre taps read zeros.
        const bool extend = boundary != Boundary::none && boundary != Boundary::zero;
        const int m = extend ? std::max(int(decay_length(g.sections, 1e-9)), radius) : 0;
        std::vector<TwoWaySection> q;
        for (const RecursiveFilter &f : g.sections)
            q.push_back({Expr(float(f.gain)), Expr(float(f.feedback[0])),
                         Expr(float(f.order() > 1 ? f.feedback[1] : 0.0))});
        Buffer<float> taps(int(g.kernel.size()));
        for (size_t i = 0; i < g.kernel.size(); i++) taps(int(i)) = float(g.kernel[i]);
        Func kernel(fresh("kernel"));
        Var k;
        kernel(k) = taps(k);
        StagesPtr s;
        const std::shared_ptr<Serial> serial = serial_stages(s);
        Func image = planar(input);
        serial->maps.push_back(image);
        // One axis at a time, as separable() does; the centre of a line padded by m on both sides
        // is the line's own centre.
        auto step = [&](Func in, Dim dim, Expr n) {
            Var x("x"), y("y"), c("c");
            Func line = extend ? extended_along(in, dim, boundary, n, m) : in;
            Func out(fresh(dim == Dim::y ? "two_way_columns" : "two_way_rows"));
            serial->two_way.push_back(two_way_step(out, line, dim, n + 2 * m, q, kernel, radius));
            Func cropped(fresh("cropped"));
            cropped(x, y, c) = dim == Dim::y ? out(x, y + m, c) : out(x + m, y, c);
            return cropped;
        };
        Func rows = step(step(image, Dim::y, height), Dim::x, width);
        s->view = view_of(rows, input.dimensions(), 0, 0);
        return Filtered(s);
    }
    if (method == GaussianMethod::vanvliet) {
        const RecursiveFilter f = van_vliet_gaussian(sigma);
        if (auto s = constant_blocked(input, Filter2D{f, f}, boundary, width, height, target, path))
            return *s;
        const Expr m = boundary == Boundary::none ? Expr(0) : Expr(margin_for(f));
        const auto sections = coefficients_of(to_sections(f));
        return separable(input, sections, sections, boundary, width, height, m, m);
    }
    const FirIirGaussian g =
        method == GaussianMethod::deriche2 ? deriche2_gaussian(sigma) : deriche4_gaussian(sigma);
    const Expr m = boundary == Boundary::none ? Expr(0) : Expr(margin_for(g.pass));
    const auto sections = coefficients_of(to_sections(g.pass));
    return separable(input, sections, sections, boundary, width, height, m, m, g.taps);
}

Filtered summed_area_table(Func input, Expr width, Expr height, const Target &target, Type type, Path path) {
    // Read twice by the strips and the tiles: inlined into both reads.
    if (path == Path::blocked)
        return table_blocked(
            planar(input, type), input.dimensions(), width, height, type, [](Func t) { return t; }, target);
    StagesPtr s;
    const std::shared_ptr<Serial> serial = serial_stages(s);
    Func down(fresh("sat_columns")), across(fresh("sat_rows")), image = planar(input, type);
    serial->maps.push_back(image);
    serial->scans.push_back(prefix_sum(down, image, Dim::y, height));
    serial->scans.push_back(prefix_sum(across, down, Dim::x, width));
    s->view = view_of(across, input.dimensions(), 0, 0);
    return Filtered(s);
}

Filtered box(Func input, int radius, Boundary boundary, Expr width, Expr height, const Target &target,
             Path path) {
    if (radius < 0) throw Error("cascade::funcs::box: the radius must be ≥ 0, not " + std::to_string(radius));
    Var x("x"), y("y"), c("c");
    const int pad = radius + 1, window = 2 * radius + 1;
    const Expr area = Internal::make_const(Float(64), window * window);
    // Sample (x, y) of the padded image is the extension's (x − pad, y − pad); the window around
    // image sample x covers padded samples x + 1 … x + window, the difference of two prefix sums.
    Func samples(fresh("box_samples")), image = planar(input);
    Func padded =
        extended_along(extended_along(image, Dim::y, boundary, height, pad), Dim::x, boundary, width, pad);
    samples(x, y, c) = cast<double>(padded(x, y, c));
    if (path == Path::blocked)
        return table_blocked(
            samples, input.dimensions(), width + 2 * pad, height + 2 * pad, Float(64),
            [&](Func t) {
                Func mean(fresh("box_mean"));
                mean(x, y, c) = cast<float>(
                    (t(x + window, y + window, c) - t(x, y + window, c) - t(x + window, y, c) + t(x, y, c)) /
                    area);
                return mean;
            },
            target);
    StagesPtr s;
    const std::shared_ptr<Serial> serial = serial_stages(s);
    serial->maps.push_back(image);
    Func rows_sum(fresh("box_prefix_x")), rows(fresh("box_rows")), cols_sum(fresh("box_prefix_y"));
    serial->scans.push_back(prefix_sum(rows_sum, samples, Dim::x, width + 2 * pad));
    rows(x, y, c) = rows_sum(x + window, y, c) - rows_sum(x, y, c);
    serial->maps.push_back(rows);
    serial->scans.push_back(prefix_sum(cols_sum, rows, Dim::y, height + 2 * pad));
    Func mean(fresh("box_mean"));
    mean(x, y, c) = cast<float>((cols_sum(x, y + window, c) - cols_sum(x, y, c)) / area);
    s->view = view_of(mean, input.dimensions(), 0, 0);
    return Filtered(s);
}

}  // namespace cascade::funcs
