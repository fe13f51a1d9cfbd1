"""numpy.fft's helpers: sample frequencies and the zero-frequency shifts, composed from arange,
roll and a multiply exactly as NumPy composes them."""
import numpy as _np

from .._array.array_api import on_device as _on_device
from .._creation.creation import arange, asarray, empty
from .._manipulation.manipulation import roll

_integer_types = (int, _np.integer)


def fftshift(x, axes=None):
    """Zero frequency to the centre, as numpy.fft.fftshift."""
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [dim // 2 for dim in x.shape]
    elif isinstance(axes, _integer_types):
        shift = x.shape[axes] // 2
    else:
        shift = [x.shape[ax] // 2 for ax in axes]
    return roll(x, shift, axes)


def ifftshift(x, axes=None):
    """The inverse of fftshift, as numpy.fft.ifftshift."""
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [-(dim // 2) for dim in x.shape]
    elif isinstance(axes, _integer_types):
        shift = -(x.shape[axes] // 2)
    else:
        shift = [-(x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


def _frequency_dtype(dtype):
    """dtype= of the frequency functions (the Array API standard's): None or a real floating dtype,
    checked before any GPU work."""
    if dtype is not None and not _np.isdtype(_np.dtype(dtype), "real floating"):
        raise ValueError(f"dtype must be a real floating-point dtype, not {_np.dtype(dtype)}")
    return dtype


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies [0, 1, ..., -1] / (d * n), as numpy.fft.fftfreq (dtype=: the standard's)."""
    if not isinstance(n, _integer_types):
        raise ValueError("n should be an integer")
    dtype = _frequency_dtype(dtype)
    val = 1.0 / (n * d)
    with _on_device(device):
        results = empty(n, int)
        N = (n - 1) // 2 + 1
        results[:N] = arange(0, N, dtype=int)
        results[N:] = arange(-(n // 2), 0, dtype=int)
        results = results * val
        return results if dtype is None else results.astype(dtype, copy=False)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies [0, 1, ..., n // 2] / (d * n), as numpy.fft.rfftfreq (dtype=: the standard's)."""
    if not isinstance(n, _integer_types):
        raise ValueError("n should be an integer")
    dtype = _frequency_dtype(dtype)
    val = 1.0 / (n * d)
    with _on_device(device):
        N = n // 2 + 1
        results = arange(0, N, dtype=int) * val
        return results if dtype is None else results.astype(dtype, copy=False)

