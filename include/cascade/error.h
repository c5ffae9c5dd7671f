#pragma once
#include <stdexcept>
#include <string>

namespace cascade {

// Every failure a user can cause (bad file, bad coefficients, no device) is reported as an Error
// whose message is one line, ready to print after "cascade: error: ".
class Error : public std::runtime_error {
public:
    explicit Error(const std::string &message) : std::runtime_error(message) {}
};

}  // namespace cascade
