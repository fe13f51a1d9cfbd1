"""numpy.random.RandomState (the legacy API) over a Philox4x32-10 stream, as CuPy's RandomState."""
import warnings

import numpy as _np

from .. import _core
from ._arguments import float_dtype, fresh_key, normalize_size, seed_key
from ._composites import LegacyComposites
from ._distributions import Distributions

_STATE_NAME = "Philox4x32-10"


class RandomState(Distributions, LegacyComposites):
    """NumPy's legacy RandomState: float64 results, int64 integers, NumPy's parameter checks.

    The stream is Philox4x32-10 keyed by the seed (not NumPy's MT19937), so values differ from
    NumPy's for a seed, as CuPy's do; they follow the same distributions.
    """

    def __init__(self, seed=None):
        self._stream = _core.PhiloxStream(fresh_key() if seed is None else seed_key(seed), True)

    @classmethod
    def _from_stream(cls, stream):
        rs = cls.__new__(cls)
        rs._stream = stream
        return rs

    def seed(self, seed=None):
        """Reseeds the stream: an int (the Philox key), a sequence of ints, or None (from the OS)."""
        self._stream.set_state(fresh_key() if seed is None else seed_key(seed), 0)

    def get_state(self, legacy=True):
        """('Philox4x32-10', seed, offset): the whole state of the counter-based stream."""
        return (_STATE_NAME, self._stream.seed, self._stream.offset)

    def set_state(self, state):
        if isinstance(state, dict):
            state = (state.get("bit_generator"), state.get("seed"), state.get("offset"))
        if not (isinstance(state, tuple) and len(state) == 3 and state[0] == _STATE_NAME):
            name = state[0] if isinstance(state, tuple) and state else type(state).__name__
            raise ValueError(f"cuarray's RandomState holds a {_STATE_NAME} stream (seed, offset) and cannot take "
                             f"the state of {name!r}: use a state from its get_state()")
        self._stream.set_state(int(state[1]), int(state[2]))

    def __getstate__(self):
        return self.get_state()

    def __setstate__(self, state):
        self._stream = _core.PhiloxStream(0, True)
        self.set_state(state)

    # ---- uniform floats and integers ----
    # dtype= (float32 generated natively) is CuPy's extension of these signatures.
    def random_sample(self, size=None, dtype=float):
        return self._stream.random(normalize_size(size) or (), float_dtype(dtype, "random_sample"))

    random = random_sample

    def rand(self, *args, dtype=float):
        return self.random_sample(args, dtype)

    def randn(self, *args, dtype=float):
        return self.standard_normal(args, dtype)

    def randint(self, low, high=None, size=None, dtype=int):
        return self._integers(low, high, size, dtype, False, "randint")

    def random_integers(self, low, high=None, size=None):
        if high is None:
            warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) instead".format(low=low),
                          DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) instead".format(
                low=low, high=high), DeprecationWarning, stacklevel=2)
        return self._integers(low, high + 1, size, int, False, "randint")

    def tomaxint(self, size=None):
        return self._integers(0, _np.iinfo(_np.int64).max, size, _np.int64, True, "randint")

    # ---- the standard distributions (float64) ----
    def standard_normal(self, size=None, dtype=float):
        return self._stream.standard_normal(normalize_size(size) or (), float_dtype(dtype, "standard_normal"))

    def standard_exponential(self, size=None):
        return self._stream.standard_exponential(normalize_size(size) or (), _np.float64)

    def standard_gamma(self, shape, size=None):
        return self._sample("standard_gamma", (shape,), size)

    # CuPy's RandomState takes dtype= here too (float32 drawn natively for scalar parameters).
    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        return self._sample("uniform", (low, high), size, float_dtype(dtype, "uniform"))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._sample("normal", (loc, scale), size, float_dtype(dtype, "normal"))
