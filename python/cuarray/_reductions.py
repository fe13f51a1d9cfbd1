"""NumPy's reductions (functions, and the ndarray methods not bound in C++) over the C++ engine.

Each function keeps NumPy's exact signature (positional order matters) and forwards to
`_reduce`; the work, dtype rules and errors are in src/ops/math/reductions.cpp.
"""
import operator

import numpy as _np

from . import _core, _ufuncs
from ._core import ndarray
from ._creation import asarray


# The ufunc that folds initial= into a reduction's result.
_INITIAL_UFUNC = {"sum": "add", "nansum": "add", "prod": "multiply", "nanprod": "multiply", "min": "minimum",
                  "max": "maximum", "nanmin": "fmin", "nanmax": "fmax"}


def _where_mask(where):
    """where= as a bool array, or None for NumPy's default (True)."""
    if where is True or where is _np.True_:
        return None
    if where is None or isinstance(where, (bool, _np.bool_, int)):
        return asarray(bool(where))  # NumPy: a Python scalar casts; None means False
    return asarray(where)  # the engine raises TypeError for a non-bool array (NumPy's 'safe' rule)


def _initial_scalar(initial, dtype):
    """initial= converted to the reduction's result dtype as NumPy converts it."""
    dtype = _np.dtype(dtype)
    if dtype.kind in "iu":
        value = int(initial)  # NumPy truncates floats, then checks the range (OverflowError)
        info = _np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python integer {value} out of bounds for {dtype}")
        return dtype.type(value)
    return dtype.type(initial)


def _reduce(name, a, axis=None, dtype=None, out=None, keepdims=False, ddof=0.0, where=True, initial=None):
    a = asarray(a)
    result = _core.reduce(name, a, axis, dtype, bool(keepdims), float(ddof), _where_mask(where),
                          initial is not None)
    if initial is not None:
        getattr(_ufuncs, _INITIAL_UFUNC[name])(result, _initial_scalar(initial, result.dtype), out=result)
    return _reduce_out(result, out)


def _reduce_out(result, out):
    """out= of a reduction: the result copied into `out` (same shape), which is returned."""
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if out.shape != result.shape:
        raise ValueError(f"output parameter for reduction has the wrong shape {out.shape}; expected {result.shape}")
    out[...] = result
    return out


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of array elements over the given axes (int64/uint64 for integers)."""
    return _reduce("sum", a, axis, dtype, out, keepdims, where=where, initial=initial)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of array elements over the given axes."""
    return _reduce("prod", a, axis, dtype, out, keepdims, where=where, initial=initial)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum treating NaN as zero."""
    return _reduce("nansum", a, axis, dtype, out, keepdims, where=where, initial=initial)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product treating NaN as one."""
    return _reduce("nanprod", a, axis, dtype, out, keepdims, where=where, initial=initial)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum along the given axes (NaN propagates)."""
    return _reduce("min", a, axis, None, out, keepdims, where=where, initial=initial)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum along the given axes (NaN propagates)."""
    return _reduce("max", a, axis, None, out, keepdims, where=where, initial=initial)


amin, amax = min, max


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum ignoring NaN (an all-NaN slice gives NaN)."""
    return _reduce("nanmin", a, axis, None, out, keepdims, where=where, initial=initial)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum ignoring NaN (an all-NaN slice gives NaN)."""
    return _reduce("nanmax", a, axis, None, out, keepdims, where=where, initial=initial)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean (float64 for integer input)."""
    return _reduce("mean", a, axis, dtype, out, keepdims, where=where)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean of the elements that are not NaN."""
    return _reduce("nanmean", a, axis, dtype, out, keepdims, where=where)


def _ddof(ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _moments_about(mean, name, a, axis, dtype, out, ddof, keepdims, where):
    """var/std and their nan forms about a given mean (NumPy's mean=): sum(|a - mean|**2) / (n - ddof),
    as NumPy computes it (a second pass; the one-pass engine is for the usual case)."""
    a = asarray(a)
    d = _ufuncs.subtract(a, mean)
    squares = _ufuncs.multiply(d, _ufuncs.conjugate(d)).real if d.dtype.kind == "c" else _ufuncs.multiply(d, d)
    mask = _where_mask(where)
    if name.startswith("nan") and a.dtype.kind in "fc":
        present = _ufuncs.logical_not(_ufuncs.isnan(a))
        mask = present if mask is None else _ufuncs.logical_and(present, mask)
    if mask is None:
        mask = asarray(True)
    if dtype is None and a.dtype.kind in "biu":
        dtype = _np.float64
    total = _reduce("sum", squares, axis, dtype, None, keepdims, where=mask)
    count = _reduce("sum", mask._broadcast_to(a.shape), axis, None, None, keepdims)
    result = _ufuncs.divide(total, _ufuncs.maximum(count - ddof, 0), out=total, casting="unsafe")
    if name.endswith("std"):
        _ufuncs.sqrt(result, out=result)
    return _reduce_out(result, out)


def _moments(name, a, axis, dtype, out, ddof, keepdims, where, mean):
    """var/std/nanvar/nanstd: the one-pass engine, or the two-pass form about a given mean."""
    if mean is not None:
        return _moments_about(mean, name, a, axis, dtype, out, ddof, keepdims, where)
    return _reduce(name, a, axis, dtype, out, keepdims, ddof, where=where)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Variance in one pass (Welford/Chan merges); ddof as NumPy."""
    return _moments("var", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Standard deviation in one pass; ddof as NumPy."""
    return _moments("std", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Variance of the elements that are not NaN."""
    return _moments("nanvar", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Standard deviation of the elements that are not NaN."""
    return _moments("nanstd", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def _one_axis(axis):
    """The arg reductions take one integer axis (NumPy: TypeError for a tuple)."""
    return axis if axis is None else operator.index(axis)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the first minimum (flattened C order when axis is None)."""
    return _reduce("argmin", a, _one_axis(axis), None, out, keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first maximum (flattened C order when axis is None)."""
    return _reduce("argmax", a, _one_axis(axis), None, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """argmin ignoring NaN; an all-NaN slice raises ValueError."""
    return _reduce("nanargmin", a, _one_axis(axis), None, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """argmax ignoring NaN; an all-NaN slice raises ValueError."""
    return _reduce("nanargmax", a, _one_axis(axis), None, out, keepdims)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element along the axes is true (nonzero; NaN counts)."""
    return _reduce("any", a, axis, None, out, keepdims, where=where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element along the axes is true."""
    return _reduce("all", a, axis, None, out, keepdims, where=where)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of nonzero elements (int64)."""
    return _reduce("count_nonzero", a, axis, None, None, keepdims)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (max - min) along the axes."""
    a = asarray(a)
    result = max(a, axis, keepdims=keepdims) - min(a, axis, keepdims=keepdims)
    if out is not None:
        out[...] = result
        return out
    return result


# ndarray methods beyond the C++ ones (sum, prod, mean).
for _method in (var, std, min, max, argmin, argmax, any, all, ptp):
    setattr(ndarray, _method.__name__, _method)

__all__ = ["sum", "prod", "nansum", "nanprod", "min", "amin", "max", "amax", "nanmin", "nanmax", "mean",
           "nanmean", "var", "std", "nanvar", "nanstd", "argmin", "argmax", "nanargmin", "nanargmax", "any",
           "all", "count_nonzero", "ptp"]
