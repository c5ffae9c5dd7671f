#!/usr/bin/env python3
"""docs/python.md's table: each Gaussian path's relative L2 distance from scipy.ndimage's
gaussian_filter on random float64 data, the worst over the modes, per sigma and order, and the
path `auto` takes for float64 data on the CPU.

Usage: PYTHONPATH=build/python scripts/python_accuracy.py
"""
import numpy as np
from scipy import ndimage

import cascade

MODES = ["reflect", "mirror", "wrap", "nearest", "constant"]


def worst(sigma, x, **kwargs):
    order = kwargs.pop("order", 0)
    dtype = kwargs.pop("dtype", np.float64)
    distances = []
    for mode in MODES:
        want = ndimage.gaussian_filter(x, sigma, order=order, mode=mode, cval=0.25)
        try:
            got = cascade.gaussian_filter(x.astype(dtype), sigma, order=order, mode=mode, cval=0.25, **kwargs)
        except ValueError:
            return "refused"
        distances.append(np.linalg.norm(got - want) / np.linalg.norm(want))
    return f"{max(distances):.1e}"


def main():
    rng = np.random.default_rng(2026)
    crossover = cascade._gaussian.crossover_radius(cascade._arrays.Work(np.float64, False))
    print("| sigma | radius | FIR | recursive (`deriche4`) | `auto` on the CPU | order 1 | order 2 | "
          "`vanvliet` (float32) | `deriche4` (float32 data) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for sigma in [0.5, 1, 2, 4, 6, 8, 16, 24, 32, 64, 100]:
        n = int(10 * sigma) + 16
        x = rng.uniform(-1, 1, (n, n + 3))
        radius = int(4 * sigma + 0.5)
        path = "FIR" if cascade._gaussian._axis_op(sigma, 0, "reflect", 0.0, 4.0, None, "auto",
                                                   crossover).kind == "fir" else "recursive"
        print(f"| {sigma:g} | {radius} | {worst(sigma, x, method='fir')} | {worst(sigma, x, method='deriche4')} | "
              f"{path} | {worst(sigma, x, order=1)} | {worst(sigma, x, order=2)} | "
              f"{worst(sigma, x, dtype=np.float32, method='vanvliet')} | "
              f"{worst(sigma, x, dtype=np.float32, method='deriche4')} |", flush=True)


if __name__ == "__main__":
    main()
