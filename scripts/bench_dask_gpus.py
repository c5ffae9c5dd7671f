#!/usr/bin/env python3
"""Dask arrays of CuPy chunks spread over the GPUs of one host: each chunk made and filtered on
its own device, only the carries (a few values per line and chunk edge) crossing devices.

    PYTHONPATH=build/python python3 scripts/bench_dask_gpus.py [--size 16384] [--chunk 4096]
        [--volume 2048,2048,4608] [--workers]

1. Throughput: the same lazy array on one GPU (every chunk on device 0) and on all N, the result
   kept on the devices (persist), best of --repeat; GiP/s = 2^30 samples per second. Dask's
   threaded scheduler in this process, or with --workers one dask.distributed worker per GPU
   (then only this part runs).
2. Exact: the N-GPU result against the whole-array call on device 0 (--check size).
3. --volume Z,Y,X: a float32 volume whose input and result together exceed one GPU's memory,
   filtered across the N; sampled lines checked against a float64 reference on the host."""

import argparse
import os
import time

import cupy
import dask
import dask.array as da
import numpy as np

import cascade


def spread(shape, chunks, devices, seed=0):
    """A random float32 Dask array whose chunk (i, j, ...) lives on device (flat index · N / count):
    consecutive chunks share a device."""
    grid = tuple(-(-n // c) for n, c in zip(shape, chunks))
    count = int(np.prod(grid))

    def make(block_info=None):
        info = block_info[None]
        flat = int(np.ravel_multi_index(info["chunk-location"], grid))
        with cupy.cuda.Device(devices[flat * len(devices) // count]):
            rng = cupy.random.default_rng(seed + flat)
            return rng.standard_normal(info["chunk-shape"], dtype=cupy.float32)

    return da.map_blocks(make, chunks=tuple(tuple(min(c, n - i) for i in range(0, n, c)) for n, c in
                                             zip(shape, chunks)), meta=cupy.empty((0,) * len(shape), cupy.float32))


def synchronize(devices):
    for d in devices:
        with cupy.cuda.Device(d):
            cupy.cuda.get_current_stream().synchronize()


def timed(run, devices, repeat):
    best = float("inf")
    for _ in range(repeat):
        synchronize(devices)
        start = time.perf_counter()
        result = run()
        synchronize(devices)
        best = min(best, time.perf_counter() - start)
    return best, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=16384)
    parser.add_argument("--chunk", type=int, default=4096)
    parser.add_argument("--sigma", type=float, default=16.0)
    parser.add_argument("--method", default="vanvliet")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", type=int, default=4096, help="size of the exactness check")
    parser.add_argument("--volume", default="", help="Z,Y,X of the volume past one GPU's memory")
    parser.add_argument("--workers", action="store_true",
                        help="throughput with dask.distributed, one worker process per GPU, instead of threads")
    args = parser.parse_args()
    if args.workers:
        return per_gpu_workers(args)
    n = cupy.cuda.runtime.getDeviceCount()
    every = list(range(n))
    dask.config.set(scheduler="threads", num_workers=4 * n)
    name = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"{n} × {name}; {args.size}² float32, chunks {args.chunk}², gaussian_filter σ {args.sigma:g} "
          f"({args.method}), mode reflect")

    def filtered(devices, size, chunk):
        x = spread((size, size), (chunk, chunk), devices).persist()
        synchronize(devices)
        return x, lambda: cascade.gaussian_filter(x, args.sigma, method=args.method).persist()

    rates = {}
    for devices in ([0], every):
        _, run = filtered(devices, args.size, args.chunk)
        run()  # plans made, memory pools filled
        seconds, _ = timed(run, devices, args.repeat)
        rates[len(devices)] = args.size ** 2 / seconds / 2 ** 30
        print(f"{len(devices)} GPU(s): {seconds * 1e3:8.1f} ms, {rates[len(devices)]:7.2f} GiP/s")
    print(f"{n} GPUs over one: {rates[n] / rates[1]:.2f}× (≥ {0.65 * n:.2f} wanted)")
    whole_array(args)

    x, run = filtered(every, args.check, args.chunk // 4)
    got, whole_input = to_host(run()), to_host(x)
    with cupy.cuda.Device(0):
        whole = cascade.gaussian_filter(cupy.asarray(whole_input), args.sigma, method=args.method).get()
    print(f"exact: {args.check}² on {n} GPUs against the whole array on one: relative L2 "
          f"{np.linalg.norm(got - whole) / np.linalg.norm(whole):.2e}")
    if args.volume:
        volume(tuple(int(v) for v in args.volume.split(",")), every, args)


def per_gpu_workers(args):
    """Throughput on 1 and on N worker processes, each seeing one GPU (CUDA_VISIBLE_DEVICES), the
    chunks made and kept on the worker of their device, work stealing off so they stay there."""
    from distributed import Client, Nanny, Scheduler, SpecCluster, wait

    # Work stealing off: the chunks stay on the worker of their GPU. NVML's diagnostics off: this
    # Dask predates the pynvml that returns names as str.
    os.environ["DASK_DISTRIBUTED__DIAGNOSTICS__NVML"] = "False"
    # A worker's first calls compile the kernels for the device (seconds each, while its tasks
    # keep its event loop waiting): connections to it wait that out rather than 30 s.
    timeouts = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "600s", "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP": "600s"}
    os.environ.update(timeouts)
    dask.config.set({"distributed.scheduler.work-stealing": False, "distributed.diagnostics.nvml": False,
                     "distributed.comm.timeouts.connect": "600s", "distributed.comm.timeouts.tcp": "600s"})
    n = cupy.cuda.runtime.getDeviceCount()
    print(f"{n} × {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}; {args.size}² float32, chunks "
          f"{args.chunk}², gaussian_filter σ {args.sigma:g} ({args.method}), one worker process per GPU")
    rates = {}
    for count in (1, n):
        specs = {f"gpu{d}": {"cls": Nanny, "options": {"nthreads": 2, "env": {"CUDA_VISIBLE_DEVICES": str(d),
                                                                             **timeouts}}}
                 for d in range(count)}
        with SpecCluster(workers=specs, scheduler={"cls": Scheduler, "options": {"dashboard_address": None}},
                         asynchronous=False) as cluster, Client(cluster) as client:
            names = {info["name"]: address for address, info in client.scheduler_info()["workers"].items()}
            grid = -(-args.size // args.chunk)

            def worker_of(key):  # (name, i, j): the chunk's row of the grid picks its worker
                return [names[f"gpu{key[1] * count // grid}"]]

            with dask.annotate(workers=worker_of, allow_other_workers=False):
                x = spread((args.size, args.size), (args.chunk, args.chunk), [0]).persist()
            wait(x)
            best = float("inf")
            for k in range(args.repeat + 1):
                start = time.perf_counter()
                # A σ of its own each run (by 1e-9): new keys, so the scheduler cannot hand back
                # the last run's chunks while their release is still on its way.
                y = cascade.gaussian_filter(x, args.sigma + 1e-9 * k, method=args.method).persist()
                wait(y)
                client.run(lambda: cupy.cuda.Device().synchronize())  # a task ends before its GPU work
                best = min(best, time.perf_counter() - start)
                del y
            rates[count] = args.size ** 2 / best / 2 ** 30
            print(f"{count} worker(s)/GPU(s): {best * 1e3:8.1f} ms, {rates[count]:7.2f} GiP/s")
    print(f"{n} GPUs over one: {rates[n] / rates[1]:.2f}× (≥ {0.65 * n:.2f} wanted)")
    whole_array(args)


def whole_array(args):
    """The whole-array call on one GPU (one native call: at most 2^31 samples), for scale."""
    size = args.size if args.size ** 2 < 2 ** 31 else 40960
    with cupy.cuda.Device(0):
        x = cupy.random.default_rng(0).standard_normal((size, size), dtype=cupy.float32)
        seconds, _ = timed(lambda: cascade.gaussian_filter(x, args.sigma, method=args.method), [0], args.repeat + 1)
        del x
    print(f"whole array {size}² on one GPU: {seconds * 1e3:8.1f} ms, {size ** 2 / seconds / 2 ** 30:7.2f} GiP/s")


def to_host(lazy):
    """A Dask array of CuPy chunks (on any devices) as one NumPy array, chunk by chunk."""
    blocks = lazy.to_delayed()
    host = np.empty(lazy.shape, np.float32)
    for index in np.ndindex(blocks.shape):
        where = tuple(slice(sum(c[:i]), sum(c[:i + 1])) for c, i in zip(lazy.chunks, index))
        host[where] = blocks[index].compute().get()
    return host


def filter_matrix(n, args):
    """The float64 1-D filter of n samples as an n × n matrix (its columns: the unit impulses filtered)."""
    return cascade.gaussian_filter1d(np.eye(n), args.sigma, axis=0, method=args.method)


def volume(shape, every, args):
    # A chunk's samples within what one pipeline call addresses (2^31).
    chunks = (shape[0] // (4 * len(every)), shape[1], shape[2] // 2)
    gib = np.prod(shape) * 4 / 2 ** 30
    print(f"volume {shape} float32: {gib:.1f} GiB in, {gib:.1f} GiB out (one GPU holds "
          f"{cupy.cuda.Device(0).mem_info[1] / 2 ** 30:.0f} GiB); chunks {chunks} over {len(every)} GPUs")
    vol = spread(shape, chunks, every, seed=7)
    seconds, kept = timed(lambda: cascade.gaussian_filter(vol, args.sigma, method=args.method).persist(), every, 1)
    print(f"volume filtered in {seconds:.1f} s ({np.prod(shape) / seconds / 2 ** 30:.2f} GiP/s)")
    kz, ky, kx = (filter_matrix(s, args) for s in shape)
    rng = np.random.default_rng(1)
    worst = 0.0
    for _ in range(2):
        # Output row (z, y, :) = F_x(Σ_z' Σ_y' Kz[z, z'] Ky[y, y'] in[z', y', :]): the sums of each
        # chunk on its device (float32 products, float64 totals), the rest on the host.
        z, y = int(rng.integers(0, shape[0])), int(rng.integers(0, shape[1]))

        def partial(block, block_info=None):
            (z0, z1), (y0, y1), _ = block_info[0]["array-location"]
            with block.device:
                wy = cupy.asarray(ky[y, y0:y1], dtype=cupy.float32)
                rows = cupy.tensordot(block, wy, axes=([1], [0])).astype(cupy.float64)  # (z, x)
                total = cupy.asarray(kz[z, z0:z1]) @ rows
            return total.get()[None, None, :]

        sums = vol.map_blocks(partial, chunks=((1,) * vol.numblocks[0], (1,) * vol.numblocks[1], vol.chunks[2]),
                              meta=np.empty((0, 0, 0))).sum(axis=(0, 1)).compute()
        reference = kx @ sums
        row = np.concatenate([kept.blocks[z // chunks[0], 0, j].compute()[z % chunks[0], y].get()
                              for j in range(kept.numblocks[2])])
        worst = max(worst, float(np.linalg.norm(row - reference) / np.linalg.norm(reference)))
    print(f"volume: sampled rows against float64 sums, relative L2 at most {worst:.2e}")
    del kept


if __name__ == "__main__":
    main()
