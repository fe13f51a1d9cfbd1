"""Sums of 1e8 float64 viewed as 1e4 x 1e4: all at once and along the contiguous axis."""
from __future__ import annotations

from .op_case import Input, OpCase

SIDE = 10**4
MATRIX = (Input((SIDE, SIDE)),)
READ_BYTES = 8 * SIDE * SIDE

# No targets yet: these report how close a reduction gets to reading at copy bandwidth.
CASES = [
    OpCase("reduction sum()", lambda xp, x: x.sum(), MATRIX, READ_BYTES),
    OpCase("reduction sum(axis=1)", lambda xp, x: x.sum(axis=1), MATRIX, READ_BYTES + 8 * SIDE),
]
