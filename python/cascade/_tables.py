"""Summed-area tables of 2D images (and the planes of stacks of them)."""

from . import _native
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


def summed_area_table(x, exclusive=False, channel_axis=None):
    """V[y, x] = Σ_{y' ≤ y, x' ≤ x} X[y', x'] of each image (the last two axes): float32 for
    float32; exact uint32 for uint8/uint16 (uint64 where uint32 could overflow). `exclusive`: one
    more row and column, zeros first (OpenCV's integral)."""
    arrays = Arrays(x)
    xp = arrays.xp
    with arrays.context():
        stack, restore = planes(arrays, arrays.data, channel_axis)
        name = str(stack.dtype)
        if name not in _TYPES:
            raise ValueError(f"summed_area_table takes {', '.join(_TYPES)} arrays, not {name}")
        n, h, w = stack.shape
        out_type = _native.sat_output_type(name, h, w)
        if exclusive:
            out = xp.zeros((n, h + 1, w + 1), dtype=out_type)
            target = out[:, 1:, 1:]
        else:
            out = target = xp.empty((n, h, w), dtype=out_type)
        _native.summed_area_table(arrays, stack, target)
        return arrays.back(restore(out))
