"""Reductions (the reductions issue's targets, CuPy 14.2 on an H200 in the comments)."""
from __future__ import annotations

from .harness import time_per_call
from .op_case import Input, OpCase
from .results import Target

SIDE = 10**4
MATRIX = (Input((SIDE, SIDE)),)
READ_BYTES = 8 * SIDE * SIDE

CASES = [
    # >= 90 % of HBM read bandwidth (CuPy 0.224 / 0.235 ms)
    OpCase("reduction sum()", lambda xp, x: x.sum(), MATRIX, READ_BYTES, Target(min_copy_share=0.9)),
    OpCase("reduction sum(axis=1)", lambda xp, x: x.sum(axis=1), MATRIX, READ_BYTES + 8 * SIDE,
           Target(min_copy_share=0.9)),
    # argmax of 1e8 float64: no slower than CuPy (0.242 ms)
    OpCase("reduction argmax()", lambda xp, x: x.argmax(), MATRIX, READ_BYTES, Target(not_slower_than_cupy=True)),
    # std(axis=0) of 1e4 x 1e4: half of CuPy's time (0.684 ms: two passes plus a temporary)
    OpCase("reduction std(axis=0)", lambda xp, x: x.std(axis=0), MATRIX, READ_BYTES + 8 * SIDE,
           Target(max_share_of_cupy=0.5)),
    # sum of squares / norm-like fused pass: <= 0.25 ms on 1e8 float64
    OpCase("reduction linalg.norm(x) fused", lambda xp, x: xp.linalg.norm(x), MATRIX, READ_BYTES,
           Target(max_ms=0.25)),
    # many small reductions: x.sum(axis=0) on 100 x 100 float32 in a loop, <= 5 us (CuPy 16.2 us)
    OpCase("reduction small sum(axis=0) 100x100 f32", lambda xp, x: x.sum(axis=0), (Input((100, 100), "float32"),),
           target=Target(max_ms=5e-3), timer=time_per_call(calls=10_000)),
]
