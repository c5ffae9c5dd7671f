"""Where an array lives (NumPy, CuPy, PyTorch), how its data reaches the native module, and
scipy.ndimage's rules for the output: its type, how values are cast into it, given arrays."""

import contextlib
import math
import threading
import warnings
from typing import NamedTuple

import numpy as np

from ._modes import ArgumentError


class Arrays:
    """The array library of `x`, how to reach its data, and how to give a result back in it."""

    def __init__(self, x):
        kind = type(x).__module__.split(".")[0]
        self.torch = kind == "torch"
        if self.torch:
            if x.is_cuda:
                import cupy
                import torch

                self.xp, self.cuda = cupy, True
                self.stream = torch.cuda.current_stream(x.device).cuda_stream
                self.data = cupy.from_dlpack(x.detach())
            else:
                self.xp, self.cuda, self.stream = np, False, 0
                self.data = x.detach().numpy()
        elif isinstance(x, np.ndarray) or np.isscalar(x) or isinstance(x, (list, tuple)):
            self.xp, self.cuda, self.stream, self.data = np, False, 0, np.asarray(x)
        elif kind == "cupy":
            import cupy

            self.xp, self.cuda, self.data = cupy, True, x
            with x.device:
                self.stream = cupy.cuda.get_current_stream().ptr
        elif hasattr(x, "__dlpack__"):
            device = x.__dlpack_device__()[0]
            if device == 1:
                self.xp, self.cuda, self.stream, self.data = np, False, 0, np.from_dlpack(x)
            elif device == 2:
                import cupy

                self.xp, self.cuda, self.data = cupy, True, cupy.from_dlpack(x)
                with self.data.device:
                    self.stream = cupy.cuda.get_current_stream().ptr
            else:
                raise ValueError("arrays on the CPU or on a CUDA device are supported")
        elif hasattr(x, "__array__"):
            self.xp, self.cuda, self.stream, self.data = np, False, 0, np.asarray(x)
        else:
            raise TypeError(f"expected an array (NumPy, CuPy, PyTorch) or a list of numbers, not {type(x).__name__}")
        if self.data.dtype == object or self.data.dtype.kind in "SUVMm":
            raise TypeError(f"cascade filters numbers, not {self.data.dtype} arrays")

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
        """Where CuPy's work for this array runs: on its device (the native calls run there
        too), and for PyTorch's arrays on PyTorch's current stream."""
        if not self.cuda:
            return contextlib.nullcontext()
        import cupy

        stack = contextlib.ExitStack()
        stack.enter_context(self.data.device)
        if self.torch:
            # CuPy's work here (conversions, allocations) joins PyTorch's current stream.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                stack.enter_context(cupy.cuda.ExternalStream(self.stream))
        return stack


# float32 and complex64 run on float32 pipelines; everything else, like scipy, in float64, so that
# integer results are cast from the values scipy casts.
_NARROW = {"float32", "complex64"}
# scipy.ndimage's types (it refuses float16, as this does).
_SUPPORTED = {"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
              "float64", "complex64", "complex128"}
# The same as dtypes: tested by identity and hash, where a dtype's name is a Python property
# that cost a small call more than its filtering (2 cores: 20 of 64 µs at 8²).
_SUPPORTED_TYPES = {np.dtype(name) for name in _SUPPORTED}
_NARROW_TYPES = {np.dtype(name) for name in _NARROW}


def _native_order(dtype):
    dtype = np.dtype(dtype)
    return dtype if dtype.isnative else dtype.newbyteorder("=")


def check_type(dtype, what="input"):
    if _native_order(dtype) not in _SUPPORTED_TYPES:
        name = np.dtype(dtype).name
        raise ArgumentError(f"array type not supported: the {what} is {name} (cascade filters bool, integer, "
                            f"float32/64 and complex64/128 arrays, as scipy.ndimage)")


def compute_type(input_dtype, output_dtype):
    """The floating-point type the pipelines run in: float32 where input and output are float32 (or
    complex64), float64 otherwise."""
    narrow = _native_order(input_dtype) in _NARROW_TYPES and _native_order(output_dtype) in _NARROW_TYPES
    return np.float32 if narrow else np.float64


class Work(NamedTuple):
    """Where a call's pipelines run and in which type."""

    dtype: type
    cuda: bool


def output_type(dtype, output, complex_output=False):
    """The dtype of scipy.ndimage's new output: the input's (`dtype`) for None, else `output`."""
    if output is None:
        return np.promote_types(dtype, np.complex64) if complex_output else np.dtype(dtype)
    try:
        result = np.dtype(output)
    except TypeError as e:
        raise TypeError(f"output {output!r} is not an array or a dtype") from e
    if complex_output and result.kind != "c":
        warnings.warn("promoting specified output dtype to complex")
        result = np.promote_types(result, np.complex64)
    check_type(result, "output")
    return result


def output_for(arrays, x, output, complex_output=False):
    """scipy.ndimage's output: None (the input's type), a dtype (a new array of it) or an array of
    the input's shape, written in place (it may be the input itself)."""
    if output is None or isinstance(output, (type, np.dtype, str)):
        return arrays.xp.empty(x.shape, dtype=output_type(x.dtype, output, complex_output))
    if not hasattr(output, "shape") or not hasattr(output, "dtype"):
        raise TypeError(f"output is an array, a dtype or None, not {type(output).__name__}")
    if tuple(output.shape) != tuple(x.shape):
        raise ArgumentError(f"output shape {tuple(output.shape)} is not the input's {tuple(x.shape)}")
    if complex_output and output.dtype.kind != "c":
        raise ArgumentError("output must have complex dtype for a complex input")
    check_type(output.dtype, "output")
    return output


def given_array(output):
    """Whether `output` is an array to write into (else None or a dtype)."""
    return output is not None and not isinstance(output, (type, np.dtype, str))


def cast_into(xp, target, values):
    """Writes floating-point `values` into `target` as scipy.ndimage's C loops cast them: toward
    zero for integers, wrapping past the type's range as a C conversion through int64 does."""
    kind, name = target.dtype.kind, target.dtype.name
    with np.errstate(invalid="ignore", over="ignore"):
        if name == "uint32":
            values = values.astype(xp.int64).astype(xp.uint32)
        elif name == "bool":
            values = values.astype(xp.uint8).astype(bool)
        elif kind in "iu":
            values = values.astype(target.dtype)
        target[...] = values
    return target


def as_type(xp, values, dtype):
    """`values` as an array of `dtype`, cast as cast_into does."""
    return cast_into(xp, xp.empty(values.shape, dtype=dtype), values)


# Work arrays of the CPU up to this size keep their memory between calls, a set per thread: fresh
# memory is paged in on its first writes, which at 512² float32 cost more than the filter itself
# (2 cores: 0.62 against 0.38 ms a Gaussian with a new array between its two axes).
KEPT_WORK_BYTES = 64 << 20
_kept = threading.local()


def work_array(arrays, shape, dtype, slot):
    """An array for an intermediate result, never handed to the caller; `slot` tells apart the
    ones alive at the same time."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if arrays.cuda or nbytes > KEPT_WORK_BYTES:
        return arrays.xp.empty(shape, dtype=dtype)
    slots = _kept.__dict__.setdefault("slots", {})
    memory = slots.get(slot)
    if memory is None or memory.nbytes < nbytes:
        memory = slots[slot] = np.empty(nbytes, np.uint8)
    return memory[:nbytes].view(dtype).reshape(shape)
