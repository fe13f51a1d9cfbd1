"""Per-call overhead: a + b on 1,000 float32, where launching costs far more than the work."""
from __future__ import annotations

from .harness import time_per_call
from .op_case import Input, OpCase
from .results import Target

CASES = [
    OpCase("overhead a+b (1e3 f32)", lambda xp, a, b: a + b,
           (Input((1000,), "float32"), Input((1000,), "float32", seed=1)),
           target=Target(max_ms=3.5e-3), timer=time_per_call(calls=10_000)),
]
