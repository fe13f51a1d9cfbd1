"""Bandwidth-bound elementwise ops on 1e8 float64 (800 MB per operand, far beyond L2)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**8
X, Y = Input((N,)), Input((N,), seed=1)
TARGET = Target(min_copy_share=0.9, not_slower_than_cupy=True)

# (expression, op, inputs, array passes). x*x reads x once; exp(sin(x)) is two kernels
# unless fused, so it is counted as two reads and two writes: what must move unfused.
TABLE = [
    ("5*x", lambda xp, x: 5 * x, (X,), 2),
    ("x*x", lambda xp, x: x * x, (X,), 2),
    ("exp(sin(x))", lambda xp, x: xp.exp(xp.sin(x)), (X,), 4),
    ("x+y", lambda xp, x, y: x + y, (X, Y), 3),
]

CASES = [OpCase(f"elementwise {expr}", op, inputs, passes * 8 * N, TARGET)
         for expr, op, inputs, passes in TABLE]
