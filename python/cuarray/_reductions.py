"""NumPy's reductions (functions and ndarray methods) over the C++ reduction engine."""
import numpy as _np

from . import _core
from ._core import ndarray
from ._creation import asarray


def _finish(result, out):
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if out.shape != result.shape:
        raise ValueError(f"output parameter for reduction has the wrong shape {out.shape}; expected {result.shape}")
    out[...] = result
    return out


def _unsupported(**kwargs):
    for name, value in kwargs.items():
        if value is not None:
            raise NotImplementedError(f"{name}= is not supported yet for reductions")


def _reduction(name, doc):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
        _unsupported(initial=initial, where=where)
        return _finish(_core.reduce(name, asarray(a), axis, dtype, bool(keepdims), 0.0), out)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


sum = _reduction("sum", "Sum of array elements over the given axes (int64/uint64 for integers).")
prod = _reduction("prod", "Product of array elements over the given axes.")
nansum = _reduction("nansum", "Sum treating NaN as zero.")
nanprod = _reduction("nanprod", "Product treating NaN as one.")


def _extremum(name, doc):
    def reduce(a, axis=None, out=None, keepdims=False, initial=None, where=None):
        _unsupported(initial=initial, where=where)
        return _finish(_core.reduce(name, asarray(a), axis, None, bool(keepdims), 0.0), out)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


min = amin = _extremum("min", "Minimum along the given axes (NaN propagates).")
max = amax = _extremum("max", "Maximum along the given axes (NaN propagates).")
nanmin = _extremum("nanmin", "Minimum ignoring NaN (an all-NaN slice gives NaN).")
nanmax = _extremum("nanmax", "Maximum ignoring NaN (an all-NaN slice gives NaN).")


def _mean(name, doc):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
        _unsupported(where=where)
        return _finish(_core.reduce(name, asarray(a), axis, dtype, bool(keepdims), 0.0), out)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


mean = _mean("mean", "Arithmetic mean (float64 for integer input).")
nanmean = _mean("nanmean", "Mean of the elements that are not NaN.")


def _moment(name, doc):
    def reduce(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
               correction=None):
        _unsupported(where=where, mean=mean)
        if correction is not None:
            if ddof != 0:
                raise ValueError("ddof and correction can't be provided simultaneously.")
            ddof = correction
        return _finish(_core.reduce(name, asarray(a), axis, dtype, bool(keepdims), float(ddof)), out)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


var = _moment("var", "Variance in one pass (Welford/Chan merges), ddof= as NumPy.")
std = _moment("std", "Standard deviation in one pass, ddof= as NumPy.")
nanvar = _moment("nanvar", "Variance of the elements that are not NaN.")
nanstd = _moment("nanstd", "Standard deviation of the elements that are not NaN.")


def _arg(name, doc):
    def reduce(a, axis=None, out=None, *, keepdims=False):
        if axis is not None and not isinstance(axis, (int, _np.integer)):
            raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
        return _finish(_core.reduce(name, asarray(a), axis, None, bool(keepdims), 0.0), out)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


argmin = _arg("argmin", "Index of the first minimum (flattened C order when axis is None).")
argmax = _arg("argmax", "Index of the first maximum (flattened C order when axis is None).")
nanargmin = _arg("nanargmin", "argmin ignoring NaN; an all-NaN slice raises ValueError.")
nanargmax = _arg("nanargmax", "argmax ignoring NaN; an all-NaN slice raises ValueError.")


def _logical(name, doc):
    def reduce(a, axis=None, out=None, keepdims=False, *, where=None):
        _unsupported(where=where)
        return _finish(_core.reduce(name, asarray(a), axis, None, bool(keepdims), 0.0), out)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


any = _logical("any", "Whether any element along the axes is true (nonzero; NaN counts).")
all = _logical("all", "Whether every element along the axes is true.")


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of nonzero elements (int64)."""
    return _core.reduce("count_nonzero", asarray(a), axis, None, bool(keepdims), 0.0)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (max - min) along the axes."""
    a = asarray(a)
    return _finish(max(a, axis, keepdims=keepdims) - min(a, axis, keepdims=keepdims), out)


# The methods NumPy's ndarray has for these reductions (sum, prod and mean are C++ methods).
_METHODS = {"var": var, "std": std, "min": min, "max": max,
            "argmin": argmin, "argmax": argmax, "any": any, "all": all, "ptp": ptp}
for _name, _fn in _METHODS.items():
    setattr(ndarray, _name, _fn)

__all__ = ["sum", "prod", "nansum", "nanprod", "min", "amin", "max", "amax", "nanmin", "nanmax", "mean",
           "nanmean", "var", "std", "nanvar", "nanstd", "argmin", "argmax", "nanargmin", "nanargmax", "any",
           "all", "count_nonzero", "ptp"]
