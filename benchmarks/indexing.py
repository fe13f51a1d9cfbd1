"""Advanced indexing (the indexing issue's targets, CuPy 14.2 on an H200 in the comments).

The index arrays are built once per library, outside the timed call: the cases time the gather,
the scatter and where(), not the making of random integers.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np

from .harness import LIBRARIES, Session, measure_each, random_host, time_device
from .op_case import Input, OpCase
from .results import Result, Target

N = 10**8
TAKEN = 10**7


@dataclass(frozen=True)
class IndexCase:
    """Time op(xp, x, idx, values) on 1e8 float32 x, TAKEN random int64 indices into it and
    TAKEN float32 values (the same on every library)."""

    name: str
    op: Callable
    bytes_moved: int
    target: Target | None = None
    libraries: tuple[str, ...] = LIBRARIES
    in_device_memory: bool = True

    def run(self, session: Session) -> list[Result]:
        def measure(library):
            x = library.to_device(random_host((N,), "float32"))
            idx = library.to_device(np.random.default_rng(3).integers(0, N, size=TAKEN, dtype=np.int64))
            values = library.to_device(random_host((TAKEN,), "float32", seed=1))
            return time_device(library, partial(self.op, library.xp, x, idx, values), session.repeats(library))
        return measure_each(session, self.name, self.libraries, measure)


def _scatter(xp, x, idx, values):
    x[idx] = values


def _flat_gather(xp, x, idx, values):
    # CuPy's flatiter takes no index arrays (TypeError); on a 1-D x, x[idx] is the same gather.
    return x[idx] if xp.__name__ == "cupy" else x.flat[idx]


CASES = [
    # x.flat[idx]: 1e7 random elements of 1e8 float32: <= CuPy (0.273 ms, x[idx]); reads idx, writes out, and
    # touches one 32-byte sector per (scattered) element read
    IndexCase("index x.flat[idx] 1e7 of 1e8 f32", _flat_gather, TAKEN * (8 + 4 + 32), Target(not_slower_than_cupy=True)),
    # x[idx] = v: 1e7 random positions of 1e8 float32: <= CuPy
    IndexCase("index x[idx] = v 1e7 of 1e8 f32", _scatter, TAKEN * (8 + 4 + 32), Target(not_slower_than_cupy=True)),
    # where(x > 0.5, x, 0) on 1e8 float32: <= 0.6x CuPy (1.02 ms)
    OpCase("index where(x > 0.5, x, 0) 1e8 f32", lambda xp, x: xp.where(x > 0.5, x, 0), (Input((N,), "float32"),),
           4 * N + N + N + 4 * N, Target(max_share_of_cupy=0.6)),
]
