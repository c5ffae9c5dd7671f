"""Cascade: recursive (IIR) image filters, exact at the borders, on NumPy arrays (CPU) and on
CUDA arrays (CuPy, PyTorch) in place, named and moded as scipy.ndimage's (docs/python.md).

    import cascade
    blurred = cascade.gaussian_filter(image, 4.0)                 # mode='reflect'
    coefficients = cascade.spline_filter(image, order=3)          # mode='mirror'
    table = cascade.summed_area_table(image)

Arrays: (H, W); (H, W, C) with channel_axis=-1; batches (N, H, W) (every leading axis is a
batch axis) or (N, H, W, C). float32, uint8 and uint16 samples. The last two spatial axes are
filtered; the result has the input's type, shape and kind (NumPy, CuPy or PyTorch) and, on a
GPU, is computed on the producer's current stream without a host copy.
"""

import atexit as _atexit

import numpy as _np

from . import _cascade
from ._cascade import Error

# Plans and kept device memory go before the CUDA driver shuts down.
_atexit.register(_cascade.release)

__all__ = ["gaussian_filter", "spline_filter", "iir_filter", "summed_area_table", "uniform_filter", "Error"]

# scipy.ndimage's modes as Cascade's boundaries (include/cascade/boundary.h).
_MODES = {
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
_TYPES = ("float32", "uint8", "uint16")


def _boundary(mode, cval=0.0):
    if mode not in _MODES:
        raise ValueError(f"mode '{mode}' is not supported; use one of {', '.join(sorted(_MODES))}")
    if _MODES[mode] == "zero" and cval != 0:
        raise ValueError(f"mode '{mode}' takes cval=0 only (got {cval})")
    return _MODES[mode]


class _Arrays:
    """The array library of `x`, how to reach its data, and how to give a result back in it."""

    def __init__(self, x):
        kind = type(x).__module__.split(".")[0]
        self.torch = kind == "torch"
        if self.torch:
            if x.is_cuda:
                import cupy

                self.xp, self.cuda = cupy, True
                import torch

                self.stream = torch.cuda.current_stream(x.device).cuda_stream
                self.data = cupy.from_dlpack(x.detach())
            else:
                self.xp, self.cuda, self.stream = _np, False, 0
                self.data = x.detach().numpy()
        elif isinstance(x, _np.ndarray):
            self.xp, self.cuda, self.stream, self.data = _np, False, 0, x
        elif kind == "cupy":
            import cupy

            self.xp, self.cuda, self.data = cupy, True, x
            self.stream = cupy.cuda.get_current_stream().ptr
        elif hasattr(x, "__dlpack__"):
            device = x.__dlpack_device__()[0]
            if device == 1:
                self.xp, self.cuda, self.stream, self.data = _np, False, 0, _np.from_dlpack(x)
            elif device == 2:
                import cupy

                self.xp, self.cuda, self.data = cupy, True, cupy.from_dlpack(x)
                self.stream = cupy.cuda.get_current_stream().ptr
            else:
                raise ValueError("arrays on the CPU or on a CUDA device are supported")
        else:
            raise TypeError(f"expected a NumPy, CuPy or PyTorch array, not {type(x).__name__}")

    def capsule(self, a):
        if not self.cuda:
            return a.__dlpack__()
        # The stream the native call runs on; 1 names the legacy default stream.
        return a.__dlpack__(stream=self.stream or 1)

    def back(self, a):
        if self.torch:
            import torch

            return torch.from_dlpack(a)
        return a

    def context(self):
        if self.torch and self.cuda:
            import warnings

            import cupy

            # CuPy's work here (conversions, allocations) joins PyTorch's current stream.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return cupy.cuda.ExternalStream(self.stream)
        import contextlib

        return contextlib.nullcontext()


def _planes(arrays, x, channel_axis):
    """`x` as contiguous (N, H, W) planes, and how to put a result of that form back."""
    xp = arrays.xp
    if x.ndim < 2:
        raise ValueError(f"expected an image of 2 or more axes, not {x.ndim}")
    if channel_axis is not None:
        if x.ndim < 3:
            raise ValueError("channel_axis needs an array of 3 or more axes")
        x = xp.moveaxis(x, channel_axis, 0)
    shape = x.shape
    if 0 in shape:
        raise ValueError(f"the image is empty (shape {tuple(shape)})")
    planes = xp.ascontiguousarray(x.reshape((-1,) + tuple(shape[-2:])))

    def restore(result):
        result = result.reshape(tuple(shape[:-2]) + tuple(result.shape[-2:]))
        return xp.moveaxis(result, 0, channel_axis) if channel_axis is not None else result

    return planes, restore


def _dtype_name(a):
    name = str(a.dtype)
    if name not in _TYPES:
        raise ValueError(f"cascade filters {', '.join(_TYPES)} arrays, not {name}; convert with .astype('float32')")
    return name


def _filter(x, channel_axis, run, integers_natively):
    """Runs `run(arrays, source, target)` on x's planes; integer samples that the pipeline does not
    take go through float32 in [0, 1], rounded back as the command line writes them."""
    arrays = _Arrays(x)
    xp = arrays.xp
    with arrays.context():
        planes, restore = _planes(arrays, arrays.data, channel_axis)
        name = _dtype_name(planes)
        if name == "float32" or integers_natively(name, arrays.cuda):
            out = xp.empty_like(planes)
            run(arrays, planes, out)
        else:
            scale = 255.0 if name == "uint8" else 65535.0
            source = planes.astype(xp.float32) / xp.float32(scale)
            result = xp.empty_like(source)
            run(arrays, source, result)
            out = xp.clip(xp.rint(result * xp.float32(scale)), 0, scale).astype(planes.dtype)
        return arrays.back(restore(out))


def iir_filter(x, feedback, gain=None, mode="reflect", axes=None, channel_axis=None, cval=0.0):
    """The causal–anticausal recursive filter y[i] = gain·x[i] − Σ a_k·y[i−k], then
    z[i] = gain·y[i] − Σ a_k·z[i+k], down the columns and along the rows (`axes`: (0, 1) of the
    image, or one of them). `gain` defaults to unit DC gain (1 + Σ a_k)."""
    feedback = [float(a) for a in _np.atleast_1d(feedback)]
    if gain is None:
        gain = 1.0 + sum(feedback)
    gain = float(gain)
    _cascade.require_stable(gain, feedback)
    axes = (0, 1) if axes is None else tuple(int(a) for a in _np.atleast_1d(axes))
    if not axes or any(a not in (0, 1, -1, -2) for a in axes):
        raise ValueError(f"axes are those of the image, 0 (down the columns) and 1 (along the rows), not {axes}")
    axes = {a % 2 for a in axes}
    identity = (1.0, [0.0])
    fy = (gain, feedback) if 0 in axes else identity
    fx = (gain, feedback) if 1 in axes else identity
    return _recursive(x, fy, fx, _boundary(mode, cval), channel_axis)


def _recursive(x, fy, fx, boundary, channel_axis):
    def run(arrays, source, target):
        _cascade.iir(arrays.capsule(source), arrays.capsule(target), fy[1], fy[0], fx[1], fx[0], boundary,
                     arrays.stream)

    def native(name, cuda):
        return _cascade.converts(fy[1], fy[0], fx[1], fx[0], boundary, name, cuda)

    return _filter(x, channel_axis, run, native)


def gaussian_filter(x, sigma, mode="reflect", method="vanvliet", channel_axis=None, cval=0.0):
    """A recursive Gaussian of standard deviation `sigma` (one value, or (rows, columns) for
    vanvliet) by `method`: vanvliet (3rd order, the default), deriche2, deriche4 or twoway
    (docs/gaussian.md gives each one's distance from the exact Gaussian). Its cost does not grow
    with sigma."""
    boundary = _boundary(mode, cval)
    sigmas = tuple(float(s) for s in _np.atleast_1d(sigma))
    if len(sigmas) == 1:
        sigmas = sigmas * 2
    if len(sigmas) != 2:
        raise ValueError(f"sigma is one value or one per spatial axis (2), not {len(sigmas)}")
    if method == "vanvliet":
        return _recursive(x, _cascade.van_vliet_gaussian(sigmas[0]), _cascade.van_vliet_gaussian(sigmas[1]),
                          boundary, channel_axis)
    if sigmas[0] != sigmas[1]:
        raise ValueError(f"method '{method}' takes one sigma for both axes")

    def run(arrays, source, target):
        _cascade.gaussian(arrays.capsule(source), arrays.capsule(target), sigmas[0], method, boundary, arrays.stream)

    return _filter(x, channel_axis, run, lambda name, cuda: False)


def spline_filter(x, order=3, mode="mirror", channel_axis=None, cval=0.0):
    """The B-spline interpolation prefilter of odd `order` 3 to 9 (the coefficients that
    scipy.ndimage.map_coordinates interpolates with). Returns float32 in the input's units."""
    if isinstance(order, bool) or int(order) != order:
        raise ValueError(f"order must be an odd integer from 3 to 9, not {order}")
    gain, feedback = _cascade.bspline_prefilter(int(order))
    arrays = _Arrays(x)
    data = arrays.data
    if str(data.dtype) in ("uint8", "uint16"):
        with arrays.context():
            data = data.astype(arrays.xp.float32)
    return iir_filter(arrays.back(data), feedback, gain, mode=mode, channel_axis=channel_axis, cval=cval)


def summed_area_table(x, exclusive=False, channel_axis=None):
    """V[y, x] = Σ_{y' ≤ y, x' ≤ x} X[y', x'] of each image: float32 for float32; exact uint32
    for uint8/uint16 (uint64 where uint32 could overflow). `exclusive`: one more row and column,
    zeros first (OpenCV's integral)."""
    arrays = _Arrays(x)
    xp = arrays.xp
    with arrays.context():
        planes, restore = _planes(arrays, arrays.data, channel_axis)
        name = _dtype_name(planes)
        n, h, w = planes.shape
        out_type = _cascade.sat_output_type(name, h, w)
        if exclusive:
            out = xp.zeros((n, h + 1, w + 1), dtype=out_type)
            target = out[:, 1:, 1:]
        else:
            out = target = xp.empty((n, h, w), dtype=out_type)
        _cascade.summed_area_table(arrays.capsule(planes), arrays.capsule(target), arrays.stream)
        return arrays.back(restore(out))


def uniform_filter(x, size=3, mode="reflect", channel_axis=None, cval=0.0):
    """The mean over a size × size window (odd size) of the image extended by `mode`, computed
    from summed-area tables: any size at the same cost. Host (NumPy) float32 arrays."""
    if int(size) != size or size < 1 or size % 2 == 0:
        raise ValueError(f"size must be an odd positive integer (a centred window), not {size}")
    boundary = _boundary(mode, cval)
    arrays = _Arrays(x)
    if arrays.cuda:
        raise ValueError("uniform_filter runs on host arrays: Cascade's box filter has no CUDA path yet")

    def run(arrays, source, target):
        _cascade.box_mean(arrays.capsule(source), arrays.capsule(target), int(size) // 2, boundary)

    return _filter(x, channel_axis, run, lambda name, cuda: False)
