"""Dask arrays: every public function on chunked arrays equals the whole-array call, for any
chunking (chunks of one sample included), every mode, on the threaded scheduler and on a
LocalCluster of two worker processes."""
import numpy as np
import pytest

import cascade
from support import RNG, needs_cuda, random_array, relative

da = pytest.importorskip("dask.array", reason="Dask is not installed (Debian: python3-dask)")

MODES = ("reflect", "mirror", "nearest", "wrap", "constant")
# The whole-array call's own rounding is the bound: chunked float32 adds at most a few of its
# ulps, float64 stays at float64's rounding.
TOLERANCE = {np.float32: 5e-6, np.float64: 1e-12}


def cancellation(sigma):
    """deriche4's cascade form (float64) sums a numerator of large taps of both signs whose total
    is small: its results, whole or chunked, carry float64's rounding times Σ|taps| / |Σ taps|
    (48 at σ 6, 2.3e4 at σ 16), and two summation orders agree to that much only."""
    taps = np.array(cascade._native.deriche4_cascade(sigma)[0])
    return float(np.abs(taps).sum() / abs(taps.sum()))


# Filters whose float64 agreement is bounded by their own conditioning.
FLOAT64_BOUND = {"gaussian deriche4": 1e-12 * cancellation(6.0)}

FILTERS = {
    "gaussian vanvliet": lambda a, m: cascade.gaussian_filter(a, 3.0, mode=m, method="vanvliet"),
    "gaussian deriche4": lambda a, m: cascade.gaussian_filter(a, 6.0, mode=m, method="deriche4", cval=0.5),
    "gaussian fir": lambda a, m: cascade.gaussian_filter(a, 1.5, mode=m, cval=-1.0),
    "gaussian order 1": lambda a, m: cascade.gaussian_filter(a, 2.0, order=(1, 0), mode=m)
    if a.ndim == 2 else cascade.gaussian_filter(a, 2.0, order=1, mode=m),
    "gaussian_filter1d": lambda a, m: cascade.gaussian_filter1d(a, 7.0, axis=0, mode=m, method="vanvliet"),
    "gaussian_laplace": lambda a, m: cascade.gaussian_laplace(a, 1.2, mode=m),
    "gaussian_gradient_magnitude": lambda a, m: cascade.gaussian_gradient_magnitude(a, 1.2, mode=m),
    "spline_filter 2": lambda a, m: cascade.spline_filter(a, 2, mode=m, output=a.dtype),
    "spline_filter 3": lambda a, m: cascade.spline_filter(a, 3, mode=m, output=a.dtype),
    "spline_filter 5": lambda a, m: cascade.spline_filter(a, 5, mode=m, output=a.dtype),
    "spline_filter1d": lambda a, m: cascade.spline_filter1d(a, 4, axis=-1, mode=m, output=a.dtype),
    "iir_filter": lambda a, m: cascade.iir_filter(a, [-1.6, 0.7], mode=m),
    "uniform_filter": lambda a, m: cascade.uniform_filter(a, (4, 5, 3)[:a.ndim], mode=m, origin=1),
}


def random_chunks(shape, single=False):
    """Random chunk sizes along each axis, from one sample to the whole axis."""
    chunks = []
    for n in shape:
        if single:
            chunks.append((1,) * n)
            continue
        cuts = sorted(set(RNG.integers(1, n, size=RNG.integers(0, min(n, 6))).tolist())) if n > 1 else []
        chunks.append(tuple(np.diff([0] + cuts + [n]).tolist()))
    return tuple(chunks)


def check_chunked(name, x, mode, chunks, scheduler="threads"):
    f = FILTERS[name]
    whole = f(x, mode)
    lazy = f(da.from_array(x, chunks=chunks), mode)
    assert isinstance(lazy, da.Array)
    assert lazy.chunks == chunks and lazy.dtype == whole.dtype
    got = lazy.compute(scheduler=scheduler) if scheduler else lazy.compute()
    bound = TOLERANCE[np.dtype(x.dtype).type]
    if x.dtype == np.float64:
        bound = FLOAT64_BOUND.get(name, bound)
    assert relative(got, whole, floor=1e-30) <= bound, f"{name} {mode} {chunks}"


@pytest.mark.parametrize("name", sorted(FILTERS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (37, 53), (6, 9, 17)])
def test_any_chunking_equals_the_whole_array(name, dtype, shape):
    x = random_array(shape, dtype)
    for mode in MODES:
        check_chunked(name, x, mode, random_chunks(shape))


@pytest.mark.parametrize("name", ["gaussian vanvliet", "spline_filter 3", "iir_filter", "gaussian deriche4"])
def test_chunks_of_one_sample(name):
    x = random_array((7, 11), np.float64)
    for mode in MODES:
        check_chunked(name, x, mode, random_chunks(x.shape, single=True))


def test_long_lines_across_many_chunks():
    """Recursions that decay within a chunk, and chunks far from the line's ends."""
    x = random_array((3, 4000), np.float32)
    for mode in MODES:
        check_chunked("gaussian vanvliet", x, mode, ((3,), (500,) * 8))
        check_chunked("spline_filter 5", x.astype(np.float64), mode, ((1, 2), (129, 1000, 2871)))


def test_summaries_too_large_to_gather_run_across_the_chunks(monkeypatch):
    """Where one line of an axis's summaries would pass what one task gathers, the earlier axes'
    recursions run on the summaries across their chunks, as on any array: the same result."""
    from cascade import _dask

    monkeypatch.setattr(_dask, "_WHOLE_SUMMARY_BYTES", 0)
    lazy = FILTERS["gaussian vanvliet"](da.from_array(random_array((37, 53), np.float32), chunks=(10, 20)), "reflect")
    assert sum(name.startswith("carried-") for name in lazy.dask.layers) > 1  # the summaries' own carries
    for shape, chunks in (((37, 53), ((10, 27), (20, 20, 13))), ((6, 9, 17), ((2, 4), (5, 4), (17,)))):
        for dtype in (np.float32, np.float64):
            x = random_array(shape, dtype)
            for mode in MODES:
                check_chunked("gaussian vanvliet", x, mode, chunks)
                check_chunked("iir_filter", x, mode, chunks)


FIRS = ["gaussian fir", "gaussian order 1", "gaussian_laplace", "gaussian_gradient_magnitude", "uniform_filter"]


@pytest.mark.parametrize("name", FIRS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_firs_read_one_halo_per_chunk(name, dtype):
    """Chunks longer than the taps' reach: every axis of a chunk filtered in one task from one
    halo, no sample computed twice, equal to the whole array to its rounding."""
    for shape, chunks in (((64, 71), ((20, 25, 19), (30, 41))), ((24, 30, 33), ((12, 12), (9, 10, 11), (33,)))):
        x = random_array(shape, dtype)
        for mode in MODES:
            lazy = FILTERS[name](da.from_array(x, chunks=chunks), mode)
            assert any(key.startswith("_fir_block") for key in lazy.dask.layers), name
            check_chunked(name, x, mode, chunks)


def test_float32_chunks_as_close_to_float64_as_the_whole_array():
    """Long recursions (van Vliet σ 16, poles 0.93) in float32: the states between chunks come
    from float64 sums, so the chunked result is no farther from the float64 one than the whole
    array's own float32 call."""
    x = random_array((512, 512), np.float32)
    exact = cascade.gaussian_filter(x.astype(np.float64), 16.0, method="vanvliet")
    whole = cascade.gaussian_filter(x, 16.0, method="vanvliet")
    for chunks in ((128, 128), (200, 512), (512, 100)):
        got = cascade.gaussian_filter(da.from_array(x, chunks=chunks), 16.0, method="vanvliet").compute(scheduler="threads")
        assert relative(got, exact) <= 1.5 * relative(whole, exact) + 1e-7, chunks


def test_types_and_outputs_follow_the_whole_array():
    x = random_array((20, 30), np.uint8)
    dx = da.from_array(x, chunks=(7, 11))
    for call in (lambda a: cascade.gaussian_filter(a, 2.5, method="vanvliet"),
                 lambda a: cascade.spline_filter(a, 3),
                 lambda a: cascade.uniform_filter(a, 3, output=np.int16),
                 lambda a: cascade.uniform_filter(a, (2, 3)),
                 lambda a: cascade.gaussian_filter(a, 1.0),
                 lambda a: cascade.gaussian_filter(a, 2.0, output=np.float32)):
        whole, lazy = call(x), call(dx)
        assert lazy.dtype == whole.dtype
        got = lazy.compute(scheduler="threads")
        if whole.dtype.kind == "f":
            assert relative(got, whole) < 1e-12
        else:  # as scipy, rounded toward zero from values that agree to 1e-13
            np.testing.assert_array_equal(got, whole)
    z = random_array((16, 12), np.complex128)
    whole = cascade.gaussian_filter(z, 3.0, method="vanvliet")
    lazy = cascade.gaussian_filter(da.from_array(z, chunks=5), 3.0, method="vanvliet")
    assert lazy.dtype == whole.dtype and relative(lazy.compute(scheduler="threads"), whole) < 1e-12


def test_lazy_until_computed_and_errors_are_clear():
    calls = []

    def source(block):
        calls.append(block.shape)
        return block

    dx = da.from_array(random_array((40, 40), np.float32), chunks=10).map_blocks(source, meta=np.empty((0, 0), np.float32))
    lazy = cascade.gaussian_filter(dx, 4.0, method="vanvliet")
    assert not calls
    lazy.compute(scheduler="threads")
    assert calls
    with pytest.raises(ValueError, match="Dask"):
        cascade.gaussian_filter(dx, 2.0, output=np.empty((40, 40), np.float32))
    with pytest.raises(ValueError, match="two"):
        cascade.gaussian_filter(dx, 2.0, method="deriche2")


@pytest.fixture(scope="module")
def cluster_client():
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed "
                                      "(Debian: python3-distributed)")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


@pytest.mark.parametrize("name", ["gaussian vanvliet", "gaussian fir", "spline_filter 3", "uniform_filter",
                                  "gaussian_gradient_magnitude"])
def test_on_a_local_cluster(cluster_client, name):
    for shape, dtype in (((37, 53), np.float32), ((6, 9, 17), np.float64)):
        x = random_array(shape, dtype)
        for mode in MODES:
            check_chunked(name, x, mode, random_chunks(shape), scheduler=None)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_summed_area_table_across_chunks(dtype):
    # A sample a chunk on the small shapes only: 37×53 of them is a graph of 43,000 tasks (10 s).
    for shape in ((1, 1), (37, 53), (7, 11), (3, 8, 9)):
        x = (RNG.integers(0, 200, shape)).astype(dtype)
        singles = (random_chunks(shape, single=True),) if x.size <= 256 else ()
        for chunks in (random_chunks(shape),) + singles:
            for exclusive in (False, True):
                whole = cascade.summed_area_table(x, exclusive=exclusive)
                lazy = cascade.summed_area_table(da.from_array(x, chunks=chunks), exclusive=exclusive)
                assert lazy.dtype == whole.dtype
                assert exclusive or lazy.chunks == chunks
                got = lazy.compute(scheduler="threads")
                if dtype == np.float32:
                    assert relative(got, whole) <= 5e-6
                else:  # integer tables are exact
                    np.testing.assert_array_equal(got, whole)


@needs_cuda
@pytest.mark.parametrize("name", ["gaussian vanvliet", "spline_filter 3", "iir_filter", "gaussian fir",
                                  "uniform_filter"])
def test_cupy_chunks_spread_over_the_devices(name):
    """CuPy chunks, each made on one of the visible GPUs in turn: each filtered where it lives,
    only the carries crossing devices; equal to the whole array on device 0."""
    import cupy

    devices = cupy.cuda.runtime.getDeviceCount()
    f = FILTERS[name]
    for shape, dtype in (((37, 53), np.float32), ((6, 9, 17), np.float64), ((300, 257), np.float32)):
        x = random_array(shape, dtype)
        chunks = random_chunks(shape)
        grid = tuple(len(c) for c in chunks)

        def make(block_info=None):
            info = block_info[None]
            flat = int(np.ravel_multi_index(info["chunk-location"], grid))
            where = tuple(slice(s, e) for s, e in info["array-location"])
            with cupy.cuda.Device(flat % devices):
                return cupy.asarray(x[where])

        dx = da.map_blocks(make, chunks=chunks, meta=cupy.empty((0,) * len(shape), dtype), dtype=dtype)
        for mode in MODES:
            with cupy.cuda.Device(0):
                whole = cupy.asnumpy(f(cupy.asarray(x), mode))
            lazy = f(dx, mode)
            assert lazy.chunks == chunks and lazy.dtype == whole.dtype
            blocks = lazy.to_delayed()
            got = np.empty(whole.shape, whole.dtype)
            for index in np.ndindex(blocks.shape):
                where = tuple(slice(sum(c[:i]), sum(c[:i + 1])) for c, i in zip(chunks, index))
                got[where] = cupy.asnumpy(blocks[index].compute(scheduler="threads"))
            bound = TOLERANCE[np.dtype(dtype).type]
            assert relative(got, whole, floor=1e-30) <= bound, f"{name} {mode} {chunks} on {devices} GPUs"
