"""The frame every filter shares: array-likes in, scipy's output rules, complex input as its real
and imaginary parts, the result in the input's array library."""

import numpy as np

from . import _dask
from ._arrays import Arrays, Work, check_type, compute_type, given_array, output_for
from ._separable import filter_axes


def separable(input, output, make_ops, complex_output=None):
    """Filters `input` into `output` (scipy's output argument) by the operations
    make_ops(ndim, cval_part, output_dtype, work) gives, {axis: Op}; cval_part picks the real or the
    imaginary part of a complex cval, work (a Work) says where and in which type the pipelines run."""
    if _dask.is_dask(input):
        return _dask.separable(input, output, make_ops, complex_output)
    arrays = Arrays(input)
    x = arrays.data
    check_type(x.dtype)
    is_complex = x.dtype.kind == "c"
    with arrays.context():
        out = output_for(arrays, x, output, complex_output=is_complex if complex_output is None else complex_output)
        work = Work(compute_type(x.dtype, out.dtype), arrays.cuda)
        if is_complex:
            filter_axes(arrays, x.real, out.real, make_ops(x.ndim, np.real, out.dtype, work))
            filter_axes(arrays, x.imag, out.imag, make_ops(x.ndim, np.imag, out.dtype, work))
        else:
            ops = make_ops(x.ndim, np.real, out.dtype, work)
            if out.dtype.kind == "c":
                filter_axes(arrays, x, out.real, ops)
                out.imag[...] = 0
            else:
                filter_axes(arrays, x, out, ops)
    return output if given_array(output) else arrays.back(out)

