"""Counting with atomics (the ufunc.at / histogram issue's targets): bincount of 1e8 int32 values in
[0, 1000) and np.add.at(a, idx, 1) with 1e7 indices into 1e3 slots, cuarray vs CuPy vs NumPy."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from .harness import Session, measure_each, random_host
from .op_case import OpCase
from .results import Result, Target

N_VALUES = 10**8
N_INDICES = 10**7
SLOTS = 1000


@dataclass(frozen=True)
class IntegerCase(OpCase):
    """An OpCase whose inputs are random integers in [0, high): `counts` elements each."""

    counts: tuple[int, ...] = ()
    high: int = SLOTS

    def run(self, session: Session) -> list[Result]:
        def measure(library):
            operands = [library.to_device((random_host((n,), "float64", seed) * self.high).astype(np.int32))
                        for seed, n in enumerate(self.counts)]
            call = partial(self.op, library.xp, *operands)
            return self.timer(library, call, session.repeats(library))
        return measure_each(session, self.name, self.libraries, measure)


def _add_at(xp, idx):
    slots = xp.zeros(SLOTS, dtype=xp.int64)
    xp.add.at(slots, idx, 1)
    return slots


CASES = [
    # bincount of 1e8 int32 in [0, 1000): reads 400 MB once (block-local bins in shared memory)
    IntegerCase("histograms bincount 1e8 int32 [0,1000)", lambda xp, x: xp.bincount(x), bytes_moved=4 * N_VALUES,
                target=Target(not_slower_than_cupy=True), counts=(N_VALUES,)),
    # add.at(a, idx, 1) with 1e7 int32 indices into 1e3 int64 slots (a validation pass, then the atomics)
    IntegerCase("histograms add.at 1e7 idx -> 1e3 slots", _add_at, bytes_moved=4 * N_INDICES,
                target=Target(not_slower_than_cupy=True), counts=(N_INDICES,)),
]
