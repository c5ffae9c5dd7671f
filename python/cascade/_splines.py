"""The B-spline interpolation prefilter (scipy.ndimage.spline_filter): the inverse of the
sampled B-spline, a causal–anticausal recursion per axis."""

import math
import numbers
from fractions import Fraction

import numpy as np

from . import _native
from ._apply import separable
from ._modes import ArgumentError, MODES, filtered_axes, per_axis
from ._separable import Op

ORDERS = (0, 1, 2, 3, 4, 5, 7, 9)

# scipy 1.10 starts its recursions from these extensions (its interpolation pads the lines of
# the other modes first): nearest as reflect, wrap and the constant modes as mirror, grid-wrap
# periodic. The same here, so the coefficients are scipy's.
_SPLINE_BOUNDARY = dict(MODES, nearest="reflect", wrap="mirror", constant="mirror", **{"grid-constant": "mirror"})


def bspline_samples(degree):
    """β^n(k), the centred B-spline of degree n at the integers k = −m..m of its support:
    β^n(x) = Σ_j (−1)^j C(n+1, j)·(x + (n+1)/2 − j)₊ⁿ / n!, in exact fractions."""
    n = degree
    half = Fraction(n + 1, 2)
    m = (n + 1) // 2 if n % 2 == 0 else n // 2 + 1
    samples = []
    for k in range(-m, m + 1):
        total = Fraction(0)
        for j in range(n + 2):
            t = k + half - j
            if t > 0:
                total += (-1) ** j * math.comb(n + 1, j) * t ** n
        samples.append(total / math.factorial(n))
    while samples and samples[0] == 0:
        samples = samples[1:-1]
    return samples


def prefilter(degree):
    """(gain, feedback) of the prefilter of `degree` ≥ 2: its poles are the roots inside the unit
    circle of Σ_k β(k)·z^k (they come in pairs p, 1/p); the causal pass gain/Π(1 − p z⁻¹) with
    gain = Π(1 − p) gives, run both ways, unit DC gain, as the inverse of a kernel that sums to 1."""
    if degree % 2 == 1:
        return _native.bspline_prefilter(degree)
    roots = np.roots([float(c) for c in bspline_samples(degree)])
    poles = np.sort(np.real(roots[np.abs(roots) < 1]))
    feedback = [float(a) for a in np.real(np.poly(poles))[1:]]
    return 1.0 + math.fsum(feedback), feedback


def _order(order):
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order not in ORDERS:
        raise ArgumentError(f"spline order {order!r} is not supported; use one of {', '.join(map(str, ORDERS))}")
    return int(order)


def _spline_boundary(mode):
    if not isinstance(mode, str) or mode not in _SPLINE_BOUNDARY:
        raise ArgumentError(f"mode {mode!r} is not supported; use one of {', '.join(sorted(_SPLINE_BOUNDARY))}")
    return _SPLINE_BOUNDARY[mode]


def _spline_ops(ndim, order, mode, axes, channel_axis):
    order = _order(order)
    chosen = filtered_axes(ndim, axes, channel_axis)
    modes = [_spline_boundary(m) for m in per_axis(mode, len(chosen), "mode")]
    if order < 2:
        return {}
    gain, feedback = prefilter(order)
    return {axis: Op("iir", b, gain=gain, feedback=feedback) for axis, b in zip(chosen, modes)}


def spline_filter(input, order=3, output=np.float64, mode="mirror", *, axes=None, channel_axis=None):
    """scipy.ndimage.spline_filter: the coefficients of the B-spline of `order` (2 to 5, 7, 9)
    that interpolates `input` along every axis (map_coordinates(..., prefilter=False) takes
    them); orders 0 and 1 return the input as `output`. float64 unless output says otherwise."""
    return separable(input, output, lambda ndim, part, out_dtype, work: _spline_ops(ndim, order, mode, axes, channel_axis))


def spline_filter1d(input, order=3, axis=-1, output=np.float64, mode="mirror"):
    """scipy.ndimage.spline_filter1d: spline_filter along one axis."""
    return separable(input, output, lambda ndim, part, out_dtype, work: _spline_ops(ndim, order, mode, (axis,), None))
