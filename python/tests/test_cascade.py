"""The package against scipy.ndimage (its drop-in promise) and against double-precision
definitions where scipy is not exact; on CUDA arrays of CuPy and PyTorch where a device exists."""
import numpy as np
import pytest
from scipy import ndimage, signal

import cascade
from support import RNG, needs_cuda, random_array, relative

MODES = ["reflect", "mirror", "wrap", "nearest", "constant", "grid-wrap", "grid-mirror", "grid-constant"]
SHAPES = [(1,), (7,), (1, 1), (2, 3), (13, 17), (3, 257), (131, 2), (5, 6, 7), (2, 3, 4, 5)]
# numpy.pad's name for each extension, to write it out past a filter's decay.
PAD_MODES = {"reflect": "symmetric", "mirror": "reflect", "wrap": "wrap", "nearest": "edge", "constant": "constant"}
PAD = 300


def exact_recursive(x, gain, feedback, mode, axes):
    """The causal–anticausal filter of x extended by `mode`, in double: the extension written out
    PAD samples past each edge (far past the decay), lfilter forward then backward."""
    width = [(PAD, PAD) if a in axes else (0, 0) for a in range(x.ndim)]
    y = np.pad(np.asarray(x, np.float64), width, mode=PAD_MODES[mode])
    a = np.concatenate([[1.0], feedback])
    for axis in axes:
        y = signal.lfilter([gain], a, y, axis=axis)
        y = np.flip(signal.lfilter([gain], a, np.flip(y, axis), axis=axis), axis)
    return y[tuple(slice(PAD, -PAD) if a in axes else slice(None) for a in range(x.ndim))]


# ---- the eight functions against scipy, N-D, every mode --------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", SHAPES)
def test_fir_paths_are_scipy_to_rounding(shape, mode):
    x = random_array(shape)
    cases = [
        (cascade.gaussian_filter, ndimage.gaussian_filter, dict(sigma=1.5, cval=0.3)),
        (cascade.gaussian_filter, ndimage.gaussian_filter, dict(sigma=0.3)),
        (cascade.gaussian_filter, ndimage.gaussian_filter, dict(sigma=2.0, order=1)),
        (cascade.gaussian_filter1d, ndimage.gaussian_filter1d, dict(sigma=1.2, order=2, axis=0)),
        (cascade.gaussian_laplace, ndimage.gaussian_laplace, dict(sigma=1.1, cval=-0.5)),
        (cascade.gaussian_gradient_magnitude, ndimage.gaussian_gradient_magnitude, dict(sigma=0.9)),
        (cascade.uniform_filter, ndimage.uniform_filter, dict(size=3, cval=0.2)),
        (cascade.uniform_filter, ndimage.uniform_filter, dict(size=4, origin=-1)),
        (cascade.uniform_filter1d, ndimage.uniform_filter1d, dict(size=5, origin=2, axis=-1)),
    ]
    scale = np.linalg.norm(x)
    for ours, theirs, kwargs in cases:
        expected = theirs(x, mode=mode, **kwargs)
        assert relative(ours(x, mode=mode, **kwargs), expected, scale) <= 1e-12, (ours.__name__, kwargs)
        got32 = ours(x.astype(np.float32), mode=mode, **kwargs)
        assert got32.dtype == np.float32
        assert relative(got32, expected, scale) <= 2e-6, (ours.__name__, kwargs)


@pytest.mark.parametrize("order", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", MODES)
def test_spline_filter_is_scipys(order, mode):
    # scipy starts reflect's recursions approximately on short lines (exact from ~16 samples).
    # The volumes run their later axes in place: one strip a plane, or from a copy (one plane).
    for shape in [(40,), (20, 33), (16, 17, 18), (1, 70, 41), (16, 16, 17, 18)]:
        x = random_array(shape)
        expected = ndimage.spline_filter(x, order=order, mode=mode)
        got = cascade.spline_filter(x, order=order, mode=mode)
        assert got.dtype == np.float64
        assert relative(got, expected) <= 1e-12, shape
        got32 = cascade.spline_filter(x.astype(np.float32), order=order, mode=mode, output=np.float32)
        assert relative(got32, expected) <= 2e-6, shape
        for axis in range(x.ndim):
            assert relative(cascade.spline_filter1d(x, order, axis, mode=mode),
                            ndimage.spline_filter1d(x, order, axis, mode=mode)) <= 1e-12


def test_even_spline_prefilters_are_derived_from_the_b_splines():
    # The poles scipy tabulates: sqrt(8) − 3; and for degree 4 two closed forms.
    assert cascade._splines.prefilter(2)[1] == pytest.approx([-(np.sqrt(8) - 3)], rel=1e-14)
    poles = np.roots([1.0] + cascade._splines.prefilter(4)[1])
    expected = [np.sqrt(664 - np.sqrt(438976)) + np.sqrt(304) - 19, np.sqrt(664 + np.sqrt(438976)) - np.sqrt(304) - 19]
    assert sorted(poles.real) == pytest.approx(sorted(expected), rel=1e-12)
    for degree in (3, 5, 7, 9):
        samples = cascade._splines.bspline_samples(degree)
        assert sum(samples) == 1 and samples == samples[::-1]


@pytest.mark.parametrize("order", [3, 5])
@pytest.mark.parametrize("mode", ["reflect", "mirror", "grid-wrap"])
def test_spline_filter_float32_matches_its_definition(order, mode):
    gain, feedback = cascade._native.bspline_prefilter(order)
    for shape in [(1, 1), (5, 7), (37, 29), (3, 257)]:
        x = random_array(shape, np.float32)
        got = cascade.spline_filter(x, order=order, mode=mode, output=np.float32)
        pad = {"reflect": "reflect", "mirror": "mirror", "grid-wrap": "wrap"}[mode]
        assert relative(got, exact_recursive(x, gain, feedback, pad, (0, 1))) <= 2e-6, shape


# Relative L2 from scipy on random data, per sigma and order: the targets of docs/python.md.
GAUSSIAN_TARGETS = {0: 2e-3, 1: 5e-3, 2: 1e-2}


@pytest.mark.parametrize("order", [0, 1, 2])
@pytest.mark.parametrize("sigma", [0.5, 1.0, 3.0, 6.0, 8.0, 16.0, 40.0])
def test_gaussian_filter_is_within_its_targets_of_scipy(sigma, order):
    n = int(10 * sigma) + 16
    x = random_array((n, n + 3))
    for mode in ["reflect", "mirror", "wrap", "nearest", "constant"]:
        expected = ndimage.gaussian_filter(x, sigma, order=order, mode=mode, cval=0.25)
        got = cascade.gaussian_filter(x, sigma, order=order, mode=mode, cval=0.25)
        assert relative(got, expected) <= GAUSSIAN_TARGETS[order], mode
        got32 = cascade.gaussian_filter(x.astype(np.float32), sigma, order=order, mode=mode, cval=0.25)
        assert relative(got32, expected) <= GAUSSIAN_TARGETS[order], mode


def test_the_recursive_path_runs_past_the_crossover_and_the_fir_below():
    x = random_array((200, 210))
    crossover = cascade._gaussian.crossover_radius(cascade._arrays.Work(np.float64, False))
    long = 1.0 + crossover / 4.0
    recursive = cascade.gaussian_filter(x, long)
    fir = cascade.gaussian_filter(x, long, method="fir")
    assert relative(fir, ndimage.gaussian_filter(x, long)) <= 1e-12
    assert 1e-6 < relative(recursive, fir) <= 2e-3
    short = crossover / 4.0 - 0.5
    assert relative(cascade.gaussian_filter(x, short), ndimage.gaussian_filter(x, short)) <= 1e-12


# ---- methods ------------------------------------------------------------------------------

# Each method's distance from the exact Gaussian (float32 2D impulse responses, relative L2;
# docs/gaussian.md), with a 10% margin.
GAUSSIAN_BOUNDS = {("vanvliet", 2): 2.78e-2, ("vanvliet", 4): 2.14e-2, ("deriche2", 4): 2.47e-1,
                   ("deriche4", 2): 5.16e-4, ("deriche4", 4): 5.09e-4, ("twoway", 4): 7.35e-2}


@pytest.mark.parametrize("method,sigma", sorted(GAUSSIAN_BOUNDS))
def test_each_method_is_within_its_documented_distance(method, sigma):
    size = int(16 * sigma) | 1
    impulse = np.zeros((size, size), np.float32)
    impulse[size // 2, size // 2] = 1
    got = cascade.gaussian_filter(impulse, sigma, method=method, mode="constant")
    assert got.dtype == np.float32
    exact = ndimage.gaussian_filter(impulse.astype(np.float64), sigma, mode="constant", truncate=12)
    assert relative(got, exact) <= 1.1 * GAUSSIAN_BOUNDS[(method, sigma)]


@pytest.mark.parametrize("sigma", [5.0, 12.0, 30.0, 64.0])
def test_deriche4_cascade_form_holds_past_the_native_range(sigma):
    n = int(14 * sigma) | 1
    impulse = np.zeros(n)
    impulse[n // 2] = 1
    exact = ndimage.gaussian_filter1d(impulse, sigma, mode="constant", truncate=12)
    for dtype in (np.float64, np.float32):
        got = cascade.gaussian_filter1d(impulse.astype(dtype), sigma, mode="constant", method="deriche4")
        assert relative(got, exact) <= 6e-4


def test_vanvliet_takes_a_sigma_per_axis_and_any_axis():
    x = random_array((12, 40, 50), np.float32)
    got = cascade.gaussian_filter(x, (0, 1.5, 3.0), mode="nearest", method="vanvliet")
    gy, gx = cascade._native.van_vliet_gaussian(1.5), cascade._native.van_vliet_gaussian(3.0)
    expected = exact_recursive(exact_recursive(x, *gy, "nearest", (1,)), *gx, "nearest", (2,))
    assert relative(got, expected) <= 1e-5
    first = cascade.gaussian_filter(x, 2.0, method="vanvliet", axes=0, mode="mirror")
    g = cascade._native.van_vliet_gaussian(2.0)
    assert relative(first, exact_recursive(x, *g, "mirror", (0,))) <= 1e-5


def test_native_only_methods_say_which_axes_they_take():
    x = random_array((6, 30, 30), np.float32)
    assert cascade.gaussian_filter(x, (0, 2, 2), method="deriche2").shape == x.shape
    with pytest.raises(ValueError, match="last two filtered axes"):
        cascade.gaussian_filter(x, 2.0, method="twoway")
    with pytest.raises(ValueError, match="order 0"):
        cascade.gaussian_filter(x, 2.0, order=1, method="vanvliet")


def test_float64_data_takes_deriche4_in_its_cascade_form_at_every_sigma():
    # A long truncation sends sigma 3 past the crossover, into deriche4's float32-only range.
    x = random_array((60, 70))
    got = cascade.gaussian_filter(x, 3.0, truncate=10.0)
    assert got.dtype == np.float64
    assert relative(got, ndimage.gaussian_filter(x, 3.0, truncate=10.0)) <= 2e-3
    assert relative(cascade.gaussian_filter(x, 2.0, method="deriche4"), ndimage.gaussian_filter(x, 2.0)) <= 2e-3
    with pytest.raises(ValueError, match="float32 data"):
        cascade.gaussian_filter(x, 2.0, method="deriche2")


# ---- arrays: N-D, types, outputs ------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "float32", "float64", "complex64", "complex128"])
def test_every_type_is_filtered_as_scipy_does(dtype):
    x = random_array((11, 12), dtype)
    cases = [(cascade.gaussian_filter, ndimage.gaussian_filter, dict(sigma=1.3)),
             (cascade.uniform_filter, ndimage.uniform_filter, dict(size=3)),
             (cascade.spline_filter, ndimage.spline_filter, dict(order=3))]
    if np.dtype(dtype).kind != "u":
        # Unsigned Laplacians wrap below zero to ~2⁶⁴, where float64 holds only every 2048th value.
        cases.append((cascade.gaussian_laplace, ndimage.gaussian_laplace, dict(sigma=1.0)))
    for ours, theirs, kwargs in cases:
        got, expected = ours(x, **kwargs), theirs(x, **kwargs)
        assert got.dtype == expected.dtype and got.shape == x.shape, ours.__name__
        if got.dtype.kind in "iub":
            # Integers are truncated; a value a rounding away from an integer may fall either side.
            difference = np.abs(got.astype(np.int64) - expected.astype(np.int64))
            assert difference.max() <= 1 and np.mean(difference) < 0.05, ours.__name__
        else:
            tolerance = 2e-6 if x.real.dtype == np.float32 else 1e-12
            assert relative(got, expected) <= tolerance, ours.__name__


def test_float16_is_refused_as_scipy_refuses_it():
    x = np.zeros((9, 10), np.float16)
    for call in (lambda: cascade.gaussian_filter(x, 1.0), lambda: cascade.uniform_filter(x, 3),
                 lambda: cascade.spline_filter(x)):
        with pytest.raises(RuntimeError, match="array type not supported"):
            call()


def test_integer_results_are_truncated_and_wrapped_as_scipys():
    x = np.array([0, 0, 100, 0, 0, 0], np.uint8)
    for dtype in [np.uint8, np.int8, np.uint16, np.int32, np.uint32, np.uint64, bool]:
        got = cascade.uniform_filter1d(x.astype(np.float64) * 7 - 300, 3, output=dtype)
        assert np.array_equal(got, ndimage.uniform_filter1d(x.astype(np.float64) * 7 - 300, 3, output=dtype)), dtype


def test_outputs_dtypes_arrays_and_in_place():
    x = random_array((20, 21))
    expected = ndimage.gaussian_filter(x, 2.0)
    assert cascade.gaussian_filter(x, 2.0, output=np.float32).dtype == np.float32
    assert cascade.gaussian_filter(x, 2.0, output="float32").dtype == np.float32
    out = np.empty_like(x)
    assert cascade.gaussian_filter(x, 2.0, output=out) is out
    assert relative(out, expected) <= 1e-12
    y = x.copy()
    cascade.gaussian_filter(y, 2.0, output=y)
    assert relative(y, expected) <= 1e-12
    strided = np.zeros((40, 42))[::2, ::2]
    cascade.gaussian_filter(x, 2.0, output=strided)
    assert relative(strided, expected) <= 1e-12
    with pytest.raises(ValueError, match="shape"):
        cascade.gaussian_filter(x, 2.0, output=np.empty((3, 3)))
    complex_out = cascade.gaussian_filter(x, 2.0, output=np.complex128)
    assert relative(complex_out.real, expected) <= 1e-12 and not complex_out.imag.any()


def test_every_axis_is_filtered_and_parameters_go_per_axis():
    x = random_array((6, 7, 8, 9))
    kwargs = dict(sigma=(1.0, 0, 2.0, 0.7), order=(0, 0, 1, 2), mode=("wrap", "reflect", "nearest", "constant"))
    assert relative(cascade.gaussian_filter(x, **kwargs), ndimage.gaussian_filter(x, **kwargs)) <= 1e-12
    volume = random_array((10, 11, 12))
    assert relative(cascade.gaussian_filter(volume, 1.5), ndimage.gaussian_filter(volume, 1.5)) <= 1e-12
    assert relative(cascade.uniform_filter(volume, (2, 3, 4), origin=(0, 1, -1), mode=("mirror", "wrap", "nearest")),
                    ndimage.uniform_filter(volume, (2, 3, 4), origin=(0, 1, -1),
                                           mode=("mirror", "wrap", "nearest"))) <= 1e-12
    # axes= (scipy 1.11): the values go with the axes named, the others are untouched.
    got = cascade.gaussian_filter(volume, (1.0, 2.0), axes=(2, 0))
    assert relative(got, ndimage.gaussian_filter(volume, (2.0, 0, 1.0))) <= 1e-12
    rgb = random_array((15, 16, 3))
    got = cascade.gaussian_filter(rgb, 1.2, channel_axis=-1)
    assert relative(got, ndimage.gaussian_filter(rgb, (1.2, 1.2, 0))) <= 1e-12


def test_awkward_inputs():
    assert cascade.gaussian_filter(np.float64(3.0), 1.0) == 3.0
    assert cascade.gaussian_filter(np.zeros((0, 4)), 1.0).shape == (0, 4)
    assert cascade.uniform_filter(np.zeros((3, 0, 2), np.float32), 3).dtype == np.float32
    listed = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert relative(cascade.gaussian_filter(listed, 1.0), ndimage.gaussian_filter(listed, 1.0)) <= 1e-12
    assert np.array_equal(cascade.uniform_filter([1, 2, 3, 4], 2), ndimage.uniform_filter([1, 2, 3, 4], 2))
    readonly = random_array((30, 31))
    readonly.flags.writeable = False
    assert relative(cascade.spline_filter(readonly), ndimage.spline_filter(readonly)) <= 1e-12
    backwards = random_array((40, 60))[::-2, ::3]
    assert relative(cascade.gaussian_filter(backwards, 1.0), ndimage.gaussian_filter(backwards, 1.0)) <= 1e-12
    swapped = random_array((20, 30), np.float32).astype(">f4")
    got = cascade.gaussian_filter(swapped, 2.0)
    assert got.dtype == swapped.dtype
    assert relative(got, ndimage.gaussian_filter(swapped, 2.0)) <= 2e-6
    for shape in [(1, 5000), (5000, 1), (1, 1, 1), (2, 1, 3)]:
        x = random_array(shape)
        for mode in MODES:
            assert relative(cascade.gaussian_filter(x, 2.0, mode=mode),
                            ndimage.gaussian_filter(x, 2.0, mode=mode)) <= 1e-12, (shape, mode)


def test_errors_are_one_line_value_and_type_errors():
    x = random_array((8, 8), np.float32)
    with pytest.raises(ValueError, match="mode 'mirrored' is not supported"):
        cascade.gaussian_filter(x, 2.0, mode="mirrored")
    with pytest.raises(RuntimeError, match="3 values for 2 axes"):  # scipy's exception type too
        cascade.gaussian_filter(x, (1.0, 2.0, 3.0))
    with pytest.raises(cascade.Error, match="pole"):
        cascade.iir_filter(x, [-1.5])
    with pytest.raises(ValueError, match="sigma"):
        cascade.gaussian_filter(x, -1.0)
    with pytest.raises(ValueError, match="method"):
        cascade.gaussian_filter(x, 1.0, method="box")
    with pytest.raises(ValueError, match="origin"):
        cascade.uniform_filter(x, 3, origin=2)
    with pytest.raises(ValueError, match="spline order 6"):
        cascade.spline_filter(x, order=6)
    with pytest.raises(ValueError, match="radius"):
        cascade.gaussian_filter1d(x, 1.0, radius=-1)
    with pytest.raises(RuntimeError, match="array type not supported: the input is (float128|longdouble)"):
        cascade.gaussian_filter(x.astype(np.longdouble), 1.0)
    with pytest.raises(TypeError):
        cascade.gaussian_filter("an image", 1.0)
    with pytest.raises(np.AxisError):
        cascade.gaussian_filter1d(x, 1.0, axis=2)
    with pytest.raises(ValueError, match="both filtered"):
        cascade.gaussian_filter(x, 1.0, axes=(0, 1), channel_axis=1)


# ---- Cascade's own filters ------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["reflect", "mirror", "wrap", "nearest", "constant"])
def test_iir_filter_matches_its_definition(mode):
    feedback = np.poly([0.7, -0.4 + 0.3j, -0.4 - 0.3j]).real[1:]  # order 3, complex poles
    gain = 1 + feedback.sum()
    for shape in [(1, 1), (5, 7), (37, 29), (3, 257)]:
        x = random_array(shape, np.float32)
        got = cascade.iir_filter(x, feedback, gain, mode=mode)
        assert got.dtype == np.float32
        assert relative(got, exact_recursive(x, gain, feedback, mode, (0, 1))) <= 1e-5
    x = random_array((4, 33, 40), np.float32)
    for axis in (0, 1, 2):
        got = cascade.iir_filter(x, feedback, mode=mode, axes=axis)
        assert relative(got, exact_recursive(x, gain, feedback, mode, (axis,))) <= 1e-5


def test_iir_filter_takes_cval_by_linearity():
    x = random_array((20, 30), np.float32)
    feedback = [-0.6]
    got = cascade.iir_filter(x, feedback, mode="constant", cval=2.5)
    padded = np.pad(x.astype(np.float64), PAD, constant_values=2.5)
    expected = exact_recursive(padded, 0.4, feedback, "constant", (0, 1))[PAD:-PAD, PAD:-PAD]
    assert relative(got, expected) <= 1e-5


def test_summed_area_table_is_exact_for_integers():
    for shape in [(1, 1), (5, 7), (37, 29), (3, 257)]:
        x = random_array(shape, np.uint8)
        got = cascade.summed_area_table(x)
        assert got.dtype == np.uint32
        assert np.array_equal(got, x.astype(np.uint64).cumsum(0).cumsum(1))
    x = RNG.integers(0, 65536, (3, 9, 11)).astype(np.uint16)
    got = cascade.summed_area_table(x, exclusive=True)
    assert got.shape == (3, 10, 12)
    assert not got[:, 0, :].any() and not got[:, :, 0].any()
    assert np.array_equal(got[:, 1:, 1:], x.astype(np.uint64).cumsum(1).cumsum(2))


@pytest.mark.parametrize("mode", ["reflect", "mirror", "wrap", "nearest", "constant"])
def test_uniform_filter_by_summed_area_tables(mode):
    for shape in [(1, 1), (5, 7), (37, 29)]:
        x = random_array(shape, np.float32)
        for size in (1, 3, 9):
            got = cascade.uniform_filter(x, size, mode=mode, method="sat")
            assert relative(got, ndimage.uniform_filter(x.astype(np.float64), size, mode=mode)) <= 1e-5


# ---- CUDA ----------------------------------------------------------------------------------


@needs_cuda
def test_cupy_arrays_run_on_the_device_on_the_current_stream():
    import cupy

    x = random_array((4, 257, 193), np.float32)
    d = cupy.asarray(x)
    stream = cupy.cuda.Stream(non_blocking=True)
    calls = {
        "recursive": lambda a: cascade.gaussian_filter(a, 3.0, method="deriche4", mode="mirror"),
        "vanvliet": lambda a: cascade.gaussian_filter(a, (0, 3.0, 2.0), method="vanvliet"),
        "volume": lambda a: cascade.gaussian_filter(a, 2.0, method="vanvliet"),
        "spline": lambda a: cascade.spline_filter(a, output=np.float32),
        "sat": lambda a: cascade.summed_area_table(a),
    }
    with stream:
        results = {name: call(d) for name, call in calls.items()}
        stream.synchronize()
    for name, got in results.items():
        assert isinstance(got, cupy.ndarray)
        assert relative(cupy.asnumpy(got), calls[name](x)) <= 2e-6, name


@needs_cuda
def test_torch_tensors_come_back_as_tensors():
    torch = pytest.importorskip("torch")
    x = random_array((2, 65, 70), np.float32)
    t = torch.from_numpy(x).cuda()
    got = cascade.gaussian_filter(t, (0, 2.5, 2.5), method="vanvliet")
    assert isinstance(got, torch.Tensor) and got.is_cuda and got.shape == t.shape
    torch.cuda.synchronize()
    assert relative(got.cpu().numpy(), cascade.gaussian_filter(x, (0, 2.5, 2.5), method="vanvliet")) <= 2e-6
    cpu = cascade.spline_filter(torch.from_numpy(x), output=np.float32)
    assert isinstance(cpu, torch.Tensor)


def test_plans_tell_apart_coefficients_that_differ_in_their_last_digits():
    # Plans are cached by their coefficients' exact bits: a pole 1e-9 away is another filter.
    x = random_array((16, 17))
    a = cascade.iir_filter(x, [-0.5])
    b = cascade.iir_filter(x, [-0.5 - 1e-9])
    assert 0 < relative(a, b) < 1e-6
    c = cascade.gaussian_filter(x, 1.0)
    d = cascade.gaussian_filter(x, 1.0 + 1e-9)
    assert 0 < relative(c, d) < 1e-6
