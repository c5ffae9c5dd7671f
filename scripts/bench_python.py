#!/usr/bin/env python3
"""Cascade's scipy.ndimage drop-in beside scipy: on CuPy arrays beside cupyx.scipy.ndimage (CUDA
events), or with --cpu on NumPy arrays beside scipy.ndimage (wall time), the same call in one
process, results compared. GiP/s = 2^30 samples per second.

Usage: scripts/bench_python.py [--cpu] [--quick]
"""
import json
import sys
import time

import numpy as np

import cascade


def median_ms_cuda(call, repetitions, batch):
    """The median over `repetitions` batches of the time per call, each batch `batch` calls back to
    back between two events (the Python and launch work of one call overlaps the GPU work of the
    one before, as in a pipeline of calls)."""
    import cupy

    for _ in range(2):
        call()
    stream = cupy.cuda.get_current_stream()
    times = []
    for _ in range(repetitions):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(stream)
        for _ in range(batch):
            call()
        stop.record(stream)
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) / batch)
    times.sort()
    return times[len(times) // 2]


def median_ms_cpu(call, repetitions, batch):
    call()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        for _ in range(batch):
            call()
        times.append((time.perf_counter() - start) * 1e3 / batch)
    times.sort()
    return times[len(times) // 2]


def relative(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))


def cases_cuda(quick):
    import cupy
    import cupyx.scipy.ndimage as theirs

    rng = cupy.random.default_rng(7)
    n = 2048 if quick else 8192
    image = rng.random((n, n), dtype=cupy.float32)
    image64 = image.astype(cupy.float64)
    volume = rng.random((128, 128, 128) if quick else (512, 512, 512), dtype=cupy.float32)
    return [
        ("gaussian_filter sigma 4", image, lambda m, x: m.gaussian_filter(x, 4.0)),
        ("gaussian_filter sigma 20", image, lambda m, x: m.gaussian_filter(x, 20.0)),
        ("gaussian_filter sigma 4 volume", volume, lambda m, x: m.gaussian_filter(x, 4.0)),
        ("gaussian_filter sigma 4 float64", image64, lambda m, x: m.gaussian_filter(x, 4.0)),
        ("gaussian_gradient_magnitude sigma 4", image, lambda m, x: m.gaussian_gradient_magnitude(x, 4.0)),
        ("uniform_filter size 31", image, lambda m, x: m.uniform_filter(x, 31)),
        ("spline_filter order 3", image, lambda m, x: m.spline_filter(x, 3, output=np.float32)),
    ], theirs, lambda a: cupy.asnumpy(a), median_ms_cuda


def cases_cpu(quick):
    from scipy import ndimage as theirs

    rng = np.random.default_rng(7)
    n = 512 if quick else 2048
    image = rng.random((n, n), dtype=np.float32)
    volume = rng.random((64, 64, 64) if quick else (256, 256, 256))  # float64, NumPy's default
    # A new output's pages are cleared by the kernel on their first write (NumPy asks for huge
    # pages): the "into a kept output" cases show each filter without that cost, scipy's too.
    image64, kept_image, kept_volume = image.astype(np.float64), np.empty((n, n)), np.empty_like(volume)
    return [
        ("gaussian_filter sigma 4", image, lambda m, x: m.gaussian_filter(x, 4.0)),
        ("gaussian_filter sigma 4 volume float64", volume, lambda m, x: m.gaussian_filter(x, 4.0)),
        ("spline_filter order 3", image64, lambda m, x: m.spline_filter(x, 3)),
        ("spline_filter order 3, into a kept output", image64, lambda m, x: m.spline_filter(x, 3, output=kept_image)),
        ("spline_filter order 3 volume float64", volume, lambda m, x: m.spline_filter(x, 3)),
        ("the same, into a kept output", volume, lambda m, x: m.spline_filter(x, 3, output=kept_volume)),
        ("uniform_filter size 31", image, lambda m, x: m.uniform_filter(x, 31)),
    ], theirs, np.asarray, median_ms_cpu


def main():
    cpu, quick = "--cpu" in sys.argv, "--quick" in sys.argv
    cases, theirs, to_host, median_ms = (cases_cpu if cpu else cases_cuda)(quick)
    rows = []
    for name, x, call in cases:
        ours_ms = median_ms(lambda: call(cascade, x), 5 if cpu else 15, 1 if cpu else 5)
        theirs_ms = median_ms(lambda: call(theirs, x), 3, 1)
        error = relative(to_host(call(cascade, x)), to_host(call(theirs, x)))
        samples = x.size / 2**30
        rows.append({"case": name, "shape": list(x.shape), "dtype": str(x.dtype), "cascade_ms": ours_ms,
                     "cascade_gips": samples / (ours_ms * 1e-3), "scipy_ms": theirs_ms,
                     "speedup": theirs_ms / ours_ms, "relative_l2": error})
        print(json.dumps(rows[-1]), flush=True)
    if cpu:
        # The machine's memory pace in the same run: a copy into a kept array of each input.
        for _, x, _ in cases[:2]:
            kept = np.empty_like(x)
            ms = median_ms(lambda: np.copyto(kept, x), 5, 1)
            print(f"copy into a kept array, {'x'.join(map(str, x.shape))} {x.dtype}: {ms:.3f} ms")
    peer = "scipy" if cpu else "cupyx"
    print(f"{'case':40} {'shape':>16} {'ms':>9} {'GiP/s':>7} {peer + ' ms':>10} {'speedup':>8} {'rel. L2':>9}")
    for r in rows:
        shape = "x".join(str(s) for s in r["shape"])
        print(f"{r['case']:40} {shape:>16} {r['cascade_ms']:9.3f} {r['cascade_gips']:7.1f} {r['scipy_ms']:10.2f} "
              f"{r['speedup']:7.1f}x {r['relative_l2']:9.1e}")


if __name__ == "__main__":
    main()
