"""Separable filters of N-D arrays through the native 2D calls: a 1-D operation per filtered
axis, each axis seen as the H (or, the last one, the W) axis of a contiguous (N, H, W) view, the
last two axes together in one call where their operations allow it."""

import math
from dataclasses import dataclass, field

import numpy as np

from . import _native
from ._arrays import as_type, cast_into, work_array


@dataclass
class Op:
    """One axis's 1-D filter: `fir` (taps, center: out[i] = Σ_j taps[j]·in[i + j − center]), `iir`
    (the causal–anticausal recursion gain, feedback), `gaussian` (the native recursive Gaussian of
    H and W together: sigma, method) or `cascade` (taps, then the recursion: a recursive Gaussian
    as an FIR numerator over all-pole passes). `boundary` is Cascade's name; `cval` the constant of
    scipy's constant mode. `exact`: a filter scipy computes the same way, whose intermediate
    results scipy stores in the output's type."""
    kind: str
    boundary: str
    cval: float = 0.0
    taps: list = field(default_factory=list)
    center: int = 0
    divide: int = 1  # the FIR's taps over this (a box's exact integer sums, divided once)
    gain: float = 1.0
    feedback: list = field(default_factory=list)
    sigma: float = 0.0
    method: str = ""
    exact: bool = True
    float64: bool = False  # runs in float64 whatever the data (the cascade form's cancellation)

    def dc(self):
        """The gain on a constant line, of which the constant mode's cval identity needs."""
        if self.kind == "fir":
            return math.fsum(self.taps) / self.divide
        if self.kind == "iir":
            return (self.gain / (1.0 + math.fsum(self.feedback))) ** 2
        return 1.0

    def key(self):
        return (self.kind, tuple(self.taps), self.center, self.gain, tuple(self.feedback), self.sigma, self.method,
                self.boundary)


_IDENTITY = (1.0, [0.0])
# The correlation's extension for boundaries that have no FIR meaning of their own.
_FIR_BOUNDARY = {"none": "zero"}


def _lines(shape, axis):
    """The (N, H, W) view of a C-contiguous array of `shape` whose H (0) or W (1) axis is `axis`."""
    before = math.prod(shape[:axis])
    if axis == len(shape) - 1:
        return (1, before, shape[axis]), 1
    return (before, shape[axis], math.prod(shape[axis + 1:])), 0


def _fir(arrays, src, axis, taps, center, boundary, dst=None):
    view, which = _lines(src.shape, axis)
    dst = arrays.xp.empty_like(src) if dst is None else dst
    boundary = _FIR_BOUNDARY.get(boundary, boundary)
    reach = max(center, len(taps) - 1 - center)
    if arrays.cuda and reach <= _native.fir2d_largest_radius(True, src.dtype.name):
        # On CUDA, fir2d with the identity across: its tiles stage their reads in shared memory
        # (H200, a 512³ float32 volume's first axis, 33 taps: 4.57 ms against 8.41). On the CPU
        # the correlation is faster (a 64×256² volume's first axis: 21 ms against 52).
        fy, fx = ((taps, center), ([1.0], 0)) if which == 0 else (([1.0], 0), (taps, center))
        _native.fir2d(arrays, src.reshape(view), dst.reshape(view), fy, fx, boundary)
    else:
        _native.correlate1d(arrays, src.reshape(view), dst.reshape(view), taps, center, which, boundary)
    return dst


def correlate_window(arrays, src, axis, op, center, n, slot=None):
    """op's FIR along `axis` for n samples: out[i] = Σ_j taps[j]·src[i + j − center], src extended
    by the mode only where those reads pass its ends (none where src holds a halo each side).
    Into a kept work array `slot` where given (an intermediate result), else a new array."""
    shape = list(src.shape)
    shape[axis] = n
    shape = tuple(shape)
    dst = arrays.xp.empty(shape, src.dtype) if slot is None else work_array(arrays, shape, src.dtype, slot)
    view, which = _lines(src.shape, axis)
    _native.correlate1d(arrays, src.reshape(view), dst.reshape(_lines(dst.shape, axis)[0]), op.taps, center, which,
                        _FIR_BOUNDARY.get(op.boundary, op.boundary))
    if op.divide != 1:
        dst /= dst.dtype.type(op.divide)
    return dst


def _column_planes(view):
    """A wide (1, H, W) host view filtered down its columns as (W/w, H, w) planes side by side
    (strided, no copy), w a divisor of W near 1024: the CPU's strips keep a strip's rows in cache
    (a 256 × 65536 float64 image: 39 ms against 120; 1024 × 16384 float32, 28 against 76), and
    nothing else changes, as the columns are independent. As it is where no such w divides W."""
    n, h, w = view.shape
    if n != 1 or w <= 2048:
        return view
    widths = [d for d in range(256, 2049) if w % d == 0]
    if not widths:
        return view
    d = min(widths, key=lambda d: abs(d - 1024))
    return view[0].reshape(h, w // d, d).transpose(1, 0, 2)


def _iir(arrays, src, axis, gain, feedback, boundary, dst=None):
    view, which = _lines(src.shape, axis)
    dst = arrays.xp.empty_like(src) if dst is None else dst
    f = (gain, feedback)
    s, d = src.reshape(view), dst.reshape(view)
    if which == 0 and not arrays.cuda:
        s, d = _column_planes(s), _column_planes(d)
    _native.iir(arrays, s, d, f if which == 0 else _IDENTITY, f if which == 1 else _IDENTITY, boundary)
    return dst


def _planes(shape):
    return (math.prod(shape[:-2]), shape[-2], shape[-1])


def pad_width(ndim, axis, r):
    return [(r, r) if a == axis else (0, 0) for a in range(ndim)]


def cascade_padding(op):
    """(half-width, pad mode) of a cascade-form op, or (half-width, None). Its FIR widens the line
    by len(taps)//2 samples each side; under zero and clamp that widening is no longer the
    extension, so the line is extended by that much first (exactly: past it, the FIR's output is
    zeros or the edge sample again), as numpy.pad's mode, and cropped after the recursion."""
    half = len(op.taps) // 2
    if op.boundary not in ("zero", "clamp", "none"):
        return half, None
    return half, "edge" if op.boundary == "clamp" else "constant"


def _cascade_one(arrays, src, axis, op):
    """The cascade form on one axis (padded as cascade_padding says)."""
    xp = arrays.xp
    r, mode = cascade_padding(op)
    padded = mode is not None
    if padded:
        src = xp.ascontiguousarray(xp.pad(src, pad_width(src.ndim, axis, r), mode=mode))
    y = _fir(arrays, src, axis, op.taps, op.center, op.boundary)
    y = _iir(arrays, y, axis, op.gain, op.feedback, op.boundary)
    if padded:
        index = [slice(None)] * y.ndim
        index[axis] = slice(r, y.shape[axis] - r)
        y = xp.ascontiguousarray(y[tuple(index)])
    return y


def _run_one(arrays, src, axis, op, dst=None):
    """`op` along `axis`, into `dst` where given (the caller's output), else a new array."""
    if op.kind == "fir":
        dst = _fir(arrays, src, axis, op.taps, op.center, op.boundary, dst)
        if op.divide != 1:
            dst /= dst.dtype.type(op.divide)
        return dst
    if op.kind == "iir":
        return _iir(arrays, src, axis, op.gain, op.feedback, op.boundary, dst)
    if op.kind == "cascade":
        return _cascade_one(arrays, src, axis, op)
    raise ValueError(f"internal: a {op.kind} operation runs on two axes together")


def _reach(op):
    return max(op.center, len(op.taps) - 1 - op.center)


def _run_two(arrays, src, a, b, dst=None):
    """Both of the last two axes in one native call: one read and one write of the image."""
    dst = arrays.xp.empty_like(src) if dst is None else dst
    planes = _planes(src.shape)
    if a.kind == "fir":
        _native.fir2d(arrays, src.reshape(planes), dst.reshape(planes), (a.taps, a.center), (b.taps, b.center),
                      _FIR_BOUNDARY.get(a.boundary, a.boundary))
        if a.divide * b.divide != 1:
            dst /= dst.dtype.type(a.divide * b.divide)
        return dst
    if a.kind == "gaussian":
        _native.gaussian(arrays, src.reshape(planes), dst.reshape(planes), a.sigma, a.method, a.boundary)
        return dst
    _native.iir(arrays, src.reshape(planes), dst.reshape(planes), (a.gain, a.feedback), (b.gain, b.feedback),
                a.boundary)
    return dst


def _pairs(a, b, narrowing, fir_reach):
    """Whether the last two axes' operations run as one 2D call: of one kind, on one boundary, and
    equal to scipy's axis-after-axis order (the constant mode's second axis extends by cval,
    which the first axis's output only does where that filter keeps constants). FIRs pair where
    fir2d reaches as far as both (`fir_reach`), and where scipy's result is the same whichever
    way the sums are grouped (not an integer box's exact sums, divided once at the end)."""
    if a.kind != b.kind or a.boundary != b.boundary:
        return False
    if a.kind == "fir" and (max(_reach(a), _reach(b)) > fir_reach or (narrowing and a.exact)):
        return False
    if a.kind == "gaussian" and (a.sigma, a.method) != (b.sigma, b.method):
        return False
    if a.kind == "cascade":
        # Both numerators before either recursion would multiply their cancellations (taps of
        # ±3e7 each at sigma 64): each axis runs its numerator and its recursion in turn.
        return False
    if narrowing and a.exact:
        return False
    if a.boundary == "zero" and (a.cval or b.cval):
        return a.cval == b.cval and abs(a.dc() - 1.0) < 1e-12
    return True


def _with_cval(arrays, src, ops, run):
    """scipy's constant mode with any cval from the zero extension: x extended by c is
    (x − c) extended by zeros, plus c; a linear filter takes the constant c to c·(its DC gain)."""
    c = ops[0].cval if ops[0].boundary == "zero" else 0.0
    if not c:
        return run(src)
    dst = run(src - src.dtype.type(c))
    dst += dst.dtype.type(c * math.prod(op.dc() for op in ops))
    return dst


def filter_axes(arrays, x, out, ops):
    """Filters `x` (any supported real type) into `out` by `ops`, {axis: Op}, axis after axis in
    ascending order as scipy does; every other axis is left as it is."""
    xp = arrays.xp
    axes = sorted(ops)
    if x.size == 0:
        return out
    if not axes:
        cast_into(xp, out, x)
        return out
    compute = np.float64 if any(op.float64 for op in ops.values()) else None
    if compute is None:
        from ._arrays import compute_type

        compute = compute_type(x.dtype, out.dtype)
    if compute == np.float64:
        _native.require_type("float64")
    # The untouched axes go first, so the filtered ones are the trailing axes of one contiguous
    # copy (in the pipelines' type), the last two of them one (N, H, W) stack.
    perm = [a for a in range(x.ndim) if a not in ops] + axes
    in_place = perm == list(range(x.ndim))
    # DLPack exports writable arrays only: a read-only one is copied. A 2-D host array's rows may
    # lie apart (a chunk of a larger one): the CPU pipelines read their strides.
    rows = x.flags.c_contiguous or (not arrays.cuda and x.ndim == 2 and x.strides[1] == x.itemsize and
                                    x.strides[0] > 0)
    if in_place and x.dtype == compute and rows and getattr(x.flags, "writeable", True):
        work = x  # read, never written: every step writes a new array
    else:
        work = work_array(arrays, tuple(x.shape[a] for a in perm), compute, "copy")
        work[...] = x.transpose(perm) if x.dtype.kind != "b" else x.transpose(perm).astype(compute)
    first = x.ndim - len(axes)
    narrowing = np.dtype(out.dtype) != np.dtype(compute)
    # On the CPU two correlate passes outrun fir2d's tiles (2 cores, float32, σ 4: 0.38 against
    # 0.54 ms at 512², 5.4 against 7.9 at 2048², 24.9 against 30.5 at 4096²; radius 24 at 2048²:
    # 7.0 against 18.8): fir2d pairs the axes on CUDA only.
    fir_reach = _native.fir2d_largest_radius(True, np.dtype(compute).name) if arrays.cuda else 0
    steps = []
    i = 0
    while i < len(axes):
        op = ops[axes[i]]
        if i == len(axes) - 2 and _pairs(op, ops[axes[i + 1]], narrowing, fir_reach):
            steps.append([(first + i, op), (first + i + 1, ops[axes[i + 1]])])
            i += 2
        else:
            steps.append([(first + i, op)])
            i += 1
    # The last step writes the caller's output itself where it can: no copy after it.
    direct = in_place and not narrowing and out.flags.c_contiguous and not xp.may_share_memory(out, x)
    # The CPU's recursions also run in place (IirPlan::run): the first step writes the output and
    # the others filter it where it is, with no work array (a 256³ float64 spline: 41 ms against 52).
    recursions = direct and not arrays.cuda and all(op.kind == "iir" for step in steps for _, op in step)
    if recursions and len(steps) > 1 and len(steps[-1]) == 2:
        # The last two axes first (the passes commute): their planes fault the new output's pages
        # in one at a time, each thread its own, where an earlier axis's column tiles touch every
        # page at once (a 256³ float64 spline into a new array, 2 cores: 37.4 ms against 39.9).
        steps = steps[-1:] + steps[:-1]
    for n, step in enumerate(steps):
        last = n == len(steps) - 1
        # Steps alternate between two work arrays: each reads the one the step before wrote.
        target = out if (last and direct) or recursions else work_array(arrays, work.shape, compute, n % 2)
        if len(step) == 1:
            axis, op = step[0]
            if op.kind == "cascade":
                target = None
            work = _with_cval(arrays, work, [op], lambda s: _run_one(arrays, s, axis, op, target))
        else:
            (_, a), (_, b) = step
            work = _with_cval(arrays, work, [a, b], lambda s: _run_two(arrays, s, a, b, target))
        if narrowing and not last:
            # scipy keeps each axis's result in the output's type before the next axis.
            work = as_type(xp, work, out.dtype).astype(compute)
    if work is not out:
        cast_into(xp, out.transpose(perm), work)
    return out

