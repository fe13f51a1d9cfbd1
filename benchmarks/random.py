"""cuarray.random: the bulk fills against a copy's write bandwidth, and the rejection samplers
(gamma, binomial, poisson) against CuPy.

A device copy moves each byte twice (read and write), so its write rate is half the rate the copy
reference reports: 90% of a copy's write bandwidth is 45% of its reported (read + write) rate, with
bytes_moved counting only the bytes a fill writes.
"""
from __future__ import annotations

import numpy as np

from .op_case import OpCase
from .results import Target

N = 10**8
M = 10**7
FILL = Target(min_copy_share=0.45)
SAMPLER = Target(not_slower_than_cupy=True)

# NumPy's legacy module functions lack dtype=: its float32 case goes through a Generator.
_numpy_generator = np.random.default_rng(0)


def random_float32(xp, n):
    if xp is np:
        return _numpy_generator.random(n, dtype=np.float32)
    return xp.random.random_sample(n, dtype=xp.float32)  # CuPy's RandomState signature


CASES = [
    OpCase("random random(1e8) f64", lambda xp: xp.random.random(N), bytes_moved=8 * N, target=FILL),
    OpCase("random random(1e8) f32", lambda xp: random_float32(xp, N), bytes_moved=4 * N, target=FILL),
    OpCase("random standard_normal(1e8)", lambda xp: xp.random.standard_normal(N), bytes_moved=8 * N, target=FILL),
    OpCase("random randint(0, 1000, 1e8)", lambda xp: xp.random.randint(0, 1000, N), bytes_moved=8 * N,
           target=FILL),
    OpCase("random gamma(2.5, 1e7)", lambda xp: xp.random.gamma(2.5, size=M), bytes_moved=8 * M, target=SAMPLER),
    OpCase("random binomial(100, 0.3, 1e7)", lambda xp: xp.random.binomial(100, 0.3, size=M), bytes_moved=8 * M,
           target=SAMPLER),
    OpCase("random poisson(10, 1e7)", lambda xp: xp.random.poisson(10.0, size=M), bytes_moved=8 * M,
           target=SAMPLER),
]
