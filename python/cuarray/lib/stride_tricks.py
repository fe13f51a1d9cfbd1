"""numpy.lib.stride_tricks on device arrays: as_strided and sliding_window_view (views, no copy), and
broadcast_to / broadcast_arrays.

Unlike NumPy's as_strided, a view that would reach outside the array's allocation raises ValueError
(the check ndarray(memptr=..., strides=...) makes): such a view could read or write another array's
memory. Views that overlap themselves (a zero or small stride) are allowed, as in NumPy; writing
through them writes each memory location once per element that maps to it, in no set order.
"""
import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple

from .. import _core
from .._creation.creation import asarray
from .._math.functions import broadcast_to
from .._manipulation.manipulation import broadcast_arrays

__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of x's memory, from its first element, with the given shape and byte strides (x's own
    where not given), as numpy.lib.stride_tricks.as_strided and CuPy's."""
    x = asarray(x)
    shape = x.shape if shape is None else tuple(shape)
    strides = x.strides if strides is None else tuple(strides)
    if len(shape) != len(strides):
        raise ValueError(f"mismatch in length of strides and shape: {len(strides)} != {len(shape)}")
    return _core.strided_view(x, shape, strides)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of window_shape over the given axes (all of them by default) as a view, with the
    window's axes last, as numpy.lib.stride_tricks.sliding_window_view. The view is writable (cuarray
    arrays have no read-only flag)."""
    window_shape = tuple(window_shape) if _np.iterable(window_shape) else (window_shape,)
    x = asarray(x)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        axis = normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                             f"window_shape elements and {len(axis)} axes elements.")
    trimmed = list(x.shape)
    for ax, w in zip(axis, window_shape):
        if trimmed[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[ax] -= w - 1
    return as_strided(x, shape=tuple(trimmed) + window_shape,
                      strides=x.strides + tuple(x.strides[ax] for ax in axis))
