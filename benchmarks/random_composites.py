"""random's composite operations (issue 16). permutation sorts random keys, as CuPy's RandomState
does (argsort of 32-bit curand keys). choice without replacement of k <= n/4 from n >= 2**16 takes the
first k values of a keyed Feistel permutation (Philox rounds, cycle-walking; O(k), no sort), as CuPy 14
does with its own network (docs/random_composites.md)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**7
K = 10**6
CATEGORIES = 10**4

_STATES: dict[str, object] = {}


def _state(xp):
    """One RandomState per library, made outside the timed calls."""
    if xp.__name__ not in _STATES:
        _STATES[xp.__name__] = xp.random.RandomState(1234)
    return _STATES[xp.__name__]


def _normalised(xp, w):
    w = xp.abs(w) + 1e-3
    return w / w.sum()


CASES = [
    # permutation of 1e7: no slower than CuPy (argsort of 1e7 random 32-bit keys; int64 indices out)
    OpCase("random permutation 1e7", lambda xp: _state(xp).permutation(N), (), 12 * N,
           Target(not_slower_than_cupy=True)),
    # choice of 1e6 from 1e7 without replacement: no slower than CuPy (the target). The sort of the
    # keys under a threshold took 0.232 ms on an H200 against CuPy 14.2's 0.095 ms; the Feistel prefix
    # (6 rounds of Philox a pass, 1.68 passes an element) is estimated at ~0.045 ms: not yet measured
    OpCase("random choice 1e6 of 1e7 no replace", lambda xp: _state(xp).choice(N, K, replace=False), (),
           4 * N + 8 * K, Target(not_slower_than_cupy=True)),
    # tracked: shuffle in place of 1e7 float32 (permutation + gather + copy back)
    OpCase("random shuffle 1e7 f32", lambda xp, x: _state(xp).shuffle(x), (Input((N,), "float32"),), 16 * N),
    # tracked: 1e6 draws from 1e4 weighted categories (cumsum + searchsorted)
    OpCase("random choice 1e6 of 1e4 with p", lambda xp, w: _state(xp).choice(CATEGORIES, K, p=_normalised(xp, w)),
           (Input((CATEGORIES,), "float64"),), 16 * K),
    # tracked: multinomial, 1e6 rows of 8 categories (7 conditional binomial draws)
    OpCase("random multinomial 1e6 x 8", lambda xp: _state(xp).multinomial(100, [0.125] * 8, size=K), (), 64 * K),
    # tracked: multivariate normal, 1e6 draws of 16 dimensions (SVD of the covariance, one GEMM)
    OpCase("random multivariate_normal 1e6 x 16",
           lambda xp: _state(xp).multivariate_normal([0.0] * 16, [[1.0 if i == j else 0.1 for j in range(16)]
                                                                  for i in range(16)], size=K), (), 2 * 128 * K),
]
