"""Compaction and gather (the select issue's targets, CuPy 14.2 on an H200 in the comments)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**8
VECTOR = (Input((N,), "float32"),)
ROWS = (Input((10**4, 10**4), "float32"), Input((10**4,), "float64", seed=1))

CASES = [
    # x[x > 0.5] on 1e8 float32: <= 0.6x CuPy (1.77 ms); reads x twice (compare, select), writes half
    OpCase("select x[x > 0.5] 1e8 f32", lambda xp, x: x[x > 0.5], VECTOR, 4 * N + N + 4 * N + 2 * N,
           Target(max_share_of_cupy=0.6)),
    # the compaction alone, on a ready mask: indices of the true elements
    OpCase("select flatnonzero(x > 0.5) 1e8 f32", lambda xp, x: xp.flatnonzero(x > 0.5), VECTOR, 4 * N + N + 4 * N),
    # gathering rows: x[idx] with 1e4 random row indices of a 1e4 x 1e4 float32 matrix
    OpCase("gather x[idx] rows 1e4x1e4 f32", lambda xp, x, r: x[(r * 10**4).astype(xp.int64)], ROWS,
           2 * 4 * 10**8),
]
