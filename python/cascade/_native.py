"""Every call into the native module `_cascade`, each behind one small function, so that a
binding's name or arguments change in one place. Arrays reach them C-contiguous, (N, H, W)."""

import functools

from . import _cascade

Error = _cascade.Error


# What the build holds is fixed for the process: asked once, not on every call (the native side
# chooses a plan per type to answer).
@functools.cache
def sample_types():
    """The dtype names the native pipelines take."""
    return tuple(_cascade.sample_types())


def require_type(name):
    if name not in sample_types():
        raise ValueError(f"this build of cascade's native module has no {name} pipelines (it has "
                         f"{', '.join(sample_types())}); compute in float32 with output=numpy.float32 "
                         f"and a float32 input, or rebuild Cascade")


def _capsule(arrays, a):
    return arrays.capsule(a)


def iir(arrays, src, dst, fy, fx, boundary):
    """Causal–anticausal recursions (gain, feedback) down the columns (fy) and along the rows (fx)."""
    _cascade.iir(_capsule(arrays, src), _capsule(arrays, dst), list(fy[1]), float(fy[0]), list(fx[1]),
                 float(fx[0]), boundary, arrays.stream)


def serial_calls():
    """A context in which the CPU pipelines this thread calls run on it alone."""
    return _cascade.SerialCalls()


def gaussian(arrays, src, dst, sigma, method, boundary):
    """A recursive Gaussian of both H and W, of one sigma."""
    _cascade.gaussian(_capsule(arrays, src), _capsule(arrays, dst), float(sigma), float(sigma), method, boundary,
                      arrays.stream)


def correlate1d(arrays, src, dst, taps, center, axis, boundary):
    """out[i] = Σ_j taps[j]·ext(in)[i + j − center] down H (axis 0) or along W (axis 1)."""
    _cascade.correlate1d(_capsule(arrays, src), _capsule(arrays, dst), [float(t) for t in taps], int(center),
                         int(axis), boundary, arrays.stream)


def fir2d(arrays, src, dst, fy, fx, boundary):
    """Both axes' FIRs (taps, center) in one pass: down H with fy, then along W with fx."""
    _cascade.fir2d(_capsule(arrays, src), _capsule(arrays, dst), [float(t) for t in fy[0]], int(fy[1]),
                   [float(t) for t in fx[0]], int(fx[1]), boundary, arrays.stream)


@functools.cache
def fir2d_largest_radius(cuda, dtype_name):
    """How far past its centre a tap of fir2d may reach on that device and type (0: no fir2d)."""
    return _cascade.fir2d_largest_radius(bool(cuda), dtype_name)


def summed_area_table(arrays, src, dst):
    _cascade.summed_area_table(_capsule(arrays, src), _capsule(arrays, dst), arrays.stream)


def sat_output_type(name, height, width):
    return _cascade.sat_output_type(name, height, width)


def box_mean(arrays, src, dst, radius, boundary):
    _cascade.box_mean(_capsule(arrays, src), _capsule(arrays, dst), int(radius), boundary)


def bspline_prefilter(degree):
    gain, feedback = _cascade.bspline_prefilter(int(degree))
    return float(gain), [float(a) for a in feedback]


def deriche4_cascade(sigma):
    """Deriche's 4th-order Gaussian as (taps, gain, feedback): a symmetric FIR over the all-pole pair."""
    taps, gain, feedback = _cascade.deriche4_cascade(float(sigma))
    return [float(t) for t in taps], float(gain), [float(a) for a in feedback]


def gaussian_method_names():
    return tuple(_cascade.gaussian_method_names())


def van_vliet_gaussian(sigma):
    gain, feedback = _cascade.van_vliet_gaussian(float(sigma))
    return float(gain), [float(a) for a in feedback]


def require_stable(gain, feedback):
    _cascade.require_stable(float(gain), [float(a) for a in feedback])


def chunk_carries(gain, feedback, n):
    """A chunk length's matrices (cascade/carries.h): we, wh, gu, gv (n × r), lc, mu, mv (r × r)."""
    return _cascade.chunk_carries(float(gain), [float(a) for a in feedback], int(n))


def solve_carries(gain, feedback, boundary, lengths, summaries):
    """Every chunk's entering states (lines × chunks × 2r) from their summaries."""
    return _cascade.solve_carries(float(gain), [float(a) for a in feedback], boundary, [int(n) for n in lengths],
                                  summaries)


def weighted_rows(lines, a, weights):
    """Σ_i weights[i, j]·lines[:, a + i, :] in float64 (before, k, after), host lines of float32 or
    float64 (before, n, after)."""
    return _cascade.weighted_rows(lines, int(a), weights)


def add_rows(lines, a, g, states):
    """lines[:, a + i, :] += Σ_j g[i, j]·states[:, j, :], in place, on the host."""
    _cascade.add_rows(lines, int(a), g, states)


def filter_lines(gain, feedback, boundary, lines):
    """Every line of a float64 (before, n, after) host array filtered exactly (none: from zero
    state), by plain loops: for short arrays."""
    return _cascade.filter_lines(float(gain), [float(a) for a in feedback], boundary, lines)


def carry_reach(gain, feedback):
    return _cascade.carry_reach(float(gain), [float(a) for a in feedback])


def carry_summary_width(order, boundary):
    return _cascade.carry_summary_width(int(order), boundary)


def cuda_devices():
    return _cascade.cuda_devices()


def release():
    _cascade.release()
