"""FFT (issue 16), cuarray vs CuPy vs NumPy: the issue's cases with its targets. Inputs are made on
the host, moved to each device once, and every library runs its own plan cache warm (the harness's
warm-up call makes the plan).

    python -m benchmarks.run --only fft
"""
from __future__ import annotations

import numpy as np

from .linalg_solvers import SolverCase as DeviceCase  # op(xp, *operands) on host-made operands
from .results import Target


def normal(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


AT_LEAST_CUPY = Target(not_slower_than_cupy=True)


def _irfftn_round_trip(xp, a):
    axes = tuple(range(a.ndim))  # NumPy 2 deprecates s without axes
    return xp.fft.irfftn(xp.fft.rfftn(a, axes=axes), s=a.shape, axes=axes)


CASES = [
    DeviceCase("fft 2^24 c128", lambda xp, a: xp.fft.fft(a), lambda: (normal(2 ** 24, np.complex128),),
               target=AT_LEAST_CUPY),
    # real input: R2C and the Hermitian fill, where CuPy casts to complex and runs C2C
    DeviceCase("fft 2^24 f64 (real input)", lambda xp, a: xp.fft.fft(a), lambda: (normal(2 ** 24, np.float64),),
               target=Target(max_share_of_cupy=1 / 1.5)),
    DeviceCase("rfft2 4096^2 f32", lambda xp, a: xp.fft.rfft2(a), lambda: (normal((4096, 4096), np.float32),),
               target=AT_LEAST_CUPY),
    DeviceCase("fft axis=1 4096^2 c64", lambda xp, a: xp.fft.fft(a, axis=1),
               lambda: (normal((4096, 4096), np.complex64),), target=AT_LEAST_CUPY),
    # strided layout (istride 4096, idist 1), where CuPy copies to put the axis last
    DeviceCase("fft axis=0 4096^2 c64", lambda xp, a: xp.fft.fft(a, axis=0),
               lambda: (normal((4096, 4096), np.complex64),), target=AT_LEAST_CUPY),
    DeviceCase("fftn 256^3 c64", lambda xp, a: xp.fft.fftn(a), lambda: (normal((256, 256, 256), np.complex64),),
               target=AT_LEAST_CUPY),
    DeviceCase("irfftn(rfftn) 256^3 f32", _irfftn_round_trip, lambda: (normal((256, 256, 256), np.float32),),
               target=AT_LEAST_CUPY),
]

