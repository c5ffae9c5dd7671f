"""Any causal–anticausal recursion, along any axes."""

import math

import numpy as np

from . import _native
from ._apply import separable
from ._modes import boundary, filtered_axes, per_axis
from ._separable import Op


def iir_filter(input, feedback, gain=None, mode="reflect", cval=0.0, output=None, *, axes=None, channel_axis=None):
    """The causal–anticausal filter y[i] = gain·x[i] − Σ_k a_k·y[i−k], then
    z[i] = gain·y[i] − Σ_k a_k·z[i+k], along every axis (or `axes`, less `channel_axis`) of the
    input extended by `mode`. `gain` defaults to unit DC gain (1 + Σ a_k)."""
    feedback = [float(a) for a in np.atleast_1d(feedback)]
    gain = 1.0 + math.fsum(feedback) if gain is None else float(gain)
    _native.require_stable(gain, feedback)

    def make(ndim, part, out_dtype, work):
        chosen = filtered_axes(ndim, axes, channel_axis)
        modes = per_axis(mode, len(chosen), "mode")
        return {axis: Op("iir", boundary(m), part(cval), gain=gain, feedback=feedback) for axis, m in zip(chosen, modes)}

    return separable(input, output, make)
