"""NumPy's remaining functions (issue 17): isclose of 1e8 float32 pairs as a share of the copy
bandwidth (one fused pass: 2 x 4 bytes read, 1 byte written per element), convolve of 1e6 with
1e3 float64 (full mode; each library's own choice of method: the FFT in both) and interp of 1e7
float64 points on a sorted table of 1e4, cuarray vs CuPy (vs NumPy where it finishes in seconds).
The crossover cases time cuarray's two convolve methods, forced, around the cost model's crossover
for n = 1e6 (_math/signal.py: m = 46 float64, 8 float32): where the faster one is not the one the model
picks, its constants need the measured rates. The block cases time the FFT method's block lengths
at 1e6 * 1e3 float64: the model's choice, the whole-array transform and fixed 2^k blocks; where
another beats the model's, _signal_fft's transform passes need refitting."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .harness import Session, measure_each, random_host
from .op_case import Input, OpCase
from .results import Result, Target

N_ISCLOSE = 100_000_000
N_SIGNAL, N_KERNEL = 1_000_000, 1_000
N_POINTS, N_TABLE = 10_000_000, 10_000


@dataclass(frozen=True)
class InterpCase(OpCase):
    """interp(x, xp, fp): x uniform in [0, 1), xp a sorted random table (sorted once, untimed)."""

    def run(self, session: Session) -> list[Result]:
        def measure(library):
            x = library.to_device(random_host((N_POINTS,), "float64", 0))
            xp = library.to_device(np.sort(random_host((N_TABLE,), "float64", 1)))
            fp = library.to_device(random_host((N_TABLE,), "float64", 2))
            return self.timer(library, lambda: library.xp.interp(x, xp, fp), session.repeats(library))
        return measure_each(session, self.name, self.libraries, measure)


CASES = [
    OpCase("numpy_functions isclose 1e8 float32", lambda xp, a, b: xp.isclose(a, b),
           (Input((N_ISCLOSE,), "float32", 0), Input((N_ISCLOSE,), "float32", 1)), bytes_moved=9 * N_ISCLOSE,
           target=Target(min_copy_share=0.95)),
    OpCase("numpy_functions convolve 1e6 * 1e3 float64", lambda xp, a, v: xp.convolve(a, v),
           (Input((N_SIGNAL,), "float64", 0), Input((N_KERNEL,), "float64", 1)),
           target=Target(not_slower_than_cupy=True), libraries=("cuarray", "cupy")),
    InterpCase("numpy_functions interp 1e7 points, 1e4 table", None, bytes_moved=16 * N_POINTS,
               target=Target(not_slower_than_cupy=True)),
]


def _forced(method, block=None):
    from cuarray._math.signal import _convolve  # cuarray's own: these cases run it alone
    return lambda xp, a, v: _convolve(a, v, "full", method, block)


CASES += [OpCase(f"numpy_functions convolve crossover 1e6 * {m} {dtype} {method}", _forced(method),
                 (Input((N_SIGNAL,), dtype, 0), Input((m,), dtype, 1)), libraries=("cuarray",))
          for dtype, taps in (("float64", (16, 32, 64, 128, 256, 512)), ("float32", (8, 16, 32, 128, 256, 512, 1024)))
          for m in taps for method in ("direct", "fft")]

_WHOLE = 1_003_520  # _signal_fft.fast_length(N_SIGNAL + N_KERNEL - 1): one block, the whole-array transform
CASES += [OpCase(f"numpy_functions convolve blocks 1e6 * 1e3 float64 block {block or 'model'}",
                 _forced("fft", block), (Input((N_SIGNAL,), "float64", 0), Input((N_KERNEL,), "float64", 1)),
                 libraries=("cuarray",))
          for block in (None, _WHOLE, 4096, 8192, 16384, 32768, 65536)]
