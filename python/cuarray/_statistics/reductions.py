"""NumPy's reductions (functions, and the ndarray methods not bound in C++) over the C++ engine.

Each function keeps NumPy's exact signature (positional order matters) and hands its arguments to
the reduction found once by name (cuarray._core.reductions); the work, the dtype rules, out=,
where=, initial= and the errors are in C++ (src/ops/math/reductions.cpp, python/src/bind_reduction.cpp).
"""
import numpy as _np

from .. import _core
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import asarray

_R = _core.reductions
_SUM, _PROD, _NANSUM, _NANPROD = _R["sum"], _R["prod"], _R["nansum"], _R["nanprod"]
_MIN, _MAX, _NANMIN, _NANMAX = _R["min"], _R["max"], _R["nanmin"], _R["nanmax"]
_MEAN, _NANMEAN = _R["mean"], _R["nanmean"]
_VAR, _STD, _NANVAR, _NANSTD = _R["var"], _R["std"], _R["nanvar"], _R["nanstd"]
_ARGMIN, _ARGMAX, _NANARGMIN, _NANARGMAX = _R["argmin"], _R["argmax"], _R["nanargmin"], _R["nanargmax"]
_ANY, _ALL, _COUNT_NONZERO = _R["any"], _R["all"], _R["count_nonzero"]


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of array elements over the given axes (int64/uint64 for integers)."""
    return _SUM(asarray(a), axis, dtype, out, keepdims, 0.0, where, initial)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of array elements over the given axes."""
    return _PROD(asarray(a), axis, dtype, out, keepdims, 0.0, where, initial)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum treating NaN as zero."""
    return _NANSUM(asarray(a), axis, dtype, out, keepdims, 0.0, where, initial)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product treating NaN as one."""
    return _NANPROD(asarray(a), axis, dtype, out, keepdims, 0.0, where, initial)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum along the given axes (NaN propagates)."""
    return _MIN(asarray(a), axis, None, out, keepdims, 0.0, where, initial)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum along the given axes (NaN propagates)."""
    return _MAX(asarray(a), axis, None, out, keepdims, 0.0, where, initial)


amin, amax = min, max


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum ignoring NaN (an all-NaN slice gives NaN)."""
    return _NANMIN(asarray(a), axis, None, out, keepdims, 0.0, where, initial)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum ignoring NaN (an all-NaN slice gives NaN)."""
    return _NANMAX(asarray(a), axis, None, out, keepdims, 0.0, where, initial)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean (float64 for integer input)."""
    return _MEAN(asarray(a), axis, dtype, out, keepdims, 0.0, where)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean of the elements that are not NaN."""
    return _NANMEAN(asarray(a), axis, dtype, out, keepdims, 0.0, where)


def _ddof(ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _where_mask(where):
    """where= as a device bool array, or None for NumPy's default (True): for the two-pass form,
    which combines it with the NaN mask."""
    if where is True or where is _np.True_:
        return None
    if where is None or isinstance(where, (bool, _np.bool_, int)):
        return asarray(bool(where))  # NumPy: a Python scalar casts; None means False
    return asarray(where)


def _moments_about(mean, a, axis, dtype, out, ddof, keepdims, where, skip_nan, root):
    """var/std and their nan forms about a given mean (NumPy's mean=): sum(|a - mean|**2) / (n - ddof),
    as NumPy computes it (a second pass; the one-pass engine is for the usual case): the sum goes
    into out=, which is divided and (std) square-rooted in place."""
    a = asarray(a)
    d = _ufuncs.subtract(a, mean)
    squares = _ufuncs.multiply(d, _ufuncs.conjugate(d)).real if d.dtype.kind == "c" else _ufuncs.multiply(d, d)
    mask = _where_mask(where)
    if skip_nan and a.dtype.kind in "fc":
        present = _ufuncs.logical_not(_ufuncs.isnan(a))
        mask = present if mask is None else _ufuncs.logical_and(present, mask)
    if mask is None:
        mask = asarray(True)
    if dtype is None and a.dtype.kind in "biu":
        dtype = _np.float64
    total = _SUM(squares, axis, dtype, out, keepdims, 0.0, mask)
    count = _SUM(mask._broadcast_to(a.shape), axis, None, None, keepdims)
    result = _ufuncs.divide(total, _ufuncs.maximum(count - ddof, 0), out=total, casting="unsafe")
    if root:
        _ufuncs.sqrt(result, out=result)
    return result


def _moments(reduction, skip_nan, root, a, axis, dtype, out, ddof, keepdims, where, mean):
    """var/std/nanvar/nanstd: the one-pass engine, or the two-pass form about a given mean."""
    if mean is not None:
        return _moments_about(mean, a, axis, dtype, out, ddof, keepdims, where, skip_nan, root)
    return reduction(asarray(a), axis, dtype, out, keepdims, float(ddof), where)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Variance in one pass (Welford/Chan merges); ddof as NumPy."""
    return _moments(_VAR, False, False, a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Standard deviation in one pass; ddof as NumPy."""
    return _moments(_STD, False, True, a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Variance of the elements that are not NaN."""
    return _moments(_NANVAR, True, False, a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Standard deviation of the elements that are not NaN."""
    return _moments(_NANSTD, True, True, a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the first minimum (flattened C order when axis is None)."""
    return _ARGMIN(asarray(a), axis, None, out, keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first maximum (flattened C order when axis is None)."""
    return _ARGMAX(asarray(a), axis, None, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """argmin ignoring NaN; an all-NaN slice raises ValueError."""
    return _NANARGMIN(asarray(a), axis, None, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """argmax ignoring NaN; an all-NaN slice raises ValueError."""
    return _NANARGMAX(asarray(a), axis, None, out, keepdims)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element along the axes is true (nonzero; NaN counts)."""
    return _ANY(asarray(a), axis, None, out, keepdims, 0.0, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element along the axes is true."""
    return _ALL(asarray(a), axis, None, out, keepdims, 0.0, where)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of nonzero elements (int64)."""
    return _COUNT_NONZERO(asarray(a), axis, None, None, keepdims)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (max - min) along the axes: NumPy's max into out=, less the min."""
    a = asarray(a)
    return _ufuncs.subtract(_MAX(a, axis, None, out, keepdims), _MIN(a, axis, None, None, keepdims), out=out)


# ndarray methods beyond the C++ ones (sum, prod, mean, min, max, argmin, argmax, any, all).
for _method in (var, std, ptp):
    setattr(ndarray, _method.__name__, _method)

__all__ = ["sum", "prod", "nansum", "nanprod", "min", "amin", "max", "amax", "nanmin", "nanmax", "mean",
           "nanmean", "var", "std", "nanvar", "nanstd", "argmin", "argmax", "nanargmin", "nanargmax", "any",
           "all", "count_nonzero", "ptp"]
