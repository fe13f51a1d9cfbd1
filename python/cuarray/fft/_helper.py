"""numpy.fft's helpers: sample frequencies and the zero-frequency shifts, composed from arange,
roll and a multiply exactly as NumPy composes them."""
import numpy as _np

from .._array_api import on_device as _on_device
from .._creation import arange, asarray, empty
from .._manipulation import roll

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


def fftfreq(n, d=1.0, device=None):
    """Sample frequencies [0, 1, ..., -1] / (d * n), as numpy.fft.fftfreq."""
    if not isinstance(n, _integer_types):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    with _on_device(device):
        results = empty(n, int)
        N = (n - 1) // 2 + 1
        results[:N] = arange(0, N, dtype=int)
        results[N:] = arange(-(n // 2), 0, dtype=int)
        return results * val


def rfftfreq(n, d=1.0, device=None):
    """Sample frequencies [0, 1, ..., n // 2] / (d * n), as numpy.fft.rfftfreq."""
    if not isinstance(n, _integer_types):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    with _on_device(device):
        N = n // 2 + 1
        return arange(0, N, dtype=int) * val

