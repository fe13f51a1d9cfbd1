"""Decompositions and solvers (issue 14), cuarray vs CuPy vs NumPy: the issue's svd, eigh, inv, solve,
det, cholesky, qr and lstsq cases with its targets.

    python -m benchmarks.linalg_solvers --candidates

times, for cuarray alone, every candidate routine of the choice table (docs/linalg_solvers.md) on
each shape it could serve, forced through cuarray._core.linalg.force_routine, so that the table's
thresholds can be set from one run on the GPU.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .harness import LIBRARIES, Session, load_libraries, measure_each, time_device
from .results import Result, Target


def general(shape, seed=0):
    """Random normal matrices: nonsingular and well enough conditioned for every solver."""
    return np.random.default_rng(seed).standard_normal(shape)


def positive_definite(shape, seed=0):
    a = general(shape, seed)
    n = shape[-1]
    return a @ np.swapaxes(a, -1, -2) / n + np.eye(n)


def symmetric(shape, seed=0):
    a = general(shape, seed)
    return (a + np.swapaxes(a, -1, -2)) / 2


@dataclass(frozen=True)
class SolverCase:
    """Time `op(xp, *operands)` on operands made on the host by `make()` and moved to each device."""

    name: str
    op: Callable
    make: Callable[[], tuple]
    target: Target | None = None
    libraries: tuple[str, ...] = LIBRARIES
    bytes_moved: int | None = None  # solvers are bound by arithmetic and latency, not bandwidth
    in_device_memory: bool = True

    def run(self, session: Session) -> list[Result]:
        operands = self.make()

        def measure(library):
            moved = [library.to_device(x) for x in operands]
            return time_device(library, lambda: self.op(library.xp, *moved), session.repeats(library))
        return measure_each(session, self.name, self.libraries, measure)


AT_LEAST_CUPY = Target(not_slower_than_cupy=True)

CASES = [
    # svd 1000² float64: at least 2.2x CuPy's gesvd (130.6 ms on an H100)
    SolverCase("svd 1000^2 f64", lambda xp, a: xp.linalg.svd(a), lambda: (general((1000, 1000)),),
               target=Target(max_share_of_cupy=1 / 2.2)),
    # stacked svd 1000 x (32x32): at least 1.5x CuPy (which loops over the stack)
    SolverCase("svd 1000x(32^2) f64", lambda xp, a: xp.linalg.svd(a), lambda: (general((1000, 32, 32)),),
               target=Target(max_share_of_cupy=1 / 1.5)),
    SolverCase("eigh 2000^2 f64", lambda xp, a: xp.linalg.eigh(a), lambda: (symmetric((2000, 2000)),),
               target=AT_LEAST_CUPY),
    SolverCase("inv 2000^2 f64", lambda xp, a: xp.linalg.inv(a), lambda: (general((2000, 2000)),),
               target=AT_LEAST_CUPY),
    SolverCase("solve 4096^2 x16 f64", lambda xp, a, b: xp.linalg.solve(a, b),
               lambda: (general((4096, 4096)), general((4096, 16), 1)), target=AT_LEAST_CUPY),
    SolverCase("solve 1000x(64^2) f64", lambda xp, a, b: xp.linalg.solve(a, b),
               lambda: (general((1000, 64, 64)), general((1000, 64, 1), 1)), target=AT_LEAST_CUPY),
    SolverCase("det 2000^2 f64", lambda xp, a: xp.linalg.det(a), lambda: (general((2000, 2000)),),
               target=AT_LEAST_CUPY),
    SolverCase("cholesky 4096^2 f64", lambda xp, a: xp.linalg.cholesky(a), lambda: (positive_definite((4096, 4096)),),
               target=AT_LEAST_CUPY),
    SolverCase("qr 2000^2 f64", lambda xp, a: xp.linalg.qr(a), lambda: (general((2000, 2000)),),
               target=AT_LEAST_CUPY),
    SolverCase("lstsq 4000x1000 f64", lambda xp, a, b: xp.linalg.lstsq(a, b, rcond=None),
               lambda: (general((4000, 1000)), general((4000,), 1)), target=AT_LEAST_CUPY),
]


# ---- the candidates of the routine table -------------------------------------------------------------

def _forced(operation, routine, function):
    def op(xp, a):
        force = xp._core.linalg.force_routine
        force(operation, routine)
        try:
            return function(xp, a)
        finally:
            force(operation, "")
    return op


def candidate_cases():
    """cuarray alone, every routine on every shape it can take: the numbers behind the table."""
    cases = []
    svd_shapes = [(1, 16, 16), (1000, 16, 16), (1000, 32, 32), (100, 64, 64), (1, 256, 256), (1, 512, 512),
                  (1, 1000, 1000), (1, 2000, 2000), (1, 4000, 1000)]
    limits = {"gesvdj_batched": 32, "jacobi_small": 64}  # the batched routines' largest matrices
    for shape in svd_shapes:
        for routine in ("gesvd", "gesvdj", "gesvdp", "gesvdj_batched", "jacobi_small"):
            if max(shape[1:]) > limits.get(routine, float("inf")):
                continue
            cases.append(SolverCase(f"svd {shape} {routine}", _forced("svd", routine, lambda xp, a: xp.linalg.svd(a)),
                                    lambda shape=shape: (general(shape if shape[0] > 1 else shape[1:]),),
                                    libraries=("cuarray",)))
    for shape in [(1000, 16, 16), (1000, 32, 32), (1000, 64, 64), (100, 128, 128), (10, 256, 256), (1, 2000, 2000)]:
        for routine in ("syevd", "syev_batched"):
            cases.append(SolverCase(f"eigh {shape} {routine}",
                                    _forced("eigh", routine, lambda xp, a: xp.linalg.eigh(a)),
                                    lambda shape=shape: (symmetric(shape if shape[0] > 1 else shape[1:]),),
                                    libraries=("cuarray",)))
    for shape in [(1000, 16, 16), (1000, 64, 64), (100, 128, 128), (10, 256, 256), (2, 1024, 1024)]:
        for routine in ("getrf", "getrf_batched"):
            if routine == "getrf_batched" and shape[-1] > 128:
                continue
            cases.append(SolverCase(f"inv {shape} {routine}", _forced("lu", routine, lambda xp, a: xp.linalg.inv(a)),
                                    lambda shape=shape: (general(shape),), libraries=("cuarray",)))
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="linalg solver benchmarks")
    parser.add_argument("--candidates", action="store_true", help="time every routine of the choice table (cuarray)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    libraries, missing = load_libraries(["cuarray"] if args.candidates else list(LIBRARIES))
    for name, why in missing.items():
        print(f"{name} not used: {why}", file=sys.stderr)
    session = Session(libraries, quick=args.quick)
    for case in candidate_cases() if args.candidates else CASES:
        for result in case.run(session):
            shown = f"{result.ms:10.3f} ms" if result.ms is not None else f"error: {result.error}"
            print(f"{case.name:40s} {result.library:8s} {shown}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
