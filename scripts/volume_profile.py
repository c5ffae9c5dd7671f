#!/usr/bin/env python3
"""Where the CPU's time goes in a float64 volume's separable recursion (the cubic spline
prefilter, scipy's mirror mode): the memory's own cost beside each of the passes Cascade runs,
each alone, and the whole call beside scipy's. Best and median of `--runs` calls, in ms.

  memory: NumPy's copy into a kept array (one thread, then two), a pass over it in place (two
          threads), a new array's pages first touched (two threads: the kernel clears them).
  passes: the first axis down the columns of a (N, H·W) view; the last two axes plane by plane, in
          place, into a new array, and in a warm cache (16 planes, scaled to the volume).

Usage: PYTHONPATH=<build>/python scripts/volume_profile.py [--size N] [--runs R] [--no-scipy]
"""
import argparse
import threading
import time

import numpy as np

import cascade
from cascade import _native, _separable
from cascade._arrays import Arrays
from cascade._splines import prefilter


def timed(call, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return min(times), float(np.median(times))


def on_halves(n, work):
    """A call that runs work(part) on both halves of a first axis of n, a thread each (NumPy
    releases the GIL)."""
    def call():
        threads = [threading.Thread(target=work, args=(part,)) for part in (slice(None, n // 2), slice(n // 2, None))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return call


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=256, help="the volume's side (default 256)")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--no-scipy", action="store_true")
    args = parser.parse_args()
    n = args.size
    volume = np.random.default_rng(1).random((n, n, n))
    kept = np.zeros_like(volume)
    arrays = Arrays(volume)
    spline = prefilter(3)
    planes = volume[:16].copy()

    def touch_new():
        new = np.empty_like(volume)
        on_halves(n, lambda part: new[part].reshape(-1).__setitem__(slice(None, None, 512), 0))()

    rows = [
        ("copy into a kept array, 1 thread", lambda: np.copyto(kept, volume)),
        ("copy into a kept array, 2 threads",
         on_halves(n, lambda part: np.copyto(kept[part], volume[part]))),
        ("a pass in place, 2 threads",
         on_halves(n, lambda part: np.multiply(kept[part], 1.0, out=kept[part]))),
        ("a new array's pages touched, 2 threads", touch_new),
        ("first axis, in place", lambda: _separable._iir(arrays, kept, 0, *spline, "mirror", kept)),
        ("last two axes, in place", lambda: _native.iir(arrays, kept, kept, spline, spline, "mirror")),
        ("last two axes, into a new array",
         lambda: _native.iir(arrays, volume, np.empty_like(volume), spline, spline, "mirror")),
        ("spline_filter(volume, 3)", lambda: cascade.spline_filter(volume, 3)),
        ("the same, into a kept output", lambda: cascade.spline_filter(volume, 3, output=kept)),
    ]
    print(f"{n}³ float64, cubic spline prefilter, mirror; best and median of {args.runs}, ms")
    for name, call in rows:
        print("  %-46s %7.1f %7.1f" % ((name,) + timed(call, args.runs)))
    best, median = timed(lambda: _native.iir(arrays, planes, planes, spline, spline, "mirror"), 4 * args.runs)
    scale = n / len(planes)
    print("  %-46s %7.1f %7.1f" % ("last two axes, warm cache (16 planes, scaled)", best * scale, median * scale))
    if not args.no_scipy:
        import scipy.ndimage

        best, median = timed(lambda: scipy.ndimage.spline_filter(volume, 3), 3)
        print("  %-46s %7.1f %7.1f" % ("scipy.ndimage.spline_filter(volume, 3)", best, median))


if __name__ == "__main__":
    main()
