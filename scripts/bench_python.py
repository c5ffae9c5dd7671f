#!/usr/bin/env python3
"""Cascade's Python calls on CuPy arrays beside cupyx.scipy.ndimage, in one process, timed with
CUDA events (docs/performance.md). GiP/s = 2^30 pixels per second.

Usage: scripts/bench_python.py [SIZE] [BATCHES]    (default 8192 20)
"""
import json
import sys

import cupy
import cupyx.scipy.ndimage as ndimage

import cascade


def median_ms(call, repetitions, batch=10):
    """The median over `repetitions` batches of the time per call, each batch `batch` calls back to
    back between two events (as `cascade bench` times its calls: the Python and launch work of one
    call overlaps the GPU work of the one before)."""
    for _ in range(3):
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


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    x = cupy.random.default_rng(7).random((n, n), dtype=cupy.float32)
    cases = [
        ("gaussian_filter sigma 4", lambda: cascade.gaussian_filter(x, 4.0),
         lambda: ndimage.gaussian_filter(x, 4.0)),
        ("gaussian_filter sigma 20", lambda: cascade.gaussian_filter(x, 20.0),
         lambda: ndimage.gaussian_filter(x, 20.0)),
        ("spline_filter order 3", lambda: cascade.spline_filter(x, 3),
         lambda: ndimage.spline_filter(x, 3, output=cupy.float32)),
        ("summed_area_table", lambda: cascade.summed_area_table(x),
         lambda: cupy.cumsum(cupy.cumsum(x, axis=0), axis=1)),
    ]
    gi = n * n / 2**30
    rows = []
    for name, ours, theirs in cases:
        ours_ms, theirs_ms = median_ms(ours, repetitions), median_ms(theirs, max(3, repetitions // 4), batch=2)
        rows.append({"case": name, "size": n, "cascade_ms": ours_ms, "cascade_gips": gi / (ours_ms * 1e-3),
                     "cupy_ms": theirs_ms, "cupy_gips": gi / (theirs_ms * 1e-3), "speedup": theirs_ms / ours_ms})
        print(json.dumps(rows[-1]))
    print(f"{'case':28} {'cascade GiP/s':>14} {'cupy GiP/s':>11} {'speedup':>8}")
    for r in rows:
        print(f"{r['case']:28} {r['cascade_gips']:14.1f} {r['cupy_gips']:11.2f} {r['speedup']:8.1f}x")


if __name__ == "__main__":
    main()
