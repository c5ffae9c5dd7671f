"""Dask arrays (of NumPy or CuPy chunks) in, lazy Dask arrays of the same chunks out.

Per filtered axis: a recursion runs on every chunk from zero state, each chunk reports a few
weighted sums per line (_carries: O(r) values per line, never chunk data), one task per line of
chunks solves every chunk's entering states from them, and each chunk adds its response to
those states; the result equals the whole-array call for any chunking. An FIR (scipy's truncated
Gaussians, the box, a recursive Gaussian's numerator) reads a halo of its reach instead."""

import functools

import numpy as np

from . import _carries, _native
from ._arrays import Arrays, Work, as_type, check_type, compute_type, given_array, output_type
from ._modes import ArgumentError
from ._separable import Op, _pairs, _reach, _run_one, cascade_padding, correlate_window, pad_width


def is_dask(x):
    return type(x).__module__.startswith("dask.")


def _module(block):
    return Arrays(block).xp


def _on_device(function):
    """`function` of a chunk run on the chunk's device: CuPy chunks may be spread over several
    GPUs (one worker or one set of chunks per device), and each is filtered where it lives."""

    @functools.wraps(function)
    def run(block, *args, **kwargs):
        if hasattr(block, "device") and type(block).__module__.startswith("cupy"):
            with block.device:
                return function(block, *args, **kwargs)
        return function(block, *args, **kwargs)

    return run


def _host(a):
    """NumPy values of a small array of either library."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _host_meta(dx):
    return np.empty((0,) * dx.ndim, np.float64)


def _meta(dx, dtype=None):
    """An empty array of dx's library and `dtype`: Dask's description of a result, so that it
    need not call a function on empty arrays to learn it."""
    return dx._meta.astype(dtype or dx.dtype)


@_on_device
def _run(block, axis, op):
    """`op` along `axis` of one chunk, by the same native calls as a whole array."""
    arrays = Arrays(block)
    src = arrays.xp.ascontiguousarray(block)
    with arrays.context():
        return _run_one(arrays, src, axis, op, arrays.xp.empty(src.shape, dtype=src.dtype))


def _fir_axis(dx, axis, op):
    """An FIR along `axis`: each chunk with a halo of the taps' reach (the neighbours' samples, or
    the wrapped ones at the ends of a periodic line); elsewhere the chunk's own extension at the
    array's ends is the mode's."""
    import dask.array as da

    reach = max(op.center, len(op.taps) - 1 - op.center)
    if reach == 0 or len(dx.chunks[axis]) == 1:
        return dx.map_blocks(_run, axis, op, meta=_meta(dx))
    if reach >= dx.shape[axis]:
        # The halo would be the whole line: the line as one chunk.
        return dx.rechunk({axis: -1}).map_blocks(_run, axis, op, meta=_meta(dx))
    depth = {a: (reach if a == axis else 0) for a in range(dx.ndim)}
    edges = {a: ("periodic" if a == axis and op.boundary == "periodic" else "none") for a in range(dx.ndim)}
    return da.map_overlap(functools.partial(_run, axis=axis, op=op), dx, depth=depth, boundary=edges,
                          meta=_meta(dx))


@_on_device
def _fir_block(block, steps, halo, block_info=None):
    """Every axis's FIR of one chunk, read with its halo (`halo[axis]` samples each side where the
    chunk has a neighbour, or the periodic line's wrapped ones): along each axis only the chunk's
    own samples are computed, by a correlation that reads the halo and no extension ("valid"), or
    the mode's extension where the chunk ends the line. `steps`: (axis, op, cast) in scipy's
    order, cast the type an axis's result is rounded to (scipy's narrowing) or None."""
    arrays = Arrays(block)
    info = block_info[0]
    y = block
    with arrays.context():
        for i, (axis, op, cast) in enumerate(steps):
            k, count = info["chunk-location"][axis], info["num-chunks"][axis]
            periodic = op.boundary == "periodic"
            before = halo[axis] if k > 0 or periodic else 0
            after = halo[axis] if k < count - 1 or periodic else 0
            n = y.shape[axis] - before - after
            # The window holds exactly the taps' reach each side where the halo is there.
            lo = before - op.center if before else 0
            hi = y.shape[axis] - (after - (len(op.taps) - 1 - op.center) if after else 0)
            index = [slice(None)] * y.ndim
            index[axis] = slice(lo, hi)
            c = op.cval if op.boundary == "zero" else 0.0
            window = y[tuple(index)]
            if c:  # scipy's constant mode: (x − c) extended by zeros, plus c times the DC gain
                window = window - window.dtype.type(c)
            # Between the axes in kept memory: a new array's pages cost as much as the copy.
            slot = i % 2 if i < len(steps) - 1 else None
            y = correlate_window(arrays, window, axis, op, op.center if not before else 0, n, slot)
            if c:
                y += y.dtype.type(c * op.dc())
            if cast is not None:
                y = as_type(arrays.xp, y, cast).astype(y.dtype)
    return y


def _fir_axes(dx, ops, casts):
    """All of `ops` (FIRs) in one map_overlap: each chunk read once with the halo every axis's
    taps reach, every axis filtered in one task; None where a chunk is shorter than a reach (the
    halo would pass the neighbour) or empty."""
    import dask.array as da

    halo = {a: _reach(op) for a, op in ops.items()}
    for a, r in halo.items():
        if len(dx.chunks[a]) > 1 and (min(dx.chunks[a]) <= r or 0 in dx.chunks[a]):
            return None
        if len(dx.chunks[a]) == 1 and ops[a].boundary == "periodic" and r >= dx.shape[a]:
            return None
    # A line whole in one chunk needs no halo but the periodic one's wrap.
    depth = {a: halo[a] if a in ops and (len(dx.chunks[a]) > 1 or ops[a].boundary == "periodic") else 0
             for a in range(dx.ndim)}
    edges = {a: ("periodic" if a in ops and ops[a].boundary == "periodic" and depth[a] else "none")
             for a in range(dx.ndim)}
    steps = [(a, ops[a], casts[a]) for a in sorted(ops)]
    return da.map_overlap(functools.partial(_fir_block, steps=steps, halo=halo), dx, depth=depth,
                          boundary=edges, trim=False, chunks=dx.chunks, meta=_meta(dx))


def _lines(a, axis):
    """The (before, n, after) view of a C-contiguous array whose middle axis is `axis`."""
    shape = a.shape
    return a.reshape(int(np.prod(shape[:axis])), shape[axis], int(np.prod(shape[axis + 1:])))


def _mul(matrix, lines):
    """matrix (k × m) times each line of `lines` (before, m, after): (before, k, after)."""
    xp = _module(lines)
    m = xp.asarray(matrix, dtype=lines.dtype)
    if lines.shape[2] == 1:
        return (lines[:, :, 0] @ m.T)[:, :, None]
    return m @ lines


def _rows_of(block, axis, a, b):
    """Rows a..b of the block along `axis` as (before, b − a, after) lines, copied only where the
    block is not contiguous (a slice of a larger array), and then only those rows."""
    index = [slice(None)] * block.ndim
    index[axis] = slice(a, b)
    if block.flags.c_contiguous:
        return _lines(block, axis)[:, a:b]
    return _lines(_module(block).ascontiguousarray(block[tuple(index)]), axis)


def _sums64(weights, lines):
    """Σ_i weights[i, j]·lines[:, i, :] in float64, (before, k, after), over pieces of the lines
    small enough that their float64 copy stays small (a chunk of 10⁹ samples has 10⁸-sample slabs)."""
    xp = _module(lines)
    before, rows, after = lines.shape
    step = max(1, (1 << 24) // max(rows, 1))
    out = xp.empty((before, weights.shape[1], after), np.float64)
    w = weights.T
    if after == 1:
        for i in range(0, before, step):
            out[i:i + step] = _mul(w, lines[i:i + step].astype(np.float64))
    else:
        for i in range(0, after, step):
            out[:, :, i:i + step] = _mul(w, lines[:, :, i:i + step].astype(np.float64))
    return out


@_on_device
def _summarize(block, y0, axis, key, boundary, lengths, block_info=None):
    """A chunk's summary (_carries.summary_width values per line along `axis`): e and h from its
    zero-state result y0, the mirror image's from its samples, the end samples for clamp."""
    k = block_info[0]["chunk-location"][axis]
    count, n, r = len(lengths), block.shape[axis], len(key[1])
    y3 = _lines(y0, axis)
    flat = lambda a: _host(a).transpose(1, 0, 2).reshape(a.shape[1], -1).astype(np.float64)
    h = flat(y3[:, :min(n, r)]).T
    h = np.hstack([h, np.zeros((h.shape[0], r - h.shape[1]))])
    # e in float64 from the samples: recovered from a float32 y0 by inverting the anticausal
    # pass it misses by several of y0's roundings (van Vliet σ 16: 2.8e-6 of the result, not 1.6e-6).
    (a, b), w = _carries.end_state_weights(key, n, block.dtype.itemsize)
    e = flat(_sums64(w, _rows_of(block, axis, a, b))).T if b > a else np.zeros_like(h)
    parts = [e, h]
    start = sum(lengths[:k])
    if boundary in ("reflect", "mirror") and min(start, sum(lengths) - start - n) < _carries.reach(key):
        # A chunk's mirror image counts only within the recursion's reach of the line's ends.
        # In float64: float32 sums of these weights miss by several times the result's rounding.
        for (a, b), w in _carries.mirrored_weights(key, n, boundary, k == 0, k == count - 1, block.dtype.itemsize):
            parts.append(flat(_sums64(w, _rows_of(block, axis, a, b))).T if b > a else np.zeros_like(e))
    elif boundary in ("reflect", "mirror"):
        parts += [np.zeros_like(e), np.zeros_like(e)]
    elif boundary == "clamp":
        parts += [flat(_rows_of(block, axis, 0, 1)).T, flat(_rows_of(block, axis, n - 1, n)).T]
    summary = np.hstack(parts)  # L × width, the lines in (before, after) order
    shape = block.shape[:axis] + block.shape[axis + 1:] + (summary.shape[1],)
    # On the host: a line's chunks may be on different devices; only these values cross them.
    return np.moveaxis(summary.reshape(shape), -1, axis)


def _solve(summaries, axis, key, lengths, boundary):
    s = np.moveaxis(summaries, axis, -1)
    lines = s.shape[:-1]
    states = _carries.solve(key, lengths, s.reshape(-1, len(lengths), s.shape[-1] // len(lengths)), boundary)
    return np.moveaxis(states.reshape(lines + (-1,)), -1, axis)


@_on_device
def _correct(y0, states, axis, key):
    """y0 plus its response to the entering states, on the rows that response reaches."""
    xp = _module(y0)
    r = len(key[1])
    out = xp.empty_like(y0)
    o3, y3 = _lines(out, axis), _lines(y0, axis)
    s3 = _lines(xp.asarray(np.ascontiguousarray(states), dtype=y0.dtype), axis)
    (head, gu), (tail, gv) = _carries.corrections(key, y0.shape[axis], y0.dtype.itemsize)
    if head[1] > tail[0]:  # the two responses meet: one update of every row
        (head, gu), (tail, gv) = _carries.corrections(key, y0.shape[axis], 0)
    covered = 0
    for (a, b), g, part in ((head, gu, s3[:, :r]), (tail, gv, s3[:, r:])):
        if a > covered:
            o3[:, covered:a] = y3[:, covered:a]
        if b > a:
            source = o3 if a < covered else y3
            xp.add(source[:, a:b], _mul(g, part), out=o3[:, a:b])
        covered = max(covered, b)
    if covered < y0.shape[axis]:
        o3[:, covered:] = y3[:, covered:]
    return out


def _iir_axis(dx, axis, op):
    """The causal–anticausal recursion along `axis`, exact across the chunks (_carries)."""
    import dask.array as da

    key, r = (float(op.gain), tuple(float(a) for a in op.feedback)), len(op.feedback)
    lengths = tuple(dx.chunks[axis])
    count = len(lengths)
    if count == 1:  # every line whole in its chunk
        return dx.map_blocks(_run, axis, op, meta=_meta(dx))
    width = _carries.summary_width(r, op.boundary)
    y0 = dx.map_blocks(_run, axis, Op("iir", "none", gain=op.gain, feedback=op.feedback), meta=_meta(dx))
    along = lambda size: tuple((size,) * count if a == axis else c for a, c in enumerate(dx.chunks))
    summarize = functools.partial(_summarize, axis=axis, key=key, boundary=op.boundary, lengths=lengths)
    summaries = da.map_blocks(summarize, dx, y0, chunks=along(width), meta=_host_meta(dx))
    gathered = summaries.rechunk({axis: -1})
    chunks = tuple((2 * r * count,) if a == axis else c for a, c in enumerate(gathered.chunks))
    states = gathered.map_blocks(_solve, axis, key, lengths, op.boundary, chunks=chunks, meta=_host_meta(dx))
    states = states.rechunk({axis: 2 * r})
    index = tuple(range(dx.ndim))
    # y0 first: the output takes its chunks (blockwise pairs the blocks by position, not size).
    return da.blockwise(_correct, index, y0, index, states, index, axis=axis, key=key, meta=_meta(dx),
                        align_arrays=False)


def _crop_axis(dx, axis, width):
    index = [slice(None)] * dx.ndim
    index[axis] = slice(width, dx.shape[axis] - width)
    return dx[tuple(index)]


def _axis(dx, axis, op):
    if op.kind == "fir":
        return _fir_axis(dx, axis, op)
    if op.kind == "iir":
        return _iir_axis(dx, axis, op)
    if op.kind == "cascade":
        import dask.array as da

        half, mode = cascade_padding(op)  # as a whole array
        src = da.pad(dx, pad_width(dx.ndim, axis, half), mode=mode) if mode else dx
        numerator = Op("fir", op.boundary, taps=op.taps, center=op.center)
        y = _iir_axis(_fir_axis(src, axis, numerator), axis, Op("iir", op.boundary, gain=op.gain,
                                                                    feedback=op.feedback))
        return _crop_axis(y, axis, half) if mode else y
    raise ArgumentError(f"a Dask array is filtered axis by axis; the native 2D {op.method!r} Gaussian filters two "
                        "together: use method 'auto', 'deriche4', 'vanvliet' or 'fir'")


def _per_axis(ops):
    """The native 2D Gaussian (deriche4 in float32, two axes at once) as its cascade form."""
    from ._gaussian import _cascade_op

    return {a: _cascade_op(op) if op.kind == "gaussian" and op.method == "deriche4" else op for a, op in ops.items()}


@_on_device
def _cast(block, dtype, then=None):
    """As scipy casts into `dtype` (then back to `then`, where scipy keeps an axis's result in the
    output's type before the next axis)."""
    result = as_type(_module(block), block, dtype)
    return result if then is None else result.astype(then)


def _filter(dx, ops, out_dtype, compute, cuda):
    narrowing = np.dtype(out_dtype) != np.dtype(compute)
    y = dx.astype(compute)
    axes = sorted(ops)
    # scipy rounds each axis's result to the output's type; a whole array skips that between the
    # last two axes where it filters them together (_pairs), and so does this.
    fir_reach = _native.fir2d_largest_radius(True, np.dtype(compute).name) if cuda else 0
    paired = len(axes) > 1 and _pairs(ops[axes[-2]], ops[axes[-1]], narrowing, fir_reach)
    if all(op.kind == "fir" for op in ops.values()):
        casts = {a: (out_dtype if narrowing and i < len(axes) - 1 - paired else None) for i, a in enumerate(axes)}
        fused = _fir_axes(y, ops, casts)
        if fused is not None:
            return fused if np.dtype(out_dtype) == fused.dtype else fused.map_blocks(_cast, out_dtype,
                                                                                   meta=_meta(fused, out_dtype))
    for i, axis in enumerate(axes):
        op = ops[axis]
        c = op.cval if op.boundary == "zero" else 0.0
        # scipy's constant mode: (x − c) extended by zeros, plus c times the filter's DC gain.
        y = _axis(y - y.dtype.type(c) if c else y, axis, op)
        if c:
            y = y + y.dtype.type(c * op.dc())
        if narrowing and i < len(axes) - 1 - paired:
            y = y.map_blocks(_cast, out_dtype, compute, meta=_meta(y))
    if np.dtype(out_dtype) == y.dtype:
        return y
    return y.map_blocks(_cast, out_dtype, meta=_meta(y, out_dtype))


def result_type(dx, output, complex_output=False):
    """scipy's output type for a Dask input; an array to write into is refused."""
    check_type(dx.dtype)
    if given_array(output):
        raise ArgumentError("a Dask array's result is a new Dask array: give output as a dtype or None")
    return output_type(dx.dtype, output, complex_output)


def separable(dx, output, make_ops, complex_output=None):
    """_apply.separable for a Dask array: the result as a new lazy Dask array of dx's chunks."""
    is_complex = dx.dtype.kind == "c"
    out_dtype = result_type(dx, output, is_complex if complex_output is None else complex_output)
    cuda = Arrays(dx._meta).cuda
    work = Work(compute_type(dx.dtype, out_dtype), cuda)

    def run(part, source, target):
        ops = _per_axis(make_ops(dx.ndim, part, target, work))
        compute = np.float64 if any(op.float64 for op in ops.values()) else work.dtype
        return _filter(source, ops, target, compute, cuda)

    if is_complex:
        part_type = np.empty(0, out_dtype).real.dtype
        y = run(np.real, dx.real, part_type) + 1j * run(np.imag, dx.imag, part_type)
        y = y.astype(out_dtype)
    elif out_dtype.kind == "c":
        y = run(np.real, dx, np.empty(0, out_dtype).real.dtype).astype(out_dtype)
    else:
        y = run(np.real, dx, out_dtype)
    return y.rechunk(dx.chunks) if y.chunks != dx.chunks else y
