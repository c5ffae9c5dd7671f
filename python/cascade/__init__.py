"""Cascade: recursive (IIR) image filters, exact at the borders, as a drop-in for the
recursive-filterable functions of scipy.ndimage (docs/python.md), on NumPy arrays (CPU), on
CUDA arrays (CuPy, PyTorch) in place, and on Dask arrays of either, lazily and exactly across
chunks (docs/dask.md).

    import cascade
    blurred = cascade.gaussian_filter(volume, 4.0)                # every axis, mode='reflect'
    coefficients = cascade.spline_filter(image, order=3)          # mode='mirror', float64
    table = cascade.summed_area_table(image)

Every axis is filtered unless `axes`, a zero sigma or `channel_axis` leaves it out; parameters
are given once or per axis; the output follows scipy's rules (a dtype, an array, in place).
"""

import atexit as _atexit

from . import _native
from ._gaussian import gaussian_filter, gaussian_filter1d, gaussian_gradient_magnitude, gaussian_laplace
from ._iir import iir_filter
from ._native import Error
from ._splines import spline_filter, spline_filter1d
from ._tables import summed_area_table
from ._uniform import uniform_filter, uniform_filter1d

# Plans and kept device memory go before the CUDA driver shuts down.
_atexit.register(_native.release)

__all__ = ["gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude", "spline_filter",
           "spline_filter1d", "uniform_filter", "uniform_filter1d", "iir_filter", "summed_area_table", "Error"]
