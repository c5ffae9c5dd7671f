"""Every function of the drop-in on CuPy arrays against cupyx.scipy.ndimage, the same calls as on
NumPy: N-D, every mode, float32, float64 and an integer type, output arrays and in place. Skipped,
saying why, without CuPy or a CUDA device."""
import numpy as np
import pytest

import cascade
from support import needs_cuda, relative

pytestmark = needs_cuda

MODES = ["reflect", "mirror", "wrap", "nearest", "constant", "grid-wrap"]
# The spline prefilters' modes whose start cupyx and scipy 1.10 (the semantics followed here) both
# compute exactly; for nearest, wrap and constant each starts its recursions its own approximate
# way (test_cascade.py checks those against scipy 1.10).
SPLINE_MODES = ["reflect", "mirror", "grid-wrap"]
# Few shapes: cupyx compiles a kernel for each shape, type, mode and filter it meets.
SHAPES = [(1, 1), (37, 29), (5, 7, 9), (3, 257)]
CALLS = {
    "gaussian_filter": lambda m, x, mode: m.gaussian_filter(x, 1.5, mode=mode),
    "gaussian_filter order 1": lambda m, x, mode: m.gaussian_filter(x, 2.0, order=1, mode=mode),
    "gaussian_filter sigma 9": lambda m, x, mode: m.gaussian_filter(x, 9.0, mode=mode),
    "gaussian_filter1d": lambda m, x, mode: m.gaussian_filter1d(x, 2.0, axis=0, order=2, mode=mode),
    "gaussian_laplace": lambda m, x, mode: m.gaussian_laplace(x, 1.0, mode=mode),
    "gaussian_gradient_magnitude": lambda m, x, mode: m.gaussian_gradient_magnitude(x, 1.0, mode=mode),
    "spline_filter": lambda m, x, mode: m.spline_filter(x, 3, mode=mode, output=x.dtype),
    "spline_filter1d": lambda m, x, mode: m.spline_filter1d(x, 5, axis=-1, mode=mode, output=x.dtype),
    "uniform_filter": lambda m, x, mode: m.uniform_filter(x, 4, mode=mode),
    "uniform_filter1d": lambda m, x, mode: m.uniform_filter1d(x, 7, axis=0, mode=mode, origin=1),
}
# The distance from cupyx's result, ‖ours − theirs‖ / max(‖theirs‖, ‖input‖): relative, but
# measured against the input where a derivative of nearly constant data is nearly zero. float64
# and the FIR paths to rounding; the recursive Gaussian (sigma 9 is past the FIR crossover) within
# its distance from the truncated kernel.
BOUNDS = {"float32": 1e-5, "float64": 1e-12}


def distance(ours, theirs, x):
    ours, theirs, x = (np.asarray(a, np.float64) for a in (ours, theirs, x))
    return np.linalg.norm(ours - theirs) / max(np.linalg.norm(theirs), np.linalg.norm(x), 1e-300)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matches_cupyx(name, dtype):
    import cupy
    import cupyx.scipy.ndimage as theirs

    rng = np.random.default_rng(5)
    for shape in SHAPES:
        for mode in MODES:
            if name.startswith("spline") and mode not in SPLINE_MODES:
                continue
            x = cupy.asarray(rng.uniform(-1, 1, shape).astype(dtype))
            got = CALLS[name](cascade, x, mode)
            want = CALLS[name](theirs, x, mode)
            assert isinstance(got, cupy.ndarray) and got.dtype == want.dtype and got.shape == want.shape
            bound = 2e-3 if name == "gaussian_filter sigma 9" else BOUNDS[dtype]
            if name.startswith("spline") and min(shape) < 16:
                bound = 1e-3  # on short lines scipy and cupyx start their spline recursions approximately
            assert distance(cupy.asnumpy(got), cupy.asnumpy(want), cupy.asnumpy(x)) <= bound, (shape, mode)


def test_integers_output_arrays_and_in_place():
    import cupy
    import cupyx.scipy.ndimage as theirs
    from scipy import ndimage

    x = cupy.asarray(np.random.default_rng(1).integers(0, 255, (33, 47), dtype=np.uint8))
    # Cast from float64 sums toward zero, as both cast: a sum within rounding of an integer may land
    # either side of it.
    difference = cupy.abs(cascade.gaussian_filter(x, 1.0).astype(int) - theirs.gaussian_filter(x, 1.0).astype(int))
    assert int(difference.max()) <= 1 and int(cupy.count_nonzero(difference)) <= x.size // 1000
    out = cupy.empty((33, 47), cupy.float64)
    assert cascade.uniform_filter(x, 5, output=out) is out
    # Against scipy: cupyx sums 8-bit samples in float32 (3e-8 from the float64 sums).
    assert relative(cupy.asnumpy(out), ndimage.uniform_filter(cupy.asnumpy(x), 5, output=np.float64)) <= 1e-12
    y = cupy.asarray(np.random.default_rng(2).uniform(0, 1, (40, 30)).astype(np.float32))
    want = theirs.gaussian_filter(y, 2.0)
    cascade.gaussian_filter(y, 2.0, output=y)
    assert relative(cupy.asnumpy(y), cupy.asnumpy(want)) <= 2e-6


DASK_CALLS = {
    "gaussian vanvliet": lambda x, mode: cascade.gaussian_filter(x, 3.0, mode=mode, method="vanvliet"),
    "gaussian fir": lambda x, mode: cascade.gaussian_filter(x, 1.5, mode=mode),
    "spline_filter": lambda x, mode: cascade.spline_filter(x, 3, mode=mode, output=x.dtype),
    "uniform_filter": lambda x, mode: cascade.uniform_filter(x, 5, mode=mode),
}


@pytest.mark.parametrize("name", sorted(DASK_CALLS))
def test_dask_arrays_of_cupy_chunks(name):
    """A Dask array of CuPy chunks equals the whole CuPy array's call: the chunks filtered on the
    GPU, the carries on the host; chunks shorter than the FIR's reach and longer."""
    import cupy

    da = pytest.importorskip("dask.array", reason="Dask is not installed (Debian: python3-dask)")
    rng = np.random.default_rng(6)
    for shape, chunks in (((37, 53), ((10, 27), (20, 13, 20))), ((6, 9, 17), ((2, 4), (9,), (5, 12))),
                          ((64, 40), ((30, 34), (1, 39)))):
        for dtype, bound in (("float32", 5e-6), ("float64", 1e-12)):
            x = cupy.asarray(rng.uniform(-1, 1, shape).astype(dtype))
            for mode in MODES[:5]:
                whole = DASK_CALLS[name](x, mode)
                lazy = DASK_CALLS[name](da.from_array(x, chunks=chunks, asarray=False), mode)
                got = lazy.compute(scheduler="threads")
                assert isinstance(got, cupy.ndarray) and got.dtype == whole.dtype
                assert relative(cupy.asnumpy(got), cupy.asnumpy(whole)) <= bound, (shape, dtype, mode)
