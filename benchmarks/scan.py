"""Scans (the scans issue's targets, CuPy 14.2 on an H200 in the comments)."""
from __future__ import annotations

from .harness import time_per_call
from .op_case import Input, OpCase
from .results import Target

N = 10**8
LONG_ROW = (Input((N,), "float32"),)

CASES = [
    # cumsum of 1e8 float32 in one row: <= 0.5x CuPy (0.758 ms). Decoupled look-back reads and
    # writes each element once (8 bytes per element; 0.8 GB is ~0.17 ms at HBM speed).
    OpCase("scan cumsum 1e8 f32", lambda xp, x: xp.cumsum(x), LONG_ROW, 8 * N, Target(max_share_of_cupy=0.5)),
    # Rows of a 1e4 x 1e4 float64 matrix along the inner axis (a warp per row) and the outer axis
    # (a thread per column, coalesced): no slower than CuPy.
    OpCase("scan cumsum(axis=1) 1e4x1e4 f64", lambda xp, x: xp.cumsum(x, axis=1), (Input((10**4, 10**4)),),
           16 * N, Target(not_slower_than_cupy=True)),
    OpCase("scan cumsum(axis=0) 1e4x1e4 f64", lambda xp, x: xp.cumsum(x, axis=0), (Input((10**4, 10**4)),),
           16 * N, Target(not_slower_than_cupy=True)),
    # A sequential ufunc fold: subtract.accumulate along the rows of 1e4 x 1e3 float32.
    OpCase("scan subtract.accumulate(axis=0) 1e4x1e3 f32", lambda xp, x: xp.subtract.accumulate(x, axis=0),
           (Input((10**4, 10**3), "float32"),), 8 * 10**7),
    # Small scans: the per-call overhead (cumsum of 1000 float32).
    OpCase("scan small cumsum 1e3 f32", lambda xp, x: xp.cumsum(x), (Input((1000,), "float32"),),
           timer=time_per_call(calls=10_000)),
]
