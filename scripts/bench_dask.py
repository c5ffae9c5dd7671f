#!/usr/bin/env python3
"""Dask arrays on one machine: cascade.gaussian_filter of a chunked array against the same call
on the whole array, and dask-image's method beside it (map_overlap with a halo of 4σ, scipy per
chunk), with each one's distance from scipy's whole-array result.

    PYTHONPATH=build/python python3 scripts/bench_dask.py [--size 8192] [--chunk 1024] [--sigma 16]

Times are the best of --repeat runs (seconds → ms), the result written into one preallocated
array (da.store), on dask's threaded scheduler with one thread per core."""

import argparse
import os
import time

import numpy as np
import dask
import dask.array as da
import scipy.ndimage as ndi

import cascade


def best(run, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def relative(a, b):
    return float(np.linalg.norm((a - b).ravel()) / np.linalg.norm(b.ravel()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--chunk", type=int, default=1024)
    parser.add_argument("--sigma", type=float, default=16.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--methods", default="auto,vanvliet,deriche4")
    parser.add_argument("--no-scipy", action="store_true", help="skip scipy's whole-array call and dask-image's")
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="the threaded scheduler's threads")
    args = parser.parse_args()
    dask.config.set(scheduler="threads", num_workers=args.workers)
    x = np.random.default_rng(0).standard_normal((args.size, args.size)).astype(np.float32)
    dx = da.from_array(x, chunks=args.chunk)
    out = np.empty_like(x)
    print(f"{args.size}² float32, σ {args.sigma:g}, chunks {args.chunk}², {args.workers} Dask threads, mode reflect")
    print(f"{'call':34s} {'ms':>9s} {'× whole':>8s} {'from whole':>11s} {'from float64':>13s}")
    for method in args.methods.split(","):
        whole = cascade.gaussian_filter(x, args.sigma, method=method)
        exact = cascade.gaussian_filter(x.astype(np.float64), args.sigma, method=method)
        t_whole = best(lambda: cascade.gaussian_filter(x, args.sigma, method=method), args.repeat)
        lazy = cascade.gaussian_filter(dx, args.sigma, method=method)
        t_dask = best(lambda: da.store(lazy, out, lock=False), args.repeat)
        print(f"{'cascade ' + method + ', whole array':34s} {t_whole * 1e3:9.1f} {'':8s} {'':11s} "
              f"{relative(whole, exact):13.1e}")
        print(f"{'cascade ' + method + ', Dask':34s} {t_dask * 1e3:9.1f} {t_dask / t_whole:8.2f} "
              f"{relative(out, whole):11.1e} {relative(out, exact):13.1e}")
    if args.no_scipy:
        return
    reference = ndi.gaussian_filter(x, args.sigma)
    t_scipy = best(lambda: ndi.gaussian_filter(x, args.sigma), 1)
    depth = int(4 * args.sigma + 0.5)
    halo = dx.map_overlap(lambda b: ndi.gaussian_filter(b, args.sigma), depth=depth, boundary="reflect")
    t_halo = best(lambda: da.store(halo, out, lock=False), 1)
    print(f"{'scipy, whole array':34s} {t_scipy * 1e3:9.1f}")
    print(f"{'dask-image method (halo 4σ, scipy)':34s} {t_halo * 1e3:9.1f} {'':8s} {relative(out, reference):11.1e}")
    auto = cascade.gaussian_filter(dx, args.sigma)
    da.store(auto, out, lock=False)
    print(f"{'cascade auto, Dask, from scipy':34s} {'':9s} {'':8s} {relative(out, reference):11.1e}")


if __name__ == "__main__":
    main()
