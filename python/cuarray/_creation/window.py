"""NumPy's window functions: bartlett, blackman, hamming, hanning, kaiser, each NumPy's formula
over arange(1 - M, M, 2) (float64) evaluated on the device."""
import math

import numpy as _np

from .._ufunc import ufuncs as _ufuncs
from .creation import arange, empty, ones
from .._math.functions import where as _where

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _points(M):
    """n = arange(1 - M, M, 2) in float64, or the trivial windows of length < 2 (None)."""
    if M < 1:
        return empty((0,), _np.float64)
    if M == 1:
        return ones((1,), _np.float64)
    return None


def _grid(M):
    return arange(1 - M, M, 2, dtype=_np.float64)


def bartlett(M):
    """The triangular Bartlett window."""
    trivial = _points(M)
    if trivial is not None:
        return trivial
    n = _grid(M)
    return _where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def _cosine_sum(M, coefficients):
    """sum of a_k cos(k pi n / (M - 1)) over n = arange(1 - M, M, 2), added in NumPy's order: its
    Blackman, Hamming and Hann windows, to the last bit."""
    trivial = _points(M)
    if trivial is not None:
        return trivial
    n = _grid(M)
    window = coefficients[0]
    for k, a in enumerate(coefficients[1:], start=1):
        window = window + a * _ufuncs.cos(k * math.pi * n / (M - 1))
    return window


def blackman(M):
    """The Blackman window: 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))."""
    return _cosine_sum(M, (0.42, 0.5, 0.08))


def hamming(M):
    """The Hamming window: 0.54 + 0.46 cos(pi n / (M - 1))."""
    return _cosine_sum(M, (0.54, 0.46))


def hanning(M):
    """The Hann window: 0.5 + 0.5 cos(pi n / (M - 1))."""
    return _cosine_sum(M, (0.5, 0.5))


def kaiser(M, beta):
    """The Kaiser window: i0(beta sqrt(1 - (2 k / (M - 1) - 1)**2)) / i0(beta)."""
    from .._math.misc import i0
    if M == 1:
        return ones((1,), _np.float64)
    n = arange(0, M, dtype=_np.float64)
    alpha = (M - 1) / 2.0
    return i0(beta * _ufuncs.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(_np.float64(beta))
