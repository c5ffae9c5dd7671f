#pragma once
// Option values that have a name on the command line and in the API: one table per enum serves
// both directions, and the error lists what is accepted.
#include <string>
#include <vector>

#include "cascade/error.h"

namespace cascade {

template <typename E>
struct Named {
    E value;
    const char *name;
};

// The value named `text`; throws cascade::Error "unknown <what> '<text>' (expected a, b or c)".
template <typename E, size_t N>
E parse_named(const std::string &text, const Named<E> (&table)[N], const char *what) {
    std::string expected;
    for (size_t k = 0; k < N; k++) {
        if (text == table[k].name) return table[k].value;
        expected += (k == 0 ? "" : k + 1 == N ? " or " : ", ") + std::string(table[k].name);
    }
    throw Error(std::string("unknown ") + what + " '" + text + "' (expected " + expected + ")");
}

// Every name of the table, in its order: what a command line or a binding offers.
template <typename E, size_t N>
std::vector<std::string> names_of(const Named<E> (&table)[N]) {
    std::vector<std::string> names;
    for (const Named<E> &entry : table) names.push_back(entry.name);
    return names;
}

template <typename E, size_t N>
const char *name_of(E value, const Named<E> (&table)[N]) {
    for (const Named<E> &entry : table)
        if (entry.value == value) return entry.name;
    return "?";
}

}  // namespace cascade
