"""cuarray.random: uniform random numbers from a counter-based Philox4x32-10 generator.

A given seed reproduces the same numbers; each call draws from an unused counter range, so
successive calls are independent. The rest of numpy.random arrives with a later issue.
"""
import numpy as _np

from .. import _core


def _size(size):
    if size is None:
        return ()
    return (size,) if isinstance(size, (int, _np.integer)) else tuple(size)


def _float_dtype(dtype):
    dtype = _np.dtype(dtype)
    if dtype not in (_np.float32, _np.float64):
        raise TypeError(f"Unsupported dtype {dtype.name!r} for random: use float32 or float64")
    return dtype


def seed(seed=None):
    """Reseeds the global generator (from the OS when seed is None)."""
    _core.seed(None if seed is None else int(seed) & 0xFFFFFFFFFFFFFFFF)


def random_sample(size=None, dtype=float):
    """Uniform floats in [0, 1)."""
    return _core.random(_size(size), _float_dtype(dtype))


random = random_sample
sample = random_sample
ranf = random_sample


def rand(*size, dtype=float):
    """rand(d0, d1, ...): uniform floats in [0, 1) of that shape."""
    return random_sample(size, dtype)


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    """Uniform floats in [low, high)."""
    u = random_sample(size, dtype)
    if isinstance(low, (int, float)) and isinstance(high, (int, float)) and (low, high) == (0.0, 1.0):
        return u
    return low + (high - low) * u


class Generator:
    """numpy.random.Generator's interface over a Philox stream (default_rng)."""

    def __init__(self, seed=None):
        self._bits = _core.PhiloxGenerator(_core.fresh_seed() if seed is None else int(seed) & 0xFFFFFFFFFFFFFFFF)

    def random(self, size=None, dtype=_np.float64, out=None):
        values = self._bits.random(_size(size) if out is None else out.shape, _float_dtype(dtype))
        if out is None:
            return values
        out[...] = values
        return out

    def uniform(self, low=0.0, high=1.0, size=None):
        return low + (high - low) * self.random(size)


def default_rng(seed=None):
    return seed if isinstance(seed, Generator) else Generator(seed)
