"""Helpers shared by the package's tests."""
import importlib.util

import numpy as np
import pytest

import cascade

RNG = np.random.default_rng(2026)


def relative(a, b, floor=1e-6):
    """‖a − b‖ / ‖b‖; `floor` bounds the denominator from below, so that results that cancel to
    about zero (a derivative of a line of one or two samples) are judged against the data's scale."""
    a = np.asarray(a, np.complex128 if np.iscomplexobj(a) else np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), floor))


def random_array(shape, dtype=np.float64):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return RNG.uniform(-1, 1, shape).astype(dtype)
    if dtype.kind == "c":
        return (RNG.uniform(-1, 1, shape) + 1j * RNG.uniform(-1, 1, shape)).astype(dtype)
    if dtype.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dtype)
    return RNG.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape).astype(dtype)


def _cuda_missing():
    """Why the CUDA cases cannot run here, or None."""
    if importlib.util.find_spec("cupy") is None:
        return "CuPy is not installed"
    if cascade._native.cuda_devices() == 0:
        return "no CUDA device"
    return None


# The CUDA cases: skipped, saying why, without CuPy or a device.
needs_cuda = pytest.mark.skipif(_cuda_missing() is not None, reason=str(_cuda_missing()))
