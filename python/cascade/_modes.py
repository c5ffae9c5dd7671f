"""scipy.ndimage's argument conventions: mode names as Cascade's boundaries, values given once or
per axis, and which axes a call filters."""

import numbers
from collections.abc import Iterable

import numpy as np


class ArgumentError(ValueError, RuntimeError):
    """A bad argument. Also a RuntimeError because scipy.ndimage raises that for the same
    mistakes (a wrong sequence length, an unknown mode), and code written for it catches it."""


# scipy.ndimage's modes as Cascade's boundaries (include/cascade/boundary.h). The grid- names
# differ from the others only where scipy interpolates, never for these filters.
MODES = {
    "reflect": "reflect",  # d c b a | a b c d | d c b a
    "grid-mirror": "reflect",
    "mirror": "mirror",  # d c b | a b c d | c b a
    "wrap": "periodic",
    "grid-wrap": "periodic",
    "nearest": "clamp",
    "constant": "zero",
    "grid-constant": "zero",
    "none": "none",  # Cascade's own: zero initial feedbacks, not an extension
}


def boundary(mode):
    if not isinstance(mode, str) or mode not in MODES:
        raise ArgumentError(f"mode {mode!r} is not supported; use one of {', '.join(sorted(MODES))}")
    return MODES[mode]


def per_axis(value, count, what):
    """`value` once for every axis, or one per axis (scipy's _normalize_sequence)."""
    if not isinstance(value, str) and isinstance(value, Iterable) and not (
            isinstance(value, np.ndarray) and value.ndim == 0):
        values = list(value)
        if len(values) != count:
            raise ArgumentError(f"{what} has {len(values)} values for {count} axes; give one, or one per axis")
        return values
    return [value] * count


def axis_index(axis, ndim):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"an axis is an integer, not {axis!r}")
    if not -ndim <= axis < ndim:
        raise np.AxisError(f"axis {axis} is out of bounds for an array of {ndim} axes")
    return int(axis) % ndim


def filtered_axes(ndim, axes=None, channel_axis=None):
    """The axes a call filters, ascending: `axes` (all by default) less `channel_axis`."""
    if axes is None:
        chosen = list(range(ndim))
    else:
        given = [axes] if isinstance(axes, numbers.Integral) else list(axes)
        chosen = [axis_index(a, ndim) for a in given]
        if len(set(chosen)) != len(chosen):
            raise ArgumentError(f"axes {tuple(given)} name an axis twice")
    if channel_axis is not None:
        channel = axis_index(channel_axis, ndim)
        if axes is not None and channel in chosen:
            raise ArgumentError(f"axis {channel} is both filtered (axes) and the channel_axis")
        chosen = [a for a in chosen if a != channel]
    return sorted(chosen) if axes is None else chosen


def per_filtered_axis(value, axes, what):
    """`value` given once, or once per filtered axis (scipy 1.11's convention with axes=)."""
    return per_axis(value, len(axes), what)
