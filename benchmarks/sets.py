"""Set operations (the select issue's target), cuarray vs CuPy vs NumPy on int32 inputs with many
duplicates (random integers in [0, 1e6), each value about 10 times in 1e7)."""
from __future__ import annotations

from .histograms import IntegerCase
from .results import Target

N = 10**7
RANGE = 10**6

CASES = [
    # unique of 1e7 int32: no slower than CuPy (sort, neighbour compare, one compaction)
    IntegerCase("unique 1e7 i32", lambda xp, x: xp.unique(x), bytes_moved=4 * N + 4 * N + N + 4 * N,
                target=Target(not_slower_than_cupy=True), counts=(N,), high=RANGE),
    # unique with inverse and counts (stable argsort, scatter of the run numbers): tracked
    IntegerCase("unique inverse+counts 1e7 i32",
                lambda xp, x: xp.unique(x, return_inverse=True, return_counts=True),
                bytes_moved=4 * N + 8 * N + 4 * N + N + 8 * N + 8 * N, counts=(N,), high=RANGE),
    # isin of 1e7 int32 in 1e5 test values (sort of the tests, binary search per element): tracked
    IntegerCase("isin 1e7 in 1e5 i32", lambda xp, x, t: xp.isin(x, t), bytes_moved=4 * N + N,
                counts=(N, 10**5), high=RANGE),
]
