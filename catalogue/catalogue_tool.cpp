// Turns catalogue manifests into the build's variants: one `cascade_add_variant` call per key, with
// the generator and the generator parameters the key's fields give. CMake compiles and runs it
// while configuring (cmake/CascadeCatalogue.cmake).
//
//   catalogue_tool OUT.cmake [--cuda] [--set NAME=VALUE]... [--catalogue FILE]...
//
// --set gives the build's default knobs (iir_tile, iir_rows, sat_tile, sat_rows, line_block,
// line_chunk, line_levels, line_strips_segment, line_strips_threads). A manifest is
// {"variants": [entry, ...]}; an entry's fields are a key's (docs/tuning.md, "Manifests"), and a
// field given as a list stands for each of its values: the entries are the lists' products. An
// entry whose schedule is not the build's own is an extra, which plans run only when asked for
// that schedule, unless it says "extra": false. An entry of nothing but "why" is a comment. A key
// listed twice is built once. Tuning manifests (`cascade tune --emit-manifest`) are catalogues too.
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "contract/variant_key.h"

using cascade::Family;
using cascade::VariantKey;
using nlohmann::json;

namespace {

std::map<std::string, int> defaults;

int setting(const std::string &name) {
    const auto it = defaults.find(name);
    if (it == defaults.end()) throw std::runtime_error("no --set " + name + "=VALUE");
    return it->second;
}

std::string type_name(const std::string &short_name) {
    static const std::map<std::string, std::string> names = {{"f32", "float32"}, {"f64", "float64"},
                                                             {"u8", "uint8"},    {"u16", "uint16"},
                                                             {"u32", "uint32"},  {"u64", "uint64"}};
    const auto it = names.find(short_name.empty() ? "f32" : short_name);
    if (it == names.end()) throw std::runtime_error("unknown sample type '" + short_name + "'");
    return it->second;
}

std::string text_of(const json &value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
    return value.dump();
}

std::string lower(std::string s) {
    for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// One entry with every list field replaced by one of its values, each combination once.
std::vector<json> expanded(const json &entry) {
    std::vector<json> out = {json::object()};
    for (const auto &[field, value] : entry.items()) {
        std::vector<json> next;
        const bool many = value.is_array() && field != "devices";
        for (const json &partial : out)
            for (const json &v : many ? value : json::array({value})) {
                json e = partial;
                e[field] = v;
                next.push_back(e);
            }
        out = next;
    }
    return out;
}

struct Build {
    VariantKey key;
    bool extra = false;
    std::string catalogue;  // the manifest's file name without its folder and extension
    std::string generator, executable;
    std::vector<std::string> params;
};

bool flag(const json &e, const char *field) { return e.contains(field) && e[field].get<bool>(); }

// A number, or a string naming a --set setting ("tile": "direct3_tile").
int number(const json &e, const char *field, int otherwise) {
    if (!e.contains(field)) return otherwise;
    return e[field].is_string() ? setting(e[field].get<std::string>()) : e[field].get<int>();
}

std::string word(const json &e, const char *field) { return e.contains(field) ? text_of(e[field]) : ""; }

// The key and the generator call of one expanded entry on `device`.
Build build_of(const json &e, const std::string &device) {
    static const std::set<std::string> known = {
        "family", "algorithm", "method", "sections",      "order",   "radius", "exact", "margin", "level",
        "passes", "samples",   "kind",   "extension",     "overlap", "tile",   "rows",  "scan",   "carries",
        "vector", "grain",     "block",  "autoscheduler", "devices", "extra",  "why"};
    for (const auto &[field, value] : e.items())
        if (!known.count(field)) throw std::runtime_error("unknown field '" + field + "'");
    Build b;
    VariantKey &k = b.key;
    k.device = device;
    const std::string family = e.contains("family") ? e["family"].get<std::string>() : "iir";
    const std::string algorithm = word(e, "algorithm");
    const int sections = number(e, "sections", 0);
    k.sections = sections > 0;
    k.order = sections > 0 ? sections : number(e, "order", 1);
    k.exact = flag(e, "exact");
    k.margin = flag(e, "margin");
    k.level = flag(e, "level");
    k.autoscheduler = lower(word(e, "autoscheduler"));
    for (const char *knob : cascade::kKnobOrder)
        if (e.contains(knob))
            k.knobs += (k.knobs.empty() ? "" : ",") + std::string(knob) + "=" + text_of(e[knob]);
    const std::string size = std::to_string(sections > 0 ? 2 * sections : k.order);
    const std::vector<std::string> filter = {"exact=" + std::string(k.exact ? "true" : "false"),
                                             "level=" + std::string(k.level ? "true" : "false"),
                                             "margin=" + std::string(k.margin ? "true" : "false"),
                                             "sections=" + std::to_string(sections)};
    const auto knob_params = [&] {
        std::stringstream items(k.knobs);
        for (std::string item; std::getline(items, item, ',');) b.params.push_back(item);
    };
    if (family == "iir" && algorithm == "rt") {
        k.family = Family::iir_rt;
        k.passes = word(e, "passes");
        b.generator = "iir_rt";
        b.params = filter;
        if (!k.passes.empty()) b.params.push_back("passes=" + k.passes);
        knob_params();
        b.params.push_back("feedback_y.size=" + size);
        b.params.push_back("feedback_x.size=" + size);
    } else if (family == "iir" && algorithm == "strips") {
        k.family = Family::iir_strips;
        k.sections = true;
        k.samples = word(e, "samples");
        b.generator = "iir_strips";
        k.passes = word(e, "passes");
        b.params = {"sections=" + std::to_string(sections), "samples=" + type_name(k.samples)};
        if (k.exact) b.params.push_back("exact=true");
        if (k.level) b.params.push_back("level=true");
        if (!k.passes.empty()) b.params.push_back("passes=" + k.passes);
    } else if (family == "iir") {
        k.family = Family::iir_tiled;
        k.algorithm = std::stoi(algorithm);
        k.samples = word(e, "samples");
        k.tile = number(e, "tile", setting("iir_tile"));
        k.rows = number(e, "rows", setting("iir_rows"));
        b.generator = "iir_tiled";
        b.params = {"algorithm=" + algorithm, "tile=" + std::to_string(k.tile),
                    "rows=" + std::to_string(k.rows), "samples=" + type_name(k.samples)};
        b.params.insert(b.params.end(), filter.begin(), filter.end());
        knob_params();
        b.params.push_back("coefficients=" + size);
    } else if (family == "line") {
        k.algorithm = std::stoi(algorithm);
        const std::string common = "sections=" + std::to_string(sections);
        if (word(e, "method") == "segments") {
            k.family = Family::line_strips;
            k.overlap = number(e, "overlap", 0);
            b.generator = "line_strips";
            b.params = {"passes=" + algorithm, "overlap=" + std::to_string(k.overlap),
                        "segment=" + std::to_string(setting("line_strips_segment")),
                        "threads=" + std::to_string(setting("line_strips_threads"))};
            if (k.exact) b.params.push_back("exact=true");
        } else {
            k.family = Family::iir_line;
            b.generator = "iir_line";
            b.params = {"algorithm=" + algorithm, "block=" + std::to_string(setting("line_block")),
                        "chunk=" + std::to_string(setting("line_chunk")),
                        "levels=" + std::to_string(setting("line_levels")),
                        "rows=" + std::to_string(setting("iir_rows"))};
        }
        b.params.push_back(common);
        b.params.push_back("feedback.size=" + size);
    } else if (family == "sat") {
        k.family = Family::sat;
        k.kind = word(e, "kind");
        k.samples = word(e, "samples");
        k.order = 0;
        const std::string in = k.samples.substr(0, k.samples.find('_'));
        const std::string out = type_name(k.samples.substr(k.samples.find('_') + 1));
        const std::string tiles = "tile=" + std::to_string(setting("sat_tile"));
        const std::string rows = "rows=" + std::to_string(setting("sat_rows"));
        b.params = {"input.type=" + type_name(in)};
        if (k.kind == "naive" || k.kind == "strips") {
            b.generator = "sat_" + k.kind + "_" + out;
            b.executable = "sat_" + k.kind + ".generator";
        } else if (k.kind == "1r1w_stage") {
            b.generator = "sat_stage_" + out;
            b.executable = "sat_stage.generator";
            b.params.push_back(rows);
        } else if (k.kind == "2r1w_bounded") {
            b.generator = "sat_bounded_" + out;
            b.executable = "sat_tiled.generator";
            b.params = {"algorithm=2r1w", b.params[0], tiles, rows};
        } else if (k.kind == "overlapped" || k.kind == "2r1w" || k.kind == "2r1w_corner_kernel") {
            b.generator = "sat_tiled_" + out;
            b.executable = "sat_tiled.generator";
            b.params = {"algorithm=" + k.kind.substr(0, k.kind.find("_corner"))};
            if (k.kind == "2r1w_corner_kernel") b.params.push_back("corner=kernel");
            b.params.insert(b.params.end(), {"input.type=" + type_name(in), tiles, rows});
        } else {
            throw std::runtime_error("unknown summed-area table kind '" + k.kind + "'");
        }
    } else if (family == "fir") {
        k.family = Family::fir;
        k.kind = word(e, "extension");
        k.order = number(e, "radius", 1);
        b.generator = "fir";
        b.params = {"radius=" + std::to_string(k.order)};
        if (!k.kind.empty()) b.params.push_back("extension=" + k.kind);
    } else if (family == "correlate") {
        k.family = Family::correlate;
        k.passes = word(e, "passes");
        k.samples = word(e, "samples");
        k.order = 0;
        b.generator = "correlate";
        b.params = {"axis=" + k.passes, "input.type=" + type_name(k.samples),
                    "output.type=" + type_name(k.samples)};
    } else if (family == "fir2d") {
        k.family = Family::fir2d;
        k.samples = word(e, "samples");
        k.order = number(e, "radius", 16);
        b.generator = "fir2d";
        b.params = {"radius=" + std::to_string(k.order), "samples=" + type_name(k.samples)};
    } else if (family == "twoway") {
        k.family = Family::twoway;
        k.kind = word(e, "kind");
        k.sections = false;
        b.generator = "twoway";
        b.params = {"sections=" + std::to_string(sections)};
        if (k.kind == "first_order_last") b.params.push_back("first_order_last=true");
        if (k.exact) b.params.push_back("exact=true");
    } else {
        throw std::runtime_error("unknown family '" + family + "' (algorithm '" + algorithm + "')");
    }
    if (b.executable.empty()) b.executable = b.generator + ".generator";
    return b;
}

// The schedule a key gets where the manifest names none: what plans run unless asked otherwise.
bool default_schedule(const VariantKey &k) {
    const bool tiled = k.family == Family::iir_tiled;
    return k.autoscheduler.empty() && k.knobs.empty() &&
           (!tiled || (k.tile == setting("iir_tile") && k.rows == setting("iir_rows")));
}

std::string autoscheduler_target(const std::string &name) {
    static const std::map<std::string, std::string> targets = {
        {"li2018", "Li2018"}, {"adams2019", "Adams2019"}, {"mullapudi2016", "Mullapudi2016"}};
    const auto it = targets.find(name);
    if (it == targets.end()) throw std::runtime_error("no Halide autoscheduler '" + name + "'");
    return "Halide::" + it->second;
}

}  // namespace

int main(int argc, char **argv) try {
    if (argc < 2) throw std::runtime_error("usage: catalogue_tool OUT.cmake [options] (see its source)");
    bool cuda = false;
    std::vector<std::string> manifests;
    for (int i = 2; i < argc; i++) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--cuda") {
            cuda = true;
        } else if (arg == "--set") {
            const std::string kv = value();
            defaults[kv.substr(0, kv.find('='))] = std::stoi(kv.substr(kv.find('=') + 1));
        } else if (arg == "--catalogue") {
            manifests.push_back(value());
        } else {
            throw std::runtime_error("unknown argument '" + arg + "'");
        }
    }
    std::vector<Build> builds;
    std::map<std::string, size_t> index;  // name → builds
    for (const std::string &file : manifests) {
        std::ifstream in(file);
        if (!in) throw std::runtime_error("cannot read " + file);
        const json manifest = json::parse(in);
        size_t n = 0;
        for (const json &entry : manifest.at("variants")) {
            if (entry.size() == 1 && entry.contains("why")) continue;
            for (const json &e : expanded(entry)) {
                n++;
                std::vector<std::string> devices = {"cpu", "cuda"};
                if (e.contains("devices")) devices = e["devices"].get<std::vector<std::string>>();
                for (const std::string &device : devices) {
                    if (device == "cuda" && !cuda) continue;
                    Build b;
                    try {
                        b = build_of(e, device);
                        b.extra = e.contains("extra") ? e["extra"].get<bool>() : !default_schedule(b.key);
                        if (cascade::VariantKey::parse(b.key.name()).name() != b.key.name())
                            throw std::runtime_error("the key does not read back");
                    } catch (const std::exception &err) {
                        throw std::runtime_error(file + ": " + e.dump() + ": " + err.what());
                    }
                    b.catalogue = file.substr(file.find_last_of('/') + 1);
                    b.catalogue = b.catalogue.substr(0, b.catalogue.rfind('.'));
                    const auto [it, fresh] = index.insert({b.key.name(), builds.size()});
                    if (fresh) {
                        builds.push_back(b);
                    } else {
                        builds[it->second].extra = builds[it->second].extra && b.extra;
                    }
                }
            }
        }
        std::cerr << "Catalogue " << file << ": " << n << " entries\n";
    }
    std::ostringstream out;
    out << "# Generated by catalogue/catalogue_tool.cpp from the catalogue manifests: do not edit.\n";
    for (const Build &b : builds) {
        out << "cascade_add_variant(" << b.key.name() << " " << (b.extra ? 1 : 0) << " " << b.key.device
            << " CATALOGUE " << b.catalogue << " GENERATOR " << b.generator << " FROM " << b.executable;
        if (!b.key.autoscheduler.empty())
            out << " AUTOSCHEDULER " << autoscheduler_target(b.key.autoscheduler);
        out << " PARAMS";
        for (const std::string &p : b.params) out << " " << p;
        out << ")\n";
    }
    // Written only when changed, so that an unchanged catalogue reconfigures without rebuilding.
    std::ifstream old(argv[1]);
    std::stringstream before;
    before << old.rdbuf();
    if (before.str() != out.str()) std::ofstream(argv[1]) << out.str();
    std::cerr << "Catalogue: " << builds.size() << " variants\n";
    return 0;
} catch (const std::exception &e) {
    std::cerr << "catalogue_tool: " << e.what() << "\n";
    return 1;
}
