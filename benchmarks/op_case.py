"""The generic benchmark: build inputs on each library's device, then time one operation."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

from .harness import LIBRARIES, Session, measure_each, random_host, time_device
from .results import Result, Target


@dataclass(frozen=True)
class Input:
    """A random operand. on_host keeps it a NumPy array (the op itself moves it to the device)."""

    shape: tuple[int, ...]
    dtype: str = "float64"
    seed: int = 0
    on_host: bool = False


@dataclass(frozen=True)
class OpCase:
    """Time `op(xp, *inputs)` for each library with `timer`.

    bytes_moved counts what the operation must read and write; it turns a time into GB/s,
    and, when those bytes move in device memory, into a share of copy bandwidth.
    """

    name: str
    op: Callable
    inputs: tuple[Input, ...] = ()
    bytes_moved: int | None = None
    target: Target | None = None
    timer: Callable = time_device
    libraries: tuple[str, ...] = LIBRARIES
    in_device_memory: bool = True  # False for host<->device copies, which PCIe limits

    def run(self, session: Session) -> list[Result]:
        def measure(library):
            operands = [random_host(i.shape, i.dtype, i.seed) for i in self.inputs]
            operands = [host if i.on_host else library.to_device(host)
                        for i, host in zip(self.inputs, operands)]
            call = partial(self.op, library.xp, *operands)
            return self.timer(library, call, session.repeats(library))
        return measure_each(session, self.name, self.libraries, measure)
