"""Summed-area tables of 2D images (and the planes of stacks of them)."""

from . import _dask, _native
from ._arrays import Arrays

_TYPES = ("float32", "uint8", "uint16")


def planes(arrays, x, channel_axis):
    """`x` as contiguous (N, H, W) planes (leading axes and the channel axis as N), and how to put
    a result of that form back."""
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
    stack = xp.ascontiguousarray(x.reshape((-1,) + tuple(shape[-2:])))

    def restore(result):
        result = result.reshape(tuple(shape[:-2]) + tuple(result.shape[-2:]))
        return xp.moveaxis(result, 0, channel_axis) if channel_axis is not None else result

    return stack, restore


def _table_type(dtype, height, width):
    """The table's type for images of `dtype` and that size (refusing other types)."""
    name = str(dtype)
    if name not in _TYPES:
        raise ValueError(f"summed_area_table takes {', '.join(_TYPES)} arrays, not {name}")
    return _native.sat_output_type(name, height, width)


def summed_area_table(x, exclusive=False, channel_axis=None):
    """V[y, x] = Σ_{y' ≤ y, x' ≤ x} X[y', x'] of each image (the last two axes): float32 for
    float32; exact uint32 for uint8/uint16 (uint64 where uint32 could overflow). `exclusive`: one
    more row and column, zeros first (OpenCV's integral)."""
    if _dask.is_dask(x):
        return _dask_table(x, exclusive, channel_axis)
    arrays = Arrays(x)
    xp = arrays.xp
    with arrays.context():
        stack, restore = planes(arrays, arrays.data, channel_axis)
        n, h, w = stack.shape
        out_type = _table_type(stack.dtype, h, w)
        if exclusive:
            out = xp.zeros((n, h + 1, w + 1), dtype=out_type)
            target = out[:, 1:, 1:]
        else:
            out = target = xp.empty((n, h, w), dtype=out_type)
        _native.summed_area_table(arrays, stack, target)
        return arrays.back(restore(out))


def _dask_table(dx, exclusive, channel_axis):
    """summed_area_table of a Dask array: each chunk's own table (the native call), plus what the
    chunks above and to the left add, from their last rows, last columns and totals only (a
    prefix sum over the chunk grid of one row, one column and one value per chunk)."""
    import dask.array as da

    if channel_axis is not None:
        dx = da.moveaxis(dx, channel_axis, 0)
    if dx.ndim < 2:
        raise ValueError(f"expected an image of 2 or more axes, not {dx.ndim}")
    out_type = _table_type(dx.dtype, dx.shape[-2], dx.shape[-1])
    meta = dx._meta.astype(out_type)
    local = dx.map_blocks(summed_area_table, meta=meta)
    ones = lambda axis: tuple((1,) * len(c) if a == axis % dx.ndim else c for a, c in enumerate(dx.chunks))
    bottom = local.map_blocks(lambda b: b[..., -1:, :], chunks=ones(-2), meta=meta)
    right = local.map_blocks(lambda b: b[..., :, -1:], chunks=ones(-1), meta=meta)
    corner = bottom.map_blocks(lambda b: b[..., :, -1:], chunks=tuple(ones(-1)[:-2]) + (ones(-2)[-2], ones(-1)[-1]),
                               meta=meta)

    def before(a, axis):  # the sum over the chunks before each chunk along `axis`
        return da.cumsum(a, axis=axis, dtype=out_type) - a

    top, left = before(bottom, -2), before(right, -1)
    corner = before(before(corner, -2), -1)
    index = tuple(range(dx.ndim))
    table = da.blockwise(lambda t, a, b, c: t + a + b + c, index, local, index, top, index, left, index, corner, index,
                         align_arrays=False, meta=meta)
    if exclusive:
        table = da.pad(table, [(0, 0)] * (dx.ndim - 2) + [(1, 0), (1, 0)])
    return da.moveaxis(table, 0, channel_axis) if channel_axis is not None else table
