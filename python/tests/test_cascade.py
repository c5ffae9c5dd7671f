"""The Python package against scipy.ndimage and double-precision definitions (CPU), and on CUDA
arrays of CuPy and PyTorch where a device exists (skipped, saying why, elsewhere)."""
import numpy as np
import pytest
from scipy import ndimage, signal

import cascade

RNG = np.random.default_rng(2026)
SHAPES = [(1, 1), (2, 3), (5, 7), (37, 29), (64, 65), (3, 257), (131, 2)]
# numpy.pad's name for each extension, to write it out past a filter's decay.
PAD_MODES = {"reflect": "symmetric", "mirror": "reflect", "grid-wrap": "wrap", "wrap": "wrap", "nearest": "edge",
             "constant": "constant"}
PAD = 300


def relative(a, b):
    return np.linalg.norm(np.asarray(a, np.float64) - b) / max(np.linalg.norm(b), 1e-300)


def random_image(shape, dtype=np.float32):
    if dtype == np.float32:
        return RNG.uniform(-1, 1, shape).astype(np.float32)
    return RNG.integers(0, np.iinfo(dtype).max + 1, shape, dtype=dtype)


def exact_recursive(x, gain, feedback, mode, axes=(0, 1)):
    """The causal–anticausal filter of the image extended by `mode`, in double: the extension
    written out PAD samples past each edge (far past the decay), lfilter forward then backward."""
    y = np.pad(np.asarray(x, np.float64), PAD, mode=PAD_MODES[mode])
    a = np.concatenate([[1.0], feedback])
    for axis in axes:
        y = signal.lfilter([gain], a, y, axis=axis)
        y = np.flip(signal.lfilter([gain], a, np.flip(y, axis), axis=axis), axis)
    return y[PAD:-PAD, PAD:-PAD]


@pytest.mark.parametrize("order", [3, 5])
@pytest.mark.parametrize("mode", ["reflect", "mirror", "grid-wrap", "nearest"])
def test_spline_filter_matches_scipy(order, mode):
    for shape in SHAPES:
        x = random_image(shape)
        got = cascade.spline_filter(x, order=order, mode=mode)
        assert got.dtype == np.float32 and got.shape == x.shape
        padded = np.pad(x.astype(np.float64), PAD, mode=PAD_MODES[mode])
        exact = ndimage.spline_filter(padded, order=order, mode="mirror", output=np.float64)[PAD:-PAD, PAD:-PAD]
        assert relative(got, exact) <= 2e-6, (shape, mode)
        theirs = ndimage.spline_filter(x.astype(np.float64), order=order, mode=mode, output=np.float64)
        # scipy starts some modes from one period of the extension, inexact on lines shorter than
        # the decay: compare with its own result where it is exact.
        if relative(theirs, exact) <= 2e-6:
            assert relative(got, theirs) <= 2e-6, (shape, mode)


@pytest.mark.parametrize("mode", ["reflect", "mirror", "wrap", "nearest", "constant"])
def test_iir_filter_matches_its_definition(mode):
    feedback = np.poly([0.7, -0.4 + 0.3j, -0.4 - 0.3j]).real[1:]  # order 3, complex poles
    gain = 1 + feedback.sum()
    for shape in SHAPES:
        x = random_image(shape)
        assert relative(cascade.iir_filter(x, feedback, gain, mode=mode), exact_recursive(x, gain, feedback, mode)) <= 1e-5
    x = random_image((33, 40))
    for axis in (0, 1):
        got = cascade.iir_filter(x, feedback, mode=mode, axes=axis)
        assert relative(got, exact_recursive(x, gain, feedback, mode, axes=(axis,))) <= 1e-5


# Each method's distance from the exact Gaussian, from docs/gaussian.md (float32 2D impulse
# responses, relative L2), with a 10% margin.
GAUSSIAN_BOUNDS = {("vanvliet", 2): 2.78e-2, ("vanvliet", 4): 2.14e-2, ("deriche2", 4): 2.47e-1,
                   ("deriche4", 2): 5.16e-4, ("deriche4", 4): 5.09e-4, ("twoway", 4): 7.35e-2}


@pytest.mark.parametrize("method,sigma", sorted(GAUSSIAN_BOUNDS))
def test_gaussian_filter_is_within_its_documented_distance(method, sigma):
    size = int(16 * sigma) | 1
    impulse = np.zeros((size, size), np.float32)
    impulse[size // 2, size // 2] = 1
    got = cascade.gaussian_filter(impulse, sigma, method=method, mode="constant")
    exact = ndimage.gaussian_filter(impulse.astype(np.float64), sigma, mode="constant", truncate=12)
    assert relative(got, exact) <= 1.1 * GAUSSIAN_BOUNDS[(method, sigma)]


def test_gaussian_filter_takes_a_sigma_per_axis():
    x = random_image((40, 50))
    got = cascade.gaussian_filter(x, (1.5, 3.0), mode="nearest")
    rows = cascade.gaussian_filter(x, 1.5, mode="nearest")
    assert relative(got, rows) > 1e-3
    gy = cascade._cascade.van_vliet_gaussian(1.5)
    gx = cascade._cascade.van_vliet_gaussian(3.0)
    expected = exact_recursive(exact_recursive(x, gy[0], gy[1], "nearest", axes=(0,)), gx[0], gx[1], "nearest",
                               axes=(1,))
    assert relative(got, expected) <= 1e-5


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_integer_images_keep_their_type(dtype):
    x = random_image((45, 61), dtype)
    scale = np.iinfo(dtype).max
    for method in ("vanvliet", "deriche2"):
        got = cascade.gaussian_filter(x, 2.0, method=method)
        assert got.dtype == dtype
        as_float = cascade.gaussian_filter(x.astype(np.float32) / scale, 2.0, method=method) * scale
        assert np.max(np.abs(got.astype(np.float64) - as_float)) <= 1.0
    spline = cascade.spline_filter(x)
    assert spline.dtype == np.float32
    assert relative(spline, cascade.spline_filter(x.astype(np.float32))) <= 1e-6


def test_channels_and_batches_are_filtered_one_by_one():
    rgb = random_image((30, 41, 3))
    got = cascade.gaussian_filter(rgb, 2.0, channel_axis=-1)
    assert got.shape == rgb.shape
    for c in range(3):
        assert np.array_equal(got[..., c], cascade.gaussian_filter(np.ascontiguousarray(rgb[..., c]), 2.0))
    batch = random_image((4, 2, 17, 19))
    got = cascade.spline_filter(batch)
    assert got.shape == batch.shape
    assert np.array_equal(got[3, 1], cascade.spline_filter(batch[3, 1]))
    strided = random_image((40, 60))[::2, ::3]
    assert relative(cascade.gaussian_filter(strided, 1.0), cascade.gaussian_filter(strided.copy(), 1.0)) == 0


def test_summed_area_table_is_exact_for_integers():
    for shape in SHAPES:
        x = random_image(shape, np.uint8)
        got = cascade.summed_area_table(x)
        assert got.dtype == np.uint32
        assert np.array_equal(got, x.astype(np.uint64).cumsum(0).cumsum(1))
    x = random_image((3, 9, 11), np.uint16)
    got = cascade.summed_area_table(x, exclusive=True)
    assert got.shape == (3, 10, 12)
    assert not got[:, 0, :].any() and not got[:, :, 0].any()
    assert np.array_equal(got[:, 1:, 1:], x.astype(np.uint64).cumsum(1).cumsum(2))
    f = random_image((70, 90))
    assert relative(cascade.summed_area_table(f), f.astype(np.float64).cumsum(0).cumsum(1)) <= 2e-6


@pytest.mark.parametrize("mode", ["reflect", "mirror", "wrap", "nearest", "constant"])
def test_uniform_filter_matches_scipy(mode):
    for shape in [(1, 1), (5, 7), (37, 29), (3, 100)]:
        x = random_image(shape)
        for size in (1, 3, 9):
            expected = ndimage.uniform_filter(x.astype(np.float64), size, mode=mode)
            assert relative(cascade.uniform_filter(x, size, mode=mode), expected) <= 1e-5, (shape, size, mode)


def test_errors_are_value_errors_with_the_command_lines_messages():
    x = random_image((8, 8))
    with pytest.raises(ValueError, match="mode 'mirrored' is not supported"):
        cascade.gaussian_filter(x, 2.0, mode="mirrored")
    with pytest.raises(ValueError, match="cval=0"):
        cascade.gaussian_filter(x, 2.0, mode="constant", cval=1.0)
    with pytest.raises(cascade.Error, match="pole"):
        cascade.iir_filter(x, [-1.5])
    with pytest.raises(ValueError, match="sigma"):
        cascade.gaussian_filter(x, -1.0)
    with pytest.raises(ValueError, match="float64"):
        cascade.gaussian_filter(x.astype(np.float64), 2.0)
    with pytest.raises(ValueError, match="odd"):
        cascade.uniform_filter(x, 4)
    with pytest.raises(ValueError, match="2 or more axes"):
        cascade.spline_filter(np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="empty"):
        cascade.spline_filter(np.zeros((0, 5), np.float32))
    with pytest.raises(ValueError):
        cascade.spline_filter(x, order=4)
    with pytest.raises(TypeError):
        cascade.gaussian_filter([[1.0, 2.0]], 1.0)


def _cuda_reason():
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed"
    if cascade._cascade.cuda_devices() == 0:
        return "no CUDA device"
    return None


cuda = pytest.mark.skipif(_cuda_reason() is not None, reason=str(_cuda_reason()))


@cuda
def test_cupy_arrays_run_on_the_device_on_the_current_stream():
    import cupy

    x = random_image((257, 193))
    d = cupy.asarray(x)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        results = {
            "gaussian": cascade.gaussian_filter(d, 3.0),
            "deriche4": cascade.gaussian_filter(d, 3.0, method="deriche4", mode="mirror"),
            "spline": cascade.spline_filter(d),
            "sat": cascade.summed_area_table(d),
        }
        stream.synchronize()
    expected = {
        "gaussian": cascade.gaussian_filter(x, 3.0),
        "deriche4": cascade.gaussian_filter(x, 3.0, method="deriche4", mode="mirror"),
        "spline": cascade.spline_filter(x),
        "sat": cascade.summed_area_table(x),
    }
    for name, got in results.items():
        assert isinstance(got, cupy.ndarray)
        assert relative(cupy.asnumpy(got), expected[name]) <= 2e-6, name
    u8 = cupy.asarray(random_image((64, 80, 3), np.uint8))
    got = cascade.gaussian_filter(u8, 2.0, channel_axis=-1)
    assert got.dtype == cupy.uint8
    assert np.max(np.abs(cupy.asnumpy(got).astype(int) - cascade.gaussian_filter(cupy.asnumpy(u8), 2.0,
                                                                                   channel_axis=-1))) <= 1


@cuda
def test_torch_tensors_come_back_as_tensors():
    torch = pytest.importorskip("torch")
    x = random_image((2, 65, 70))
    t = torch.from_numpy(x).cuda()
    got = cascade.gaussian_filter(t, 2.5, mode="reflect")
    assert isinstance(got, torch.Tensor) and got.is_cuda and got.shape == t.shape
    torch.cuda.synchronize()
    assert relative(got.cpu().numpy(), cascade.gaussian_filter(x, 2.5)) <= 2e-6
    cpu = cascade.spline_filter(torch.from_numpy(x))
    assert isinstance(cpu, torch.Tensor)
