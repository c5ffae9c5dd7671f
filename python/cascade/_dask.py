"""Dask arrays (of NumPy or CuPy chunks) in, lazy Dask arrays of the same chunks out.

Per filtered axis: a recursion runs on every chunk from zero state, each chunk reports a few
weighted sums per line (_carries: O(r) values per line, never chunk data), one task per line of
chunks solves every chunk's entering states from them, and each chunk adds its response to
those states; the result equals the whole-array call for any chunking. An FIR (scipy's truncated
Gaussians, the box, a recursive Gaussian's numerator) reads a halo of its reach instead."""

import contextlib
import functools
import math
import operator
import sys
import threading
import typing

import numpy as np

from . import _carries, _native
from ._arrays import Arrays, Work, as_type, check_type, compute_type, given_array, output_type
from ._modes import ArgumentError
from ._separable import (Op, _pairs, _reach, _run_one, _with_cval, cascade_padding, correlate_window, filter_axes,
                         pad_width)


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


def _shares_cores():
    """Whether this task runs beside others of its scheduler, one a core: on a thread of dask's
    threaded scheduler or of a distributed worker of several threads, not on the caller's own
    (the synchronous scheduler) or a scheduler's only thread."""
    if threading.current_thread() is threading.main_thread():
        return False
    # A distributed worker has imported distributed; elsewhere it need not be installed, and a
    # failed import on every task would search the path every time.
    distributed = sys.modules.get("distributed")
    if distributed is not None:
        try:
            return getattr(distributed.get_worker(), "nthreads", 1) > 1
        except ValueError:  # not in a distributed worker
            pass
    import dask

    return dask.config.get("num_workers", None) != 1


def _in_task(arrays):
    """The context of a chunk's native calls: its device's; on the host, beside other tasks, its
    pipelines each on the task's thread alone (their own threads would crowd the cores)."""
    stack = contextlib.ExitStack()
    stack.enter_context(arrays.context())
    if not arrays.cuda and _shares_cores():
        stack.enter_context(_native.serial_calls())
    return stack


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
    with _in_task(arrays):
        for i, (axis, op, cast) in enumerate(steps):
            k, count = info["chunk-location"][axis], info["num-chunks"][axis]
            periodic = op.boundary == "periodic"
            before = halo[axis] if k > 0 or periodic else 0
            after = halo[axis] if k < count - 1 or periodic else 0
            n = y.shape[axis] - before - after
            # The window holds exactly the taps' reach each side where the halo is there.
            lo = before - op.center if before else 0
            hi = y.shape[axis] - (after - (len(op.taps) - 1 - op.center) if after else 0)
            # Between the axes in kept memory: a new array's pages cost as much as the copy.
            slot = i % 2 if i < len(steps) - 1 else None
            center = op.center if not before else 0
            y = _with_cval(arrays, _along(y, axis, lo, hi), [op],
                           lambda window: correlate_window(arrays, window, axis, op, center, n, slot))
            if cast is not None:
                y = _cast(y, cast, y.dtype)
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


# Device copies of the carries' matrices (host arrays that _carries keeps), by the matrix, its
# type and the device: every chunk's products use the same few, and a copy to the device waits
# for the transfer. The matrix is kept with its copy, so that its id names it alone.
_DEVICE_MATRICES = {}


def _device_matrix(xp, matrix, dtype):
    if xp is np:
        return np.asarray(matrix, dtype=dtype)
    key = (id(matrix), np.dtype(dtype).str, xp.cuda.Device().id)
    kept = _DEVICE_MATRICES.get(key)
    if kept is None or kept[0] is not matrix:
        if len(_DEVICE_MATRICES) > 1024:
            _DEVICE_MATRICES.clear()
        kept = _DEVICE_MATRICES[key] = (matrix, xp.asarray(matrix, dtype=dtype))
    return kept[1]


def _mul(matrix, lines, transposed=False):
    """matrix (k × m; m × k transposed) times each line of `lines` (before, m, after):
    (before, k, after)."""
    xp = _module(lines)
    m = _device_matrix(xp, matrix, lines.dtype)
    if transposed:
        m = m.T
    if lines.shape[2] == 1:
        return (lines[:, :, 0] @ m.T)[:, :, None]
    return m @ lines


def _rows_of(block, axis, a, b):
    """Rows a..b of the block along `axis` as (before, b − a, after) lines: on the host a view
    wherever the layout allows (the native sums read any row strides); on a GPU copied only where
    the block is not contiguous (a slice of a larger array), and then only those rows."""
    rows = _along(block, axis, a, b)
    if _module(block) is np:
        return rows.reshape(int(np.prod(block.shape[:axis])), b - a, int(np.prod(block.shape[axis + 1:])))
    if block.flags.c_contiguous:
        return _lines(block, axis)[:, a:b]
    return _lines(_module(block).ascontiguousarray(rows), axis)


def _sums64(weights, lines):
    """Σ_i weights[i, j]·lines[:, i, :] in float64, (before, k, after): natively on the host; on a
    GPU by CuPy's products over pieces of the lines small enough that their float64 copy stays
    small (a chunk of 10⁹ samples has 10⁸-sample slabs)."""
    xp = _module(lines)
    if xp is np:
        if lines.shape[2] > 1 and lines.strides[2] != lines.itemsize:
            lines = np.ascontiguousarray(lines)
        return _native.weighted_rows(lines, 0, np.ascontiguousarray(weights, dtype=np.float64))
    before, rows, after = lines.shape
    step = max(1, (1 << 24) // max(rows, 1))
    out = xp.empty((before, weights.shape[1], after), np.float64)
    if after == 1:
        for i in range(0, before, step):
            out[i:i + step] = _mul(weights, lines[i:i + step].astype(np.float64), transposed=True)
    else:
        for i in range(0, after, step):
            out[:, :, i:i + step] = _mul(weights, lines[:, :, i:i + step].astype(np.float64), transposed=True)
    return out


def _along(a, axis, start, stop):
    index = [slice(None)] * a.ndim
    index[axis] = slice(start, stop)
    return a[tuple(index)]


@_on_device
def _sums(block, axis, key, boundary, lengths, k):
    """A chunk's summary per line along `axis` (carry_summary_width values), weighted sums of its
    samples in float64, on the host (a line's chunks may be on different devices; only these
    values cross them): e and h, the causal pass's last r values and the result's first r from
    zero state; under reflect and mirror the same of the mirror image, within the recursion's
    reach of the line's ends; under clamp the end samples. From the samples, not from a float32
    zero-state result: its roundings, independent from line to line once the other axes are
    filtered, grow through the states' extrapolation (van Vliet σ 16: 1.7e-5, not 3e-7). `k`:
    the chunk's place along the axis."""
    count, n = len(lengths), block.shape[axis]
    lines = block.shape[:axis] + block.shape[axis + 1:]
    xp = _module(block)

    # On a GPU every part stays there until the summary is whole: one transfer to the host.
    def summed(rows, weights):
        if rows[1] <= rows[0]:
            return xp.zeros((int(np.prod(lines[:axis], dtype=np.int64)), weights.shape[1],
                             int(np.prod(lines[axis:], dtype=np.int64))))
        return _sums64(weights, _rows_of(block, axis, *rows))

    itemsize = block.dtype.itemsize
    parts = [summed(rows, w) for rows, w in _carries.state_weights(key, n, itemsize)]
    start = sum(lengths[:k])
    if boundary in ("reflect", "mirror"):
        if min(start, sum(lengths) - start - n) < _carries.reach(key):
            for rows, w in _carries.mirrored_weights(key, n, boundary, k == 0, k == count - 1, itemsize):
                parts.append(summed(rows, w))
        else:  # far from the line's ends a chunk's mirror image counts for nothing
            parts += [xp.zeros_like(parts[0])] * 2
    elif boundary == "clamp":
        parts += [_rows_of(block, axis, 0, 1).astype(np.float64), _rows_of(block, axis, n - 1, n).astype(np.float64)]
    sums = _host(xp.concatenate(parts, axis=1))  # (before, width, after)
    return sums.reshape(block.shape[:axis] + (sums.shape[1],) + block.shape[axis + 1:])


def _solve(summaries, axis, key, lengths, boundary):
    s = np.moveaxis(summaries, axis, -1)
    lines = s.shape[:-1]
    states = _carries.solve(key, lengths, s.reshape(-1, len(lengths), s.shape[-1] // len(lengths)), boundary)
    return np.moveaxis(states.reshape(lines + (-1,)), -1, axis)


@_on_device
def _correct(y0, states, axis, key):
    """y0 plus its response to the entering states, on the rows that response reaches, in place
    (y0 is this module's own intermediate, read by nothing after)."""
    xp = _module(y0)
    r = len(key[1])
    y3 = _lines(y0, axis)
    s3 = _lines(np.ascontiguousarray(states, dtype=np.float64), axis)
    (head, gu), (tail, gv) = _carries.corrections(key, y0.shape[axis], y0.dtype.itemsize)
    if head[1] > tail[0]:  # the two responses meet: one update of every row
        (head, gu), (tail, gv) = _carries.corrections(key, y0.shape[axis], 0)
        parts = [(head, np.hstack([gu, gv]), s3)]
    else:
        parts = [(head, gu, s3[:, :r]), (tail, gv, s3[:, r:])]
    for (a, b), g, part in parts:
        if b <= a:
            continue
        if xp is np:
            _native.add_rows(y3, a, g, np.ascontiguousarray(part))
        else:
            y3[:, a:b] += _mul(g, xp.asarray(part, dtype=y0.dtype))
    return y0


def _none(op):
    """The recursion of `op` from zero state at its chunk's ends."""
    return Op("iir", "none", gain=op.gain, feedback=op.feedback)


@_on_device
def _pass(block, ops):
    """`ops` of one chunk by the native calls of a whole array (two axes in one call where they
    pair)."""
    arrays = Arrays(block)
    out = arrays.xp.empty(block.shape, block.dtype)
    with _in_task(arrays):
        filter_axes(arrays, block, out, ops)
    return out


def _key(op):
    return float(op.gain), tuple(float(a) for a in op.feedback)


def _solve_line(summaries, axis, key, lengths, boundary):
    """The entering states of a line of chunks, from the chunks' summaries in order."""
    return _solve(np.concatenate(summaries, axis=axis), axis, key, lengths, boundary)


@_on_device
def _filter_chunk(block, states, ops, places):
    """One chunk's result: every axis from zero state in one pass (the whole array's native calls),
    then, for each axis its line crosses chunks along, its response to its entering states: the
    chunk's part (k of its line, `places`: (axis, k, key)) of that line's solved states."""
    y = _pass(block, ops)
    for (axis, k, key), line in zip(places, states):
        r2 = 2 * len(key[1])
        y = _correct(y, _along(line, axis, k * r2, (k + 1) * r2), axis, key)
    return y


def _summaries(block, index, specs):
    """A chunk's summaries along each axis of `specs` (axis, key, boundary, lengths, within), each
    with `within` ({axis: Op}) applied to it in the chunk: one task reads the chunk for them all."""
    return tuple(_on_lines(_sums(block, axis, key, boundary, lengths, index[axis]), within)
                 for axis, key, boundary, lengths, within in specs)


class _Sums(typing.NamedTuple):
    """One axis's summaries: the chunks of `array` (with `chunks`), or where `item` is given, that
    item of each chunk of `array` (a chunk's summaries of every axis, computed together)."""
    array: object
    item: typing.Optional[int]
    chunks: tuple

    def task(self, index):
        key = (self.array.name,) + tuple(index)
        return key if self.item is None else (operator.getitem, key, self.item)

    def as_array(self):
        if self.item is None:
            return self.array
        return self.array.map_blocks(operator.getitem, self.item, chunks=self.chunks, dtype=np.float64,
                                     meta=np.empty((0,) * len(self.chunks), np.float64))

    def line_bytes(self, axis):
        """The bytes of one line of chunks along `axis`, the largest."""
        return 8 * sum(self.chunks[axis]) * math.prod(max(c) for a, c in enumerate(self.chunks) if a != axis)


def _iir_axis(dx, axis, op):
    """The causal–anticausal recursion along `axis`, exact across the chunks (_carries)."""
    return _iir_axes(dx, {axis: op})


def _on_lines(block, ops):
    """`ops` ({axis: Op}) of a host float64 array (summaries) by plain loops over each line."""
    y = np.ascontiguousarray(block, dtype=np.float64)
    for axis, op in sorted(ops.items()):
        if y.size:
            y = _native.filter_lines(op.gain, op.feedback, op.boundary, _lines(y, axis)).reshape(y.shape)
    return y


# Summaries smaller than this per line of chunks are filtered whole along an axis, in one task.
_WHOLE_SUMMARY_BYTES = 64 << 20


def _line_exactly(pieces, axis, op):
    return _on_lines(np.concatenate(pieces, axis=axis), {axis: op})


def _exactly(sums, axis, op):
    """A recursion along `axis` of summaries (_Sums): each line of chunks gathered and filtered
    whole in one task where that is small (the result one chunk along `axis`), else across the
    chunks as any array."""
    import itertools

    import dask.array as da
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    chunks = tuple((sum(c),) if a == axis else c for a, c in enumerate(sums.chunks))
    if sums.line_bytes(axis) > _WHOLE_SUMMARY_BYTES:
        return _Sums(_iir_axis(sums.as_array(), axis, op), None, sums.chunks)
    name = "exactly-" + tokenize(sums.array.name, sums.item, axis, _key(op), op.boundary)
    graph = {}
    count = len(sums.chunks[axis])
    for line in itertools.product(*(range(len(c)) for a, c in enumerate(sums.chunks) if a != axis)):
        pieces = [sums.task(line[:axis] + (k,) + line[axis:]) for k in range(count)]
        graph[(name,) + line[:axis] + (0,) + line[axis:]] = (_line_exactly, pieces, axis, op)
    layers = HighLevelGraph.from_collections(name, graph, dependencies=[sums.array])
    return _Sums(da.Array(layers, name, chunks, meta=_host_meta(sums.array)), None, chunks)


def _piece(sums, grid, index):
    """A task reading the part of `sums` (_Sums) at chunk `index` of the grid `grid` (the data's
    chunks): where `sums` is one chunk along an axis the grid cuts, that chunk's rows at the index."""
    at, cut = [], []
    for a, k in enumerate(index):
        if len(sums.chunks[a]) == 1 and len(grid[a]) > 1:
            start = sum(grid[a][:k])
            at.append(0)
            cut.append(slice(start, start + grid[a][k]))
        else:
            at.append(k)
            cut.append(slice(None))
    return (operator.getitem, sums.task(at), tuple(cut))


def _iir_axes(dx, ops):
    """Every axis's recursion at once, exact across the chunks. y = R_0 R_1 … x, each R_a the
    zero-state recursion Z_a plus its response to the entering states, K_a; expanded axis after
    axis, y = Z_0 Z_1 … x + Σ_a K_a (R_b<a Z_b>a x): each chunk's zero-state pass over all axes,
    plus one correction per axis whose states come from the summaries of the other axes'
    operators applied to the samples. The summaries are weighted sums along `a`, which those
    operators (along other axes) commute with: each chunk's sums are taken there on O(r) values
    per line. So the states depend on the samples alone, and each chunk is read, filtered and
    corrected in one task after its lines' solves."""
    import itertools

    import dask.array as da
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    axes = sorted(ops)
    multi = [a for a in axes if len(dx.chunks[a]) > 1]
    # An axis whole in its chunks is filtered exactly, its mode and all, in the pass.
    pass_ops = {a: _none(ops[a]) if a in multi else ops[a] for a in axes}
    if not multi:
        return dx.map_blocks(_pass, pass_ops, meta=_meta(dx))
    token = tokenize(dx, sorted((a, _key(op), op.boundary) for a, op in ops.items()))
    name = "carried-" + token
    graph, dependencies, solves = {}, [dx], {}
    grid = [range(len(c)) for c in dx.chunks]
    # Within each chunk's task: the axes whole in their chunks, exactly, and the later axes'
    # zero-state passes; across the chunks (below), the earlier axes' exact recursions.
    specs = []
    for axis in multi:
        within = {b: ops[b] for b in axes if b not in multi}
        within.update({b: _none(ops[b]) for b in multi if b > axis})
        specs.append((axis, _key(ops[axis]), ops[axis].boundary, tuple(dx.chunks[axis]), within))
    summaries_name = "summaries-" + token
    layer = {(summaries_name,) + index: (_summaries, (dx.name,) + index, index, specs)
             for index in itertools.product(*grid)}
    summaries = da.Array(HighLevelGraph.from_collections(summaries_name, layer, dependencies=[dx]), summaries_name,
                         dx.chunks, meta=np.empty((0,) * dx.ndim, object))
    for i, axis in enumerate(multi):
        op, lengths = ops[axis], tuple(dx.chunks[axis])
        width = _carries.summary_width(len(op.feedback), op.boundary)
        sums = _Sums(summaries, i, tuple((width,) * len(lengths) if a == axis else c
                                         for a, c in enumerate(dx.chunks)))
        for b in multi:
            if b < axis:
                sums = _exactly(sums, b, ops[b])
        dependencies.append(sums.array)
        solves[axis] = f"carries-{axis}-{token}"
        solve = functools.partial(_solve_line, axis=axis, key=_key(op), lengths=lengths, boundary=op.boundary)
        for line in itertools.product(*(g for a, g in enumerate(grid) if a != axis)):
            pieces = [_piece(sums, dx.chunks, line[:axis] + (k,) + line[axis:]) for k in range(len(lengths))]
            graph[(solves[axis],) + line] = (solve, pieces)
    for index in itertools.product(*grid):
        places = [(a, index[a], _key(ops[a])) for a in multi]
        states = [(solves[a],) + index[:a] + index[a + 1:] for a in multi]
        chunk = functools.partial(_filter_chunk, ops=pass_ops, places=places)
        graph[(name,) + index] = (chunk, (dx.name,) + index, states)
    layers = HighLevelGraph.from_collections(name, graph, dependencies=dependencies)
    return da.Array(layers, name, dx.chunks, meta=_meta(dx))


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
    rounded = {a: narrowing and i < len(axes) - 1 - paired for i, a in enumerate(axes)}
    fused = _all_axes(y, ops, rounded, out_dtype)
    y = _axis_by_axis(y, ops, rounded, out_dtype, compute) if fused is None else fused
    if np.dtype(out_dtype) == y.dtype:
        return y
    return y.map_blocks(_cast, out_dtype, meta=_meta(y, out_dtype))


def _all_axes(y, ops, rounded, out_dtype):
    """Every axis in one pass over each chunk where the operations allow (None elsewhere): FIRs
    from one halo, or recursions with no rounding between the axes (as the whole array, which
    pairs the last two)."""
    if all(op.kind == "fir" for op in ops.values()):
        return _fir_axes(y, ops, {a: out_dtype if r else None for a, r in rounded.items()})
    if all(op.kind == "iir" and not (op.boundary == "zero" and op.cval) for op in ops.values()) and not any(
            rounded.values()):
        return _iir_axes(y, ops)
    return None


def _axis_by_axis(y, ops, rounded, out_dtype, compute):
    for axis in sorted(ops):
        op = ops[axis]
        c = op.cval if op.boundary == "zero" else 0.0
        # scipy's constant mode: (x − c) extended by zeros, plus c times the filter's DC gain.
        y = _axis(y - y.dtype.type(c) if c else y, axis, op)
        if c:
            y = y + y.dtype.type(c * op.dc())
        if rounded[axis]:
            y = y.map_blocks(_cast, out_dtype, compute, meta=_meta(y))
    return y


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
