"""A causal–anticausal recursion split across the chunks of a line, exactly.

The recursion c[i] = b·x[i] − Σ_k a_k·c[i−k], then y[i] = b·c[i] − Σ_k a_k·y[i+k], is linear: on a
chunk of n samples its result is the chunk's own result from zero state (y0), plus the response
to the r values that enter from the left (U = c[−r..−1]) and the r that enter from the right
(V = y[n..n+r−1]):

    y = y0 + Gu·U + Gv·V

and the states a chunk hands on are affine in the ones it receives:

    U' = Lc·U + e          (to the right: c[n−r..n−1])
    V' = Mu·U + Mv·V + h   (to the left: y[0..r−1])

where e and h (the zero-state c's last r samples and y0's first r) are weighted sums of the
chunk's samples, x·We and x·Wh. A line's chunks report e and h, a scan over the chunks solves
for every U and V (the matrices depend on the chunk's length only), and each chunk adds its
correction. The line's ends give the first U and the last V as the mode extends it (Nehab &
Maximo's exact initial feedbacks): zero state (none), the response past the end to zeros
(zero) or to the edge sample (clamp) from the last chunk's state, and for the periodic modes a
circular scan: periodic over the line, reflect over the line and its mirror image (a periodic
line of 2N samples), mirror over 2N − 2."""

import functools
import math

import numpy as np

# Past the line's end the recursions decay: the tail of the zero and clamp modes is followed
# until the largest pole's power falls below this.
_TAIL_DECAY = 1e-20
_LONGEST_TAIL = 1 << 20


class Recursion:
    """The causal–anticausal recursion of `gain` and `feedback`, in float64."""

    def __init__(self, gain, feedback):
        self.b = float(gain)
        self.a = np.asarray(feedback, dtype=np.float64)
        self.r = len(self.a)
        self.key = (self.b, tuple(self.a))

    def causal(self, z, past):
        """y[i] = b·z[i] − Σ_k a_k·y[i−k] down the rows of z (n × m), past = y[−r..−1] (r × m)."""
        n, r = len(z), self.r
        ext = np.empty((r + n,) + z.shape[1:])
        ext[:r] = past
        back = self.a[::-1]
        for i in range(n):
            ext[r + i] = self.b * z[i] - back @ ext[i:i + r]
        return ext[r:]

    def anticausal(self, z, future):
        """y[i] = b·z[i] − Σ_k a_k·y[i+k] up the rows of z, future = y[n..n+r−1]."""
        return self.causal(z[::-1], future[::-1])[::-1]

    def steady(self):
        """The causal pass's gain on a constant."""
        return self.b / (1.0 + math.fsum(self.a))

    def tail_length(self):
        """Samples after which the slowest pole has decayed below _TAIL_DECAY."""
        poles = np.abs(np.roots(np.concatenate([[1.0], self.a])))
        rho = float(poles.max()) if len(poles) else 0.0
        if rho <= 0.0:
            return max(self.r, 1)
        return int(min(_LONGEST_TAIL, max(self.r, math.ceil(math.log(_TAIL_DECAY) / math.log(rho)))))


class Chunk:
    """The matrices of one chunk length n (module docstring), float64."""

    def __init__(self, rec, n):
        r = rec.r
        eye, zeros = np.eye(r), np.zeros((r, r))
        impulse = np.zeros((n, 1))
        if n:
            impulse[0] = 1.0
        g = Recursion(1.0, rec.a).causal(impulse, np.zeros((r, 1)))[:, 0]
        hc = rec.causal(np.zeros((n, r)), eye)
        self.gu = rec.anticausal(hc, np.zeros((r, r)))
        self.gv = rec.anticausal(np.zeros((n, r)), eye)
        self.lc = np.vstack([eye, hc])[n:n + r]
        self.mu = np.vstack([self.gu, zeros])[:r]
        self.mv = np.vstack([self.gv, eye])[:r]
        # e_j = c0[n − r + j] = Σ_i b·g[n − r + j − i]·x[i]
        lag = (n - r + np.arange(r))[None, :] - np.arange(n)[:, None]
        self.we = np.where(lag >= 0, rec.b * g[np.clip(lag, 0, max(n - 1, 0))], 0.0) if n else np.zeros((0, r))
        # h_j = y0[j]: the anticausal pass of the causal response at j
        wh = np.zeros((n, r))
        for j in range(min(r, n)):
            t = np.zeros((n, 1))
            t[j:, 0] = rec.b * g[:n - j]
            wh[:, j] = rec.anticausal(t, np.zeros((r, 1)))[:, 0]
        self.wh = wh


@functools.lru_cache(maxsize=256)
def chunk(key, n):
    return Chunk(Recursion(key[0], key[1]), n)


@functools.lru_cache(maxsize=64)
def tail(key):
    """(Mu, h of a unit constant, Mv) of a chunk long enough for the recursion to decay."""
    rec = Recursion(key[0], key[1])
    c = chunk(key, rec.tail_length())
    return c.mu, c.wh.sum(axis=0), c.mv


CIRCULAR = ("periodic", "reflect", "mirror")

# Terms below these (weights, responses to a unit state) are left out of a chunk's summaries and
# corrections: far below the rounding of each type's results, as a recursion's far end decays.
NEGLIGIBLE = {4: 1e-10, 8: 1e-19, 0: 0.0}


def summary_width(r, boundary):
    """The values a chunk reports per line: e and h, the same of its mirror image for the
    reflecting modes, its first and last samples for clamp."""
    return 2 * r + (2 * r if boundary in ("reflect", "mirror") else 2 if boundary == "clamp" else 0)


def _rows(matrix, negligible):
    """The rows of `matrix` from its first to its last of a term above `negligible`."""
    kept = np.flatnonzero(np.abs(matrix).max(axis=1, initial=0.0) > negligible)
    return (int(kept[0]), int(kept[-1]) + 1) if len(kept) else (0, 0)


@functools.lru_cache(maxsize=256)
def mirrored_weights(key, n, boundary, first, last, itemsize):
    """The chunk's samples → the e and h of its mirror image (reversed, and for mirror less the
    line's own end samples), as ((rows, weights of e), (rows, weights of h)), each weight
    matrix only over the rows that reach above NEGLIGIBLE."""
    lo, hi = (int(first), int(last)) if boundary == "mirror" and not (first and last and n == 1) else (0, 0)
    m = max(n - lo - hi, 0)
    c = chunk(key, m)
    negligible = NEGLIGIBLE[itemsize] / max(n, 1)
    parts = []
    for w in (c.we[::-1], c.wh[::-1]):
        a, b = _rows(w, negligible)
        parts.append(((lo + a, lo + b), np.ascontiguousarray(w[a:b])))
    return tuple(parts)


@functools.lru_cache(maxsize=256)
def corrections(key, n, itemsize):
    """A chunk's result less its zero-state result, per entering state: ((rows, n × r block of
    Gu), (rows, block of Gv)), each only over the rows it moves by more than NEGLIGIBLE (itemsize
    0: every row)."""
    c = chunk(key, n)
    parts = []
    for g in (c.gu, c.gv):
        a, b = _rows(g, NEGLIGIBLE[itemsize]) if itemsize else (0, n)
        parts.append(((a, b), np.ascontiguousarray(g[a:b])))
    return tuple(parts)


@functools.lru_cache(maxsize=64)
def reach(key):
    """Samples past which a state's influence has decayed (the zero and clamp modes' tail)."""
    return Recursion(key[0], key[1]).tail_length()


@functools.lru_cache(maxsize=256)
def end_state_weights(key, n, itemsize):
    """The chunk's samples → e, the causal pass's last r samples from zero state: (rows,
    weights) over the rows that reach above NEGLIGIBLE."""
    we = chunk(key, n).we
    a, b = _rows(we, NEGLIGIBLE[itemsize] / max(n, 1))
    return (a, b), np.ascontiguousarray(we[a:b])


def _segments(key, lengths, summaries, boundary):
    """The chunks of the (extended) line in order: (chunk matrices, e, h); summaries is L × K × width."""
    r = len(key[1])
    K = len(lengths)
    segs = [(chunk(key, n), summaries[:, k, :r], summaries[:, k, r:2 * r]) for k, n in enumerate(lengths)]
    if boundary in ("reflect", "mirror"):
        for k in reversed(range(K)):
            m = lengths[k]
            if boundary == "mirror":
                m -= int(k == 0) + int(k == K - 1)
            segs.append((chunk(key, m), summaries[:, k, 2 * r:3 * r], summaries[:, k, 3 * r:4 * r]))
    return segs


def _times(states, matrix):
    """Each line's state (a row of L × r) times the r × r `matrix`, as r scaled column sums: a
    matrix product of so few columns costs a threaded BLAS more to start than to run, and einsum
    loops over the r terms innermost (2 H200 hosts' 32 cores: a solve of 16384 lines 68 ms by
    matmul, 100 ms by einsum)."""
    out = states[:, :1] * matrix[:, 0]
    for j in range(1, matrix.shape[1]):
        out += states[:, j:j + 1] * matrix[:, j]
    return out


def solve(key, lengths, summaries, boundary):
    """Every chunk's entering states from the chunks' summaries (L lines × K chunks × width):
    an L × K × 2r array of (U, V)."""
    rec = Recursion(key[0], key[1])
    r = rec.r
    L, K = summaries.shape[0], len(lengths)
    if boundary == "mirror" and sum(lengths) == 1:
        boundary = "reflect"  # one sample: every extension is that sample
    segs = _segments(key, lengths, summaries, boundary)
    eye = np.eye(r)
    circular = boundary in CIRCULAR
    if circular:
        phi, e_total = eye, np.zeros((L, r))
        for c, e, _ in segs:
            phi = c.lc @ phi
            e_total = _times(e_total, c.lc) + e
        u = _times(e_total, np.linalg.inv(eye - phi))
    elif boundary == "clamp":
        u = np.outer(summaries[:, 0, 2 * r], np.full(r, rec.steady()))
    else:
        u = np.zeros((L, r))
    us = []
    for c, e, _ in segs:
        us.append(u)
        u = _times(u, c.lc) + e
    w = [_times(u_j, c.mu) + h for u_j, (c, _, h) in zip(us, segs)]
    if circular:
        psi, f = eye, np.zeros((L, r))
        for j in reversed(range(len(segs))):
            f = _times(f, segs[j][0].mv) + w[j]
            psi = segs[j][0].mv @ psi
        v = _times(f, np.linalg.inv(eye - psi))
    elif boundary in ("zero", "clamp"):
        mu, h_const, mv = tail(key)
        v = _times(u, mu)
        if boundary == "clamp":
            s = rec.steady()
            v = v + np.outer(summaries[:, K - 1, 2 * r + 1], h_const + mv @ np.full(r, s * s))
    else:
        v = np.zeros((L, r))
    states = np.empty((L, K, 2 * r))
    for j in reversed(range(len(segs))):
        if j < K:
            states[:, j, :r] = us[j]
            states[:, j, r:] = v
        v = _times(v, segs[j][0].mv) + w[j]
    return states
