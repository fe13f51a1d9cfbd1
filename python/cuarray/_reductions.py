"""NumPy's reductions (functions, and the ndarray methods not bound in C++) over the C++ engine.

Each function keeps NumPy's exact signature (positional order matters) and forwards to
`_reduce`; the work, dtype rules and errors are in src/ops/reductions.cpp.
"""
import operator

from . import _core
from ._core import ndarray
from ._creation import asarray


def _reduce(name, a, axis=None, dtype=None, out=None, keepdims=False, ddof=0.0, **unsupported):
    for key, value in unsupported.items():
        if value is not None:
            raise NotImplementedError(f"{key}= is not supported yet for reductions")
    result = _core.reduce(name, asarray(a), axis, dtype, bool(keepdims), float(ddof))
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if out.shape != result.shape:
        raise ValueError(f"output parameter for reduction has the wrong shape {out.shape}; expected {result.shape}")
    out[...] = result
    return out


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Sum of array elements over the given axes (int64/uint64 for integers)."""
    return _reduce("sum", a, axis, dtype, out, keepdims, initial=initial, where=where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product of array elements over the given axes."""
    return _reduce("prod", a, axis, dtype, out, keepdims, initial=initial, where=where)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Sum treating NaN as zero."""
    return _reduce("nansum", a, axis, dtype, out, keepdims, initial=initial, where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product treating NaN as one."""
    return _reduce("nanprod", a, axis, dtype, out, keepdims, initial=initial, where=where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Minimum along the given axes (NaN propagates)."""
    return _reduce("min", a, axis, None, out, keepdims, initial=initial, where=where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Maximum along the given axes (NaN propagates)."""
    return _reduce("max", a, axis, None, out, keepdims, initial=initial, where=where)


amin, amax = min, max


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Minimum ignoring NaN (an all-NaN slice gives NaN)."""
    return _reduce("nanmin", a, axis, None, out, keepdims, initial=initial, where=where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Maximum ignoring NaN (an all-NaN slice gives NaN)."""
    return _reduce("nanmax", a, axis, None, out, keepdims, initial=initial, where=where)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """Arithmetic mean (float64 for integer input)."""
    return _reduce("mean", a, axis, dtype, out, keepdims, where=where)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """Mean of the elements that are not NaN."""
    return _reduce("nanmean", a, axis, dtype, out, keepdims, where=where)


def _ddof(ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
    """Variance in one pass (Welford/Chan merges); ddof as NumPy."""
    return _reduce("var", a, axis, dtype, out, keepdims, _ddof(ddof, correction), where=where, mean=mean)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
    """Standard deviation in one pass; ddof as NumPy."""
    return _reduce("std", a, axis, dtype, out, keepdims, _ddof(ddof, correction), where=where, mean=mean)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
    """Variance of the elements that are not NaN."""
    return _reduce("nanvar", a, axis, dtype, out, keepdims, _ddof(ddof, correction), where=where, mean=mean)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
    """Standard deviation of the elements that are not NaN."""
    return _reduce("nanstd", a, axis, dtype, out, keepdims, _ddof(ddof, correction), where=where, mean=mean)


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


def any(a, axis=None, out=None, keepdims=False, *, where=None):
    """Whether any element along the axes is true (nonzero; NaN counts)."""
    return _reduce("any", a, axis, None, out, keepdims, where=where)


def all(a, axis=None, out=None, keepdims=False, *, where=None):
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
