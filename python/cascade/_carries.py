"""A causal–anticausal recursion split across the chunks of a line, exactly (cascade/carries.h).

A chunk's result is its own result from zero state (y0) plus its response to the r states that
enter from the left (U) and the r that enter from the right (V): y = y0 + Gu·U + Gv·V. Each chunk
reports a few weighted sums of its samples per line (its summary); one solve per line of chunks
gives every chunk's U and V (the native module: the line's ends as the mode extends them, the
periodic modes around the line); each chunk then adds its correction. Here: the native matrices,
cut to the rows whose terms matter, for the array-wide products the Dask graph runs."""

import functools

import numpy as np

from . import _native

# Terms below these (weights, responses to a unit state) are left out of a chunk's summaries and
# corrections, as a recursion's far end decays. float32: at 1e-6 no result moved from 1e-10's
# (van Vliet σ 16 and 64, 2048² in 512² chunks, constant, ramp and noise images); the chunks'
# own float32 passes set the error. float64: below its rounding.
NEGLIGIBLE = {4: 1e-7, 8: 1e-19}


@functools.lru_cache(maxsize=256)
def _chunk(key, n):
    """(we, wh, gu, gv): n × r matrices of a chunk of n samples (carries.h's ChunkCarries)."""
    return _native.chunk_carries(key[0], list(key[1]), n)[:4]


def summary_width(r, boundary):
    return _native.carry_summary_width(r, boundary)


@functools.lru_cache(maxsize=64)
def reach(key):
    """Samples past which a state's influence has decayed."""
    return _native.carry_reach(key[0], list(key[1]))


def _rows(matrix, negligible):
    """The rows of `matrix` from its first to its last of a term above `negligible`."""
    kept = np.flatnonzero(np.abs(matrix).max(axis=1, initial=0.0) > negligible)
    return (int(kept[0]), int(kept[-1]) + 1) if len(kept) else (0, 0)


def _cut(matrix, negligible, offset=0):
    a, b = _rows(matrix, negligible)
    return (offset + a, offset + b), np.ascontiguousarray(matrix[a:b])


@functools.lru_cache(maxsize=256)
def state_weights(key, n, itemsize):
    """The chunk's samples → e, the causal pass's last r samples from zero state, and h, the
    zero-state result's first r: ((rows, weights of e), (rows, weights of h))."""
    we, wh = _chunk(key, n)[:2]
    negligible = NEGLIGIBLE[itemsize] / max(n, 1)
    return _cut(we, negligible), _cut(wh, negligible)


@functools.lru_cache(maxsize=256)
def mirrored_weights(key, n, boundary, first, last, itemsize):
    """The chunk's samples → the e and h of its mirror image (reversed, and under mirror less the
    line's own end samples): ((rows, weights of e), (rows, weights of h))."""
    lo, hi = (int(first), int(last)) if boundary == "mirror" and not (first and last and n == 1) else (0, 0)
    we, wh = _chunk(key, max(n - lo - hi, 0))[:2]
    negligible = NEGLIGIBLE[itemsize] / max(n, 1)
    return _cut(we[::-1], negligible, lo), _cut(wh[::-1], negligible, lo)


@functools.lru_cache(maxsize=256)
def corrections(key, n, itemsize):
    """((rows, Gu's rows), (rows, Gv's rows)): each over the rows it moves by more than NEGLIGIBLE,
    every row for itemsize 0."""
    gu, gv = _chunk(key, n)[2:]
    if not itemsize:
        return ((0, n), gu), ((0, n), gv)
    return _cut(gu, NEGLIGIBLE[itemsize]), _cut(gv, NEGLIGIBLE[itemsize])


def solve(key, lengths, summaries, boundary):
    """Every chunk's entering states (L × K × 2r: U, V) from their summaries (L × K × width)."""
    return _native.solve_carries(key[0], list(key[1]), boundary, list(lengths),
                                 np.ascontiguousarray(summaries, dtype=np.float64))
