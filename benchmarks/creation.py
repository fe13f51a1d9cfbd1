"""Array creation and dtype conversion, both pure memory traffic."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**8

CASES = [
    OpCase("creation ones((100,1000,1000))", lambda xp: xp.ones((100, 1000, 1000)),
           bytes_moved=8 * N, target=Target(max_ms=0.25)),
    OpCase("cast astype(float32) 1e8 f64", lambda xp, x: x.astype(xp.float32), (Input((N,)),),
           bytes_moved=(8 + 4) * N, target=Target(max_ms=0.35)),
]
