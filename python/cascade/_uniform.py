"""Uniform (box) filters as scipy.ndimage computes them: a window of `size` samples per axis,
placed by `origin`, under every mode."""


import numpy as np

from . import _native
from ._apply import separable
from ._arrays import Arrays, given_array
from ._modes import ArgumentError, boundary, filtered_axes, per_axis
from ._separable import Op


def _size(size):
    if isinstance(size, bool) or int(size) != size:
        raise ValueError(f"size must be an integer, not {size!r}")
    return int(size)


def _axis_op(size, origin, mode, cval, integer_output):
    b = boundary(mode)
    origin = int(origin)
    if not 0 <= size // 2 + origin < size:
        raise ValueError(f"invalid origin {origin} for size {size}: size // 2 + origin must be in [0, {size})")
    # The window of output i is in[i − size//2 − origin ...] (scipy's correlate1d centre).
    center = size // 2 + origin
    if integer_output:
        # Integer results are truncated: the sum of integers is exact, its quotient rounded
        # once, as scipy's running sum would be.
        return Op("fir", b, cval, taps=[1.0] * size, center=center, divide=size)
    return Op("fir", b, cval, taps=[1.0 / size] * size, center=center)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None, channel_axis=None,
                   method="fir"):
    """scipy.ndimage.uniform_filter: the mean over a window of `size` samples along every axis (or
    `axes`, less `channel_axis`); size, origin and mode once or per axis. method 'sat': Cascade's
    summed-area-table box (host float32 2D images, odd sizes, origin 0), any size at one cost."""
    if method == "sat":
        return _sat_box(input, size, output, mode, cval, origin, axes, channel_axis)
    if method != "fir":
        raise ValueError(f"method {method!r} is not 'fir' or 'sat'")

    def make(ndim, part, out_dtype, work):
        chosen = filtered_axes(ndim, axes, channel_axis)
        n = len(chosen)
        sizes, origins, modes = per_axis(size, n, "size"), per_axis(origin, n, "origin"), per_axis(mode, n, "mode")
        integer = np.dtype(out_dtype).kind in "iub"
        ops = {}
        for axis, s, o, m in zip(chosen, sizes, origins, modes):
            s = _size(s)
            if s > 1:  # scipy leaves axes of size 0 and 1 untouched
                ops[axis] = _axis_op(s, o, m, part(cval), integer)
            else:
                boundary(m)
        return ops

    return separable(input, output, make)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.uniform_filter1d: uniform_filter along one axis."""
    if _size(size) < 1:
        raise ArgumentError(f"size must be at least 1, not {size}")
    return uniform_filter(input, size, output, mode, cval, origin, axes=(axis,))


def _sat_box(input, size, output, mode, cval, origin, axes, channel_axis):
    arrays = Arrays(input)
    x = arrays.data
    if arrays.cuda:
        raise ValueError("method='sat' runs on host arrays: Cascade's box filter has no CUDA path yet")
    if axes is not None or x.ndim - (channel_axis is not None) != 2:
        raise ValueError("method='sat' filters 2D images ((H, W), or (H, W, C) with channel_axis)")
    if _size(size) < 1 or size % 2 == 0 or origin != 0:
        raise ValueError(f"method='sat' takes an odd size and origin 0 (a centred window), not size {size}")
    b = boundary(mode)
    if b == "zero" and cval != 0:
        raise ValueError("method='sat' takes cval=0 only")
    from ._tables import planes

    with arrays.context():
        stack, restore = planes(arrays, x, channel_axis)
        source = stack.astype(np.float32)
        result = np.empty_like(source)
        _native.box_mean(arrays, source, result, _size(size) // 2, b)
        result = restore(result)
        if output is None:
            output = x.dtype
        if given_array(output):
            output[...] = result
            return output
        return arrays.back(result.astype(output))
