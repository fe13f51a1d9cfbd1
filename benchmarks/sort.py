"""Sorting (the sorting issue's targets, CuPy on an H200 in the comments)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**7
VECTOR = (Input((N,), "float32"),)
ROWS = (Input((10**4, 10**3), "float32"),)
VECTOR_F64 = (Input((N,), "float64"),)
LONG_ROWS = (Input((100, 10**5), "float32"),)

CASES = [
    # sort of 1e7 float32: no slower than CuPy (0.36 ms); reads and writes every key once
    OpCase("sort 1e7 f32", lambda xp, x: xp.sort(x), VECTOR, 8 * N, Target(not_slower_than_cupy=True)),
    # argsort of 1e7 float32: no slower than CuPy (keys in, int64 indices out)
    OpCase("argsort 1e7 f32", lambda xp, x: xp.argsort(x), VECTOR, 12 * N, Target(not_slower_than_cupy=True)),
    # 8-byte keys (eight Onesweep passes, 2048-element tiles): tracked
    OpCase("sort 1e7 f64", lambda xp, x: xp.sort(x), VECTOR_F64, 16 * N),
    # rows too long for one block share one device-wide sort, the row number as the top digit: tracked
    OpCase("argsort axis=-1 100x1e5 f32", lambda xp, x: xp.argsort(x, axis=-1), LONG_ROWS, 12 * N),
    # sort along the last axis of 1e4 x 1e3 float32 (one block per row): no slower than CuPy
    OpCase("sort axis=-1 1e4x1e3 f32", lambda xp, x: xp.sort(x, axis=-1), ROWS, 8 * N,
           Target(not_slower_than_cupy=True)),
    # order statistics ride on the sort: no target, tracked
    OpCase("median axis=-1 1e4x1e3 f32", lambda xp, x: xp.median(x, axis=-1), ROWS, 4 * N),
    OpCase("searchsorted 1e7 into 1e7 f32", lambda xp, x: xp.searchsorted(x, x), VECTOR, 12 * N),
]
