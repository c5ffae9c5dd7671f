#include "contract/variant_key.h"

#include <cctype>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace cascade {

namespace {

constexpr const char *kPasses[] = {"columns", "rows", "causal", "anticausal"};
constexpr const char *kAutoschedulers[] = {"li2018", "adams2019", "mullapudi2016"};
constexpr const char *kFirKinds[] = {"periodic", "reflect", "mirror", "margin"};
constexpr const char *kSampleTypes[] = {"f64", "u8", "u16"};
constexpr const char *kSatTypes[] = {"f32", "u8", "u16", "u32", "u64"};

template <size_t N>
bool one_of(const std::string &text, const char *const (&names)[N]) {
    for (const char *n : names)
        if (text == n) return true;
    return false;
}

// "w64" → 64 (prefix "w"); −1 where `token` is not the prefix and digits.
int number_after(const std::string &token, const std::string &prefix) {
    if (token.size() <= prefix.size() || token.compare(0, prefix.size(), prefix) != 0) return -1;
    for (size_t k = prefix.size(); k < token.size(); k++)
        if (!std::isdigit(static_cast<unsigned char>(token[k]))) return -1;
    return std::stoi(token.substr(prefix.size()));
}

// The stem, the part of the name that says the family and its algorithm.
std::string stem(const VariantKey &k) {
    switch (k.family) {
        case Family::iir_rt:
            return "iir_rt";
        case Family::iir_tiled:
            return "iir_a" + std::to_string(k.algorithm);
        case Family::iir_strips:
            return "iir_strips";
        case Family::iir_line:
            return "iir_line" + std::to_string(k.algorithm);
        case Family::line_strips:
            return "line_strips" + std::to_string(k.algorithm);
        case Family::sat:
            return "sat_" + k.kind + "_" + k.samples;
        case Family::fir:
            return k.kind.empty() ? "fir" : "fir_" + k.kind;
        case Family::correlate:
            return "correlate";
        case Family::fir2d:
            return "fir2d";
        case Family::twoway:
            return k.kind.empty() ? "twoway" : "twoway_" + k.kind;
    }
    return "?";
}

}  // namespace

bool canonical_knobs(const std::string &knobs) {
    std::stringstream in(knobs);
    size_t next = 0;  // keys before it are used up
    for (std::string item; std::getline(in, item, ',');) {
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq + 1 == item.size()) return false;
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        for (char ch : value)
            if (!std::isalnum(static_cast<unsigned char>(ch))) return false;
        while (next < std::size(kKnobOrder) && key != kKnobOrder[next]) next++;
        if (next == std::size(kKnobOrder)) return false;
        next++;
    }
    return !knobs.empty() && knobs.back() != ',';
}

std::string VariantKey::computes() const {
    std::string n = stem(*this);
    if (sections) n += "_sections";
    if (!passes.empty()) n += "_" + passes;
    if (exact) n += "_exact";
    if (margin) n += "_margin";
    if (level) n += "_level";
    if (family != Family::sat && !samples.empty()) n += "_" + samples;
    if (overlap > 0) n += "_w" + std::to_string(overlap);
    return n;
}

std::string VariantKey::name() const {
    std::string n = computes();
    if (tile > 0 || rows > 0) n += "_t" + std::to_string(tile) + "r" + std::to_string(rows);
    if (!autoscheduler.empty()) n += "_" + autoscheduler;
    std::stringstream items(knobs);
    for (std::string item; std::getline(items, item, ',');) {
        const size_t eq = item.find('=');
        n += "_" + item.substr(0, eq) + (eq == std::string::npos ? "" : item.substr(eq + 1));
    }
    return n + "_o" + std::to_string(order) + "_" + device;
}

bool VariantKey::same_filter(const VariantKey &o) const {
    return family == o.family && algorithm == o.algorithm && sections == o.sections && passes == o.passes &&
           exact == o.exact && margin == o.margin && level == o.level && samples == o.samples &&
           kind == o.kind && overlap == o.overlap && device == o.device;
}

VariantKey VariantKey::parse(const std::string &text) {
    const auto bad = [&](const std::string &why) {
        return std::invalid_argument("variant key '" + text + "': " + why);
    };
    std::vector<std::string> t;
    {
        std::stringstream in(text);
        for (std::string token; std::getline(in, token, '_');) t.push_back(token);
    }
    size_t i = 0;
    const auto at = [&](size_t k) { return k < t.size() ? t[k] : std::string(); };
    const auto take = [&](const std::string &token) {
        if (at(i) != token) return false;
        i++;
        return true;
    };
    VariantKey k;
    int n = -1;
    if (at(0) == "iir" && at(1) == "rt") {
        k.family = Family::iir_rt;
        i = 2;
    } else if (at(0) == "iir" && (n = number_after(at(1), "a")) >= 0) {
        k.family = Family::iir_tiled;
        k.algorithm = n;
        i = 2;
    } else if (at(0) == "iir" && at(1) == "strips") {
        k.family = Family::iir_strips;
        i = 2;
    } else if (at(0) == "iir" && (n = number_after(at(1), "line")) >= 0) {
        k.family = Family::iir_line;
        k.algorithm = n;
        i = 2;
    } else if (at(0) == "line" && (n = number_after(at(1), "strips")) >= 0) {
        k.family = Family::line_strips;
        k.algorithm = n;
        i = 2;
    } else if (at(0) == "sat") {
        k.family = Family::sat;
        // The kind runs up to the two sample types.
        for (i = 1; i + 1 < t.size() && !(one_of(t[i], kSatTypes) && one_of(t[i + 1], kSatTypes)); i++)
            k.kind += (k.kind.empty() ? "" : "_") + t[i];
        if (k.kind.empty() || i + 1 >= t.size()) throw bad("a table needs a kind and two sample types");
        k.samples = t[i] + "_" + t[i + 1];
        i += 2;
    } else if (at(0) == "fir") {
        k.family = Family::fir;
        i = 1;
        if (one_of(at(1), kFirKinds)) k.kind = t[i++];
    } else if (at(0) == "correlate") {
        k.family = Family::correlate;
        i = 1;
    } else if (at(0) == "fir2d") {
        k.family = Family::fir2d;
        i = 1;
    } else if (at(0) == "twoway") {
        k.family = Family::twoway;
        i = 1;
        if (at(1) == "first" && at(2) == "order" && at(3) == "last") {
            k.kind = "first_order_last";
            i = 4;
        }
    } else {
        throw bad("unknown family");
    }
    k.sections = take("sections");
    if (one_of(at(i), kPasses)) k.passes = t[i++];
    k.exact = take("exact");
    k.margin = take("margin");
    k.level = take("level");
    if (one_of(at(i), kSampleTypes)) k.samples = t[i++];
    if ((n = number_after(at(i), "w")) > 0) {
        k.overlap = n;
        i++;
    }
    if (at(i).size() > 1 && at(i)[0] == 't') {
        const std::string s = at(i);
        const size_t r = s.find('r');
        if (r == std::string::npos || number_after(s.substr(0, r), "t") < 0 ||
            number_after(s.substr(r), "r") < 0)
            throw bad("malformed tile schedule '" + s + "'");
        k.tile = number_after(s.substr(0, r), "t");
        k.rows = number_after(s.substr(r), "r");
        i++;
    }
    if (one_of(at(i), kAutoschedulers)) k.autoscheduler = t[i++];
    for (const char *key : kKnobOrder) {
        const std::string token = at(i), prefix = key;
        if (token.size() > prefix.size() && token.compare(0, prefix.size(), prefix) == 0) {
            k.knobs += (k.knobs.empty() ? "" : ",") + prefix + "=" + token.substr(prefix.size());
            i++;
        }
    }
    if ((n = number_after(at(i), "o")) < 0) throw bad("no order (_o<r>) where '" + at(i) + "' stands");
    k.order = n;
    i++;
    if (at(i) != "cpu" && at(i) != "cuda") throw bad("no device (cpu or cuda) at its end");
    k.device = t[i++];
    if (i != t.size()) throw bad("'" + t[i] + "' after the device");
    if (k.name() != text) throw bad("not in canonical order (it reads back as '" + k.name() + "')");
    return k;
}

}  // namespace cascade
