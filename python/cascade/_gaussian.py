"""Gaussian filters: scipy's exact kernel (FIR) where it is short or a derivative, a recursive
Gaussian whose cost does not grow with sigma where it is long."""

import functools
import numbers

import numpy as np

from . import _dask, _native
from ._apply import separable
from ._arrays import Arrays, check_type, given_array, output_for
from ._modes import boundary, filtered_axes, per_axis
from ._separable import Op

# Kernels of this radius or shorter run as the FIR (exact), longer ones of order 0 recursively:
# where the two take the same time, per device and type (8192² on an H200, 2048² on 2 CPU cores;
# fir2d reaches radius 32 in float32 and 16 in float64 on CUDA, past it one pass an axis costs
# 11 ms against the recursion's 4.6; the CPU's FIR passes reach 50 ms at radius 192 in float32, the
# recursion 57).
CROSSOVER_RADIUS = {(True, "float32"): 32, (True, "float64"): 16, (False, "float32"): 192, (False, "float64"): 96}


def crossover_radius(work):
    """The longest kernel `auto` runs as an FIR where `work` (a Work) runs."""
    return CROSSOVER_RADIUS[(work.cuda, "float64" if np.dtype(work.dtype) == np.float64 else "float32")]
# The recursive filters approximate the untruncated Gaussian; a kernel truncated closer than
# this many sigmas differs from it by more than the recursion's own error, so it stays an FIR.
_RECURSIVE_MIN_TRUNCATE = 3.5
# Cascade's own paths, then the runtime's recursive Gaussians (deriche2, deriche4, twoway, vanvliet).
METHODS = ("auto", "fir") + tuple(_native.gaussian_method_names())
# The native 2D Gaussian's range for deriche4 (float32 cannot hold its cascade form beyond).
_NATIVE_DERICHE4_MAX_SIGMA = 4.0
# Past this sigma even float64 cannot hold the cascade form: its taps grow like sigma⁶ and its
# poles crowd 1, and the cancellation costs more digits than are left for 5e-4 (measured:
# 3e-4 from the Gaussian up to sigma 80, 1.2e-3 at 100, 5e-2 at 200).
_CASCADE_MAX_SIGMA = 64.0


@functools.lru_cache(maxsize=64)
def gaussian_kernel(sigma, order, radius):
    """scipy's kernel: exp(−x²/2σ²) on −radius..radius, normalised to sum 1, times the polynomial
    q_order with q_0 = 1 and q_{k+1} = q_k′ − x·q_k/σ² (the order-th derivative of the Gaussian).
    Kept for the next call of the same arguments, so read-only."""
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / (sigma * sigma) * x ** 2)
    kernel = phi / phi.sum()
    if order:
        q = np.zeros(order + 1)  # q[k] is the coefficient of x^k
        q[0] = 1.0
        powers = np.arange(order + 1)
        for _ in range(order):
            derivative = np.zeros_like(q)
            derivative[:-1] = q[1:] * powers[1:]
            times_x = np.zeros_like(q)
            times_x[1:] = q[:-1]
            q = derivative - times_x / (sigma * sigma)
        kernel = (x[:, None] ** powers).dot(q) * kernel
    kernel.flags.writeable = False
    return kernel


def _radius(sigma, truncate, radius):
    r = int(truncate * sigma + 0.5) if radius is None else radius
    if isinstance(r, bool) or not isinstance(r, numbers.Integral) or r < 0:
        raise ValueError(f"radius must be a nonnegative integer, not {radius!r}")
    return int(r)


def _axis_op(sigma, order, mode, cval, truncate, radius, method, crossover):
    """The operation of one axis, before the last two axes' native pairing is decided."""
    b = boundary(mode)
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order < 0:
        raise ValueError(f"order must be a nonnegative integer, not {order!r}")
    r = _radius(sigma, truncate, radius)
    if method not in METHODS:
        raise ValueError(f"method {method!r} is not one of {', '.join(METHODS)}")
    if method == "auto":
        long = r > crossover and r >= _RECURSIVE_MIN_TRUNCATE * sigma
        recursive = order == 0 and long and sigma <= _CASCADE_MAX_SIGMA
        method = "deriche4" if recursive else "fir"
    if method == "fir":
        # scipy correlates with the reversed kernel (a convolution), centred.
        return Op("fir", b, cval, taps=list(gaussian_kernel(sigma, order, r)[::-1]), center=r)
    if order != 0:
        raise ValueError(f"method {method!r} is a Gaussian of order 0; derivatives (order {order}) use 'fir' or 'auto'")
    if sigma < 0.5:
        raise ValueError(f"sigma {sigma} is below 0.5, the recursive methods' range; use method='fir' or 'auto'")
    if method == "vanvliet":
        gain, feedback = _native.van_vliet_gaussian(sigma)
        return Op("iir", b, cval, gain=gain, feedback=feedback, exact=False)
    return Op("gaussian", b, cval, sigma=float(sigma), method=method, exact=False)


def _cascade_op(op):
    taps, gain, feedback = _native.deriche4_cascade(op.sigma)
    return Op("cascade", op.boundary, op.cval, taps=taps, center=len(taps) // 2, gain=gain, feedback=feedback,
              exact=False, float64=True)


def _settle(ops, compute):
    """The native 2D Gaussian filters the last two axes together with one sigma, deriche4 in
    float32 only: where the axes are not such a pair or the data is float64 (`compute`), deriche4
    runs as its cascade form (float64); of the others vanvliet runs float64 data, the rest are
    refused."""
    axes = sorted(ops)
    native = [a for a in axes if ops[a].kind == "gaussian"]
    pair = axes[-2:]
    paired = (len(pair) == 2 and all(ops[a].kind == "gaussian" for a in pair)
              and ops[pair[0]].key() == ops[pair[1]].key())
    for a in native:
        op = ops[a]
        fits = paired and a in pair
        wide = np.dtype(compute) == np.float64
        if op.method == "deriche4" and (not fits or wide or op.sigma > _NATIVE_DERICHE4_MAX_SIGMA):
            if op.sigma > _CASCADE_MAX_SIGMA:
                raise ValueError(f"deriche4 holds its accuracy up to sigma {_CASCADE_MAX_SIGMA:g}, not {op.sigma:g}; "
                                 "use method='auto' or 'fir'")
            ops[a] = _cascade_op(op)
        elif not fits:
            raise ValueError(f"method {op.method!r} filters the last two filtered axes together with one sigma "
                             "and mode; use 'deriche4', 'vanvliet' or 'fir' for other axes")
        elif wide and op.method != "vanvliet":
            raise ValueError(f"method {op.method!r} filters float32 data; float64 runs with 'deriche4', 'vanvliet' "
                             "or 'fir'")
    return ops


def _gaussian_ops(ndim, sigma, order, mode, cval, truncate, radius, axes, method, channel_axis, work):
    chosen = filtered_axes(ndim, axes, channel_axis)
    n = len(chosen)
    sigmas = per_axis(sigma, n, "sigma")
    orders, modes, radii = per_axis(order, n, "order"), per_axis(mode, n, "mode"), per_axis(radius, n, "radius")
    ops = {}
    for axis, s, o, m, r in zip(chosen, sigmas, orders, modes, radii):
        s = float(s)
        if not s >= 0:
            raise ValueError(f"sigma must be nonnegative, not {s}")
        if s > 1e-15:  # scipy leaves an axis of zero sigma untouched
            ops[axis] = _axis_op(s, o, m, cval, truncate, r, method, crossover_radius(work))
        else:
            boundary(m)
    return _settle(ops, work.dtype)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None,
                    axes=None, method="auto", channel_axis=None):
    """scipy.ndimage.gaussian_filter: a Gaussian (or its derivative of `order`) of standard
    deviation `sigma` along every axis (or `axes`, less `channel_axis`); sigma, order, mode and
    radius once or per axis. method 'auto' runs scipy's kernel (FIR) where it has at most
    crossover_radius() samples each side or is a derivative, a recursive Gaussian otherwise."""

    def make(ndim, part, out_dtype, work):
        return _gaussian_ops(ndim, sigma, order, mode, part(cval), truncate, radius, axes, method, channel_axis, work)

    return separable(input, output, make)


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                      radius=None, method="auto"):
    """scipy.ndimage.gaussian_filter1d: gaussian_filter along one axis."""
    if isinstance(radius, bool) or radius is not None and not isinstance(radius, numbers.Integral):
        raise ValueError(f"radius must be a nonnegative integer, not {radius!r}")
    return gaussian_filter(input, sigma, order, output, mode, cval, truncate, radius=radius, axes=(axis,),
                           method=method)


_FUSED = {}


def _fused_squares(square_total, root):
    """CuPy's fused (√)(total² or total) + term², its kernels made once a process."""
    key = (square_total, root)
    if key not in _FUSED:
        import cupy

        def kernel(total, term):
            value = (total * total if square_total else total) + term * term
            return cupy.sqrt(value) if root else value

        _FUSED[key] = cupy.fuse(kernel_name=f"cascade_squares_{int(square_total)}{int(root)}")(kernel)
    return _FUSED[key]


def _derivative_sum(input, sigma, output, mode, cval, kwargs, order, combine):
    """scipy's generic_laplace / generic_gradient_magnitude over gaussian_filter: the derivative
    of `order` along each filtered axis (smoothing along the others), combined into output:
    combine(arrays, total, term, index, last) gives the new total (the first is `out`)."""
    if _dask.is_dask(input):
        return _dask_derivative_sum(input, sigma, output, mode, cval, kwargs, order)
    arrays = Arrays(input)
    x = arrays.data
    check_type(x.dtype)
    terms = _derivative_terms(x.ndim, mode, kwargs, order)
    with arrays.context():
        out = output_for(arrays, x, output)
        if not terms:
            out[...] = x
            return out if given_array(output) else arrays.back(out)
        total = out
        for i, (orders, term_mode, term_kwargs) in enumerate(terms):
            target = out if i == 0 else out.dtype
            term = gaussian_filter(x, sigma, orders, target, term_mode, cval, **term_kwargs)
            total = combine(arrays, total, term, i, i == len(terms) - 1)
        if total is not out:
            if not given_array(output):
                return arrays.back(total)
            out[...] = total
    return out if given_array(output) else arrays.back(out)


def _derivative_terms(ndim, mode, kwargs, order):
    """gaussian_filter's (orders, mode, kwargs) of each term of a derivative sum: the derivative of
    `order` along one filtered axis and smoothing along the others, in that axis's mode along every
    axis (as scipy)."""
    axes = filtered_axes(ndim, kwargs.get("axes"), kwargs.get("channel_axis"))
    if not axes:
        return []
    modes = per_axis(mode, len(axes), "mode")
    kwargs = dict(kwargs, axes=axes)
    kwargs.pop("channel_axis", None)
    return [([order if j == i else 0 for j in range(len(axes))], modes[i], kwargs) for i in range(len(axes))]


def _dask_derivative_sum(input, sigma, output, mode, cval, kwargs, order):
    """_derivative_sum of a Dask array: the same terms as new lazy arrays, order 2 summed (the
    Laplacian), order 1 as the root of the sum of squares, each step in the output's type."""
    dtype = _dask.result_type(input, output)
    total = None
    for orders, term_mode, term_kwargs in _derivative_terms(input.ndim, mode, kwargs, order):
        term = gaussian_filter(input, sigma, orders, dtype, term_mode, cval, **term_kwargs)
        term = term if order == 2 else term * term
        total = term if total is None else total + term
    if total is None:
        return input.astype(dtype)
    if order == 1:
        import dask.array as da

        total = da.sqrt(total).astype(dtype)
    return total


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, **kwargs):
    """scipy.ndimage.gaussian_laplace: the sum over the axes of the Gaussian's second derivative
    along each (kwargs go to gaussian_filter: truncate, radius, axes, method, channel_axis)."""

    def add(arrays, total, term, index, last):
        if index:
            total += term
        return total

    return _derivative_sum(input, sigma, output, mode, cval, kwargs, 2, add)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, **kwargs):
    """scipy.ndimage.gaussian_gradient_magnitude: sqrt of the sum of the squared Gaussian first
    derivatives along the axes (kwargs as gaussian_laplace)."""

    def add_square(arrays, total, term, index, last):
        if arrays.cuda and total.dtype.kind == "f" and not (index == 0 and last):
            # One fused pass a term, not four (H200, 8192² float32: 0.33 against 0.96 ms); the
            # first term is squared in the second's pass. CUDA contracts float32's a·a + b into a
            # multiply-add, 1 ulp from scipy's two roundings in 8% of the samples.
            if index == 0:
                return total
            return _fused_squares(index == 1, last)(total, term)
        # As scipy: the squares and their sum rounded in the output's type (its own tests compare
        # float32 results to 6 decimals, which a multiply-add or hypot's one rounding misses).
        if index == 0:
            total *= total
        else:
            term *= term
            total += term
        if last:
            arrays.xp.sqrt(total, out=total, casting="unsafe")
        return total

    return _derivative_sum(input, sigma, output, mode, cval, kwargs, 1, add_square)
