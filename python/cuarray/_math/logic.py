"""NumPy's comparison functions over whole arrays: isclose, allclose, array_equal, array_equiv.

isclose is NumPy's own expression, fused (cuarray.fuse) into one elementwise kernel: one read of each
operand and one write of the bools, with the loops NumPy 2 picks for every step. The whole-array
answers stay on the device as 0-d bool arrays, as in CuPy: nothing waits for the GPU.
"""
import warnings

import numpy as _np

from .._statistics import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import asarray
from .._kernels.fuse import fuse

__all__ = ["isclose", "allclose", "array_equal", "array_equiv"]


_FUSED = {}


def _fused(equal_nan, y_dtype):
    """One fused kernel per (equal_nan, y's inexact dtype); each keeps its traced signatures."""
    key = (equal_nan, y_dtype)
    if key not in _FUSED:
        def close(x, y, atol, rtol):
            # NumPy's isclose: y is made inexact first (abs(MIN_INT) would overflow), which casts x.
            y = y.astype(y_dtype) if y_dtype is not None else y
            result = (_ufuncs.less_equal(abs(x - y), atol + rtol * abs(y)) & _ufuncs.isfinite(y)) | (x == y)
            if equal_nan:
                result = result | (_ufuncs.isnan(x) & _ufuncs.isnan(y))
            return result
        _FUSED[key] = fuse(kernel_name="isclose")(close)
    return _FUSED[key]


def _operand(v):
    return v if isinstance(v, (int, float, complex, ndarray)) else asarray(v)


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Elementwise |a - b| <= atol + rtol * |b| (and a == b, for infinities), as numpy.isclose."""
    x, y, atol, rtol = (_operand(v) for v in (a, b, atol, rtol))
    y_dtype = None
    if isinstance(y, ndarray):
        y_dtype = _np.result_type(y.dtype, 1.)
        if y_dtype == y.dtype:
            y_dtype = None
    elif isinstance(y, int):
        y = float(y)
    if not isinstance(x, ndarray) and not isinstance(y, ndarray):
        x = asarray(x)  # at least one array operand reaches the kernel
    host_tolerances = [t for t in (atol, rtol) if not isinstance(t, ndarray)]
    if not all(_np.all(_np.isfinite(t)) for t in host_tolerances):
        message = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        mode = _np.geterr()["invalid"]
        if mode == "warn":
            warnings.warn(message, RuntimeWarning, stacklevel=2)
        elif mode == "raise":
            raise FloatingPointError(message)
        elif mode == "print":
            print(message)
    return _fused(bool(equal_nan), y_dtype)(x, y, atol, rtol)


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Whether every element is close (isclose), as a 0-d bool array (CuPy's return; no sync)."""
    return _reductions.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _false():
    return asarray(False)


def array_equal(a1, a2, equal_nan=False):
    """Same shape and elements (NaNs equal with equal_nan), as a 0-d bool array."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:  # NumPy answers False for what it cannot make an array of
        return _false()
    if a1.shape != a2.shape:
        return _false()
    if not equal_nan or (a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc"):
        return _reductions.all(_ufuncs.equal(a1, a2))
    # Equal, or NaN in both (NumPy: the NaN masks agree and the rest are equal).
    return _reductions.all(_ufuncs.equal(a1, a2) | (_ufuncs.isnan(a1) & _ufuncs.isnan(a2)))


def array_equiv(a1, a2):
    """Shapes broadcast and all elements equal, as a 0-d bool array."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
        _np.broadcast_shapes(a1.shape, a2.shape)
    except Exception:
        return _false()
    return _reductions.all(_ufuncs.equal(a1, a2))
