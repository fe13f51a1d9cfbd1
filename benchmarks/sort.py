"""Sorting (the sorting issue's targets, CuPy on an H200 in the comments)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**7
VECTOR = (Input((N,), "float32"),)
ROWS = (Input((10**4, 10**3), "float32"),)

CASES = [
    # sort of 1e7 float32: no slower than CuPy (0.36 ms); reads and writes every key once
    OpCase("sort 1e7 f32", lambda xp, x: xp.sort(x), VECTOR, 8 * N, Target(not_slower_than_cupy=True)),
    # argsort of 1e7 float32: no slower than CuPy (keys in, int64 indices out)
    OpCase("argsort 1e7 f32", lambda xp, x: xp.argsort(x), VECTOR, 12 * N, Target(not_slower_than_cupy=True)),
    # sort along the last axis of 1e4 x 1e3 float32 (one block per row): no slower than CuPy
    OpCase("sort axis=-1 1e4x1e3 f32", lambda xp, x: xp.sort(x, axis=-1), ROWS, 8 * N,
           Target(not_slower_than_cupy=True)),
    # order statistics ride on the sort: no target, tracked
    OpCase("median axis=-1 1e4x1e3 f32", lambda xp, x: xp.median(x, axis=-1), ROWS, 4 * N),
    OpCase("searchsorted 1e7 into 1e7 f32", lambda xp, x: xp.searchsorted(x, x), VECTOR, 12 * N),
]
