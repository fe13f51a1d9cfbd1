"""NumPy's argument conventions for cuarray.random: sizes, distribution parameters, seeds."""
import operator

import numpy as _np

from .._core import ndarray as _ndarray

_UINT64 = (1 << 64) - 1


def normalize_size(size):
    """None, an int or a sequence of ints -> None or a tuple (NumPy's TypeError for floats)."""
    if size is None:
        return None
    if isinstance(size, (int, _np.integer)):
        return (operator.index(size),)
    return tuple(operator.index(d) for d in size)


def parameter(value):
    """A distribution parameter: a cuarray array or a host scalar stays; host arrays and lists
    move to the device once (as NumPy converts them with asarray)."""
    if isinstance(value, _ndarray):
        return value
    if isinstance(value, (bool, int, float, _np.generic)):
        return value.item() if isinstance(value, _np.generic) else value
    host = _np.asarray(value)
    if host.ndim == 0:
        return host.item()
    from .._creation.creation import asarray
    return asarray(host)


def seed_key(seed):
    """A 64-bit Philox key from NumPy's seed forms (None, int, sequence of ints, SeedSequence).

    An int in [0, 2**64) is the key itself (so RandomState(s) reproduces across processes and
    matches the C++ Generator(s)); anything else goes through NumPy's SeedSequence hashing.
    """
    import numpy.random as npr
    if isinstance(seed, npr.SeedSequence):
        return int(seed.generate_state(1, _np.uint64)[0])
    if isinstance(seed, (int, _np.integer)) and not isinstance(seed, bool):
        seed = int(seed)
        if seed < 0:
            raise ValueError("Seed must be non-negative")
        if seed <= _UINT64:
            return seed
    return int(npr.SeedSequence(seed).generate_state(1, _np.uint64)[0])


def fresh_key():
    from .. import _core
    return _core.fresh_seed()


def float_dtype(dtype, what):
    dtype = _np.dtype(dtype)
    if dtype not in (_np.float32, _np.float64):
        raise TypeError(f"Unsupported dtype {dtype!r} for {what}")
    return dtype


def into_out(values, out, size):
    """Generator's out=: NumPy's checks, then the values copied in."""
    if out is None:
        return values
    if size is not None and normalize_size(size) != out.shape:
        raise ValueError("size must match out.shape when used together")
    if out.dtype != values.dtype:
        raise TypeError(f"Supplied output array has the wrong type. Expected {values.dtype}, got {out.dtype}")
    out[...] = values
    return out
