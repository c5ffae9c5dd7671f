#include "twoway.h"

#include <cmath>

#include "gaussian.h"

namespace cascade {

TwoWayGaussian two_way_gaussian(double sigma) {
    TwoWayGaussian g;
    for (RecursiveFilter s : to_sections(van_vliet_gaussian(sigma))) {
        s.gain = unit_dc_gain(s.feedback);
        g.sections.push_back(s);
    }
    g.kernel = sampled_gaussian(sigma, int(std::ceil(4 * sigma)));
    return g;
}

}  // namespace cascade
