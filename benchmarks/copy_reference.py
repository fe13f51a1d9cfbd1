"""Device-to-device copy of 1e8 float64: the bandwidth every other share is measured against."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Result

N = 10**8
VECTOR = Input((N,))
COPY_BYTES = 2 * 8 * N  # one read and one write of every element

CASES = [
    OpCase("copy a.copy()", lambda xp, a: a.copy(), (VECTOR,), COPY_BYTES),
    OpCase("copy copyto(b, a)", lambda xp, a, b: xp.copyto(b, a),
           (VECTOR, Input((N,), seed=1)), COPY_BYTES),
]


def reference_gbps(results: list[Result]) -> float | None:
    """The best of CuPy's copies (cuarray's when CuPy is missing): the memory system's real
    copy rate, which a bandwidth-bound kernel can at best equal."""
    for library in ("cupy", "cuarray"):
        times = [r.ms for r in results if r.library == library and r.ms]
        if times:
            return COPY_BYTES / min(times) / 1e6
    return None
