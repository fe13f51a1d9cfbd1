"""Sorting, searching and order statistics: NumPy's signatures over the C++ radix sort.

Every sort is stable (NumPy's kind='stable' contract for every kind), NaNs sort last, -0.0 ties
with 0.0, complex values sort by real then imaginary part. partition/argpartition are full sorts
(which satisfy their contract). The quantile family sorts the reduced axes and reads NumPy's
method indices from the sorted rows (src/kernels/order_stats.cuh); argument checks, dtype rules
and error messages are NumPy's and live here.
"""
import operator

import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray, asnumpy

_SORT_KINDS = ("quicksort", "mergesort", "heapsort", "stable")
# numpy.quantile's methods (numpy/lib/_function_base_impl.py, _QuantileMethods).
_QUANTILE_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                     "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
                     "midpoint", "nearest")
_DISCRETE_METHODS = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")


def _check_sort_args(kind, order, stable):
    if stable is not None and kind is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. Use only one of them.")
    if kind is not None and kind not in _SORT_KINDS:
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def _sort_axis(axis):
    return None if axis is None else operator.index(axis)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Sorted copy of an array (stable for every kind; axis=None sorts the flattened array);
    descending=True is the Array API standard's order, ties still in input order."""
    _check_sort_args(kind, order, stable)
    a, axis = asarray(a), _sort_axis(axis)
    if not descending or a.ndim == 0:  # (one element: both orders agree, and so do NumPy's 0-d rules)
        return _core.sort(a, axis)
    a, axis = _descending_operand(a, axis)
    return _core.flip(_core.sort(a, axis), [axis])


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """int64 indices that sort the array along an axis (stable: ties keep their input order),
    largest first with descending=True (the Array API standard's keyword)."""
    _check_sort_args(kind, order, stable)
    a, axis = asarray(a), _sort_axis(axis)
    if not descending or a.ndim == 0:
        return _core.argsort(a, axis)
    a, axis = _descending_operand(a, axis)
    # The stable ascending order of the reversed axis, reversed, is the stable descending order
    # of the reversed positions.
    return (a.shape[axis] - 1) - _core.flip(_core.argsort(a, axis), [axis])


def _descending_operand(a, axis):
    """The array a descending sort sorts ascending (the sort axis reversed), and that axis."""
    if axis is None:
        a, axis = a.reshape(-1), 0
    if not -a.ndim <= axis < a.ndim:
        raise _np.exceptions.AxisError(axis, a.ndim)
    axis %= a.ndim
    return _core.flip(a, [axis]), axis


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    """Sort the array in place."""
    _check_sort_args(kind, order, stable)
    self[...] = _core.sort(self, operator.index(axis))


def _argsort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    return argsort(self, axis, kind, order, stable=stable)


def lexsort(keys, axis=-1):
    """Indices sorting by the last key, ties broken by the key before it, and so on."""
    if isinstance(keys, ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [asarray(k) for k in keys]
    return _core.lexsort(keys, operator.index(axis))


def _check_kth(a, kth, axis, kind, order):
    if kind != "introselect":
        raise ValueError(f"partition kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is None:
        n = a.size
    else:
        if a.ndim == 0:
            raise _np.exceptions.AxisError(axis, 0)
        n = a.shape[_normalize_axis(axis, a.ndim)]
    kths = _np.asarray(kth)
    if kths.dtype.kind not in "iub":
        raise TypeError("Partition index must be integer")
    if kths.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    for k in kths.ravel().tolist():
        if not -n <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")


def _normalize_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy with the kth elements in their sorted places, smaller before, larger after (here: sorted)."""
    a = asarray(a)
    _check_kth(a, kth, axis, kind, order)
    return _core.sort(a, _sort_axis(axis))


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition the array (here: that sort it, which partitions for every kth)."""
    a = asarray(a)
    _check_kth(a, kth, axis, kind, order)
    return _core.argsort(a, _sort_axis(axis))


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    """Partition the array in place."""
    _check_kth(self, kth, axis, kind, order)
    self[...] = _core.sort(self, operator.index(axis))


def _argpartition_method(self, kth, axis=-1, kind="introselect", order=None):
    return argpartition(self, kth, axis, kind, order)


def sort_complex(a):
    """Sort by real part, then imaginary part; the result is complex (NumPy's dtype rule)."""
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    return b.astype(_np.complex64 if b.dtype.char in "bhBH" else _np.complex128)


def searchsorted(a, v, side="left", sorter=None):
    """Indices where v's elements would be inserted into the sorted 1-D a to keep it sorted."""
    a = asarray(a)
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    if a.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")
    if isinstance(v, (bool, int, float, complex)):
        # NumPy's searchsorted types a Python scalar by its value (300 with int8 compares as int16).
        common = _np.result_type(a.dtype, _np.min_scalar_type(v))
    else:
        v = asarray(v)
        common = _np.result_type(a.dtype, v.dtype)
    va = asarray(v, dtype=common) if not isinstance(v, ndarray) else v.astype(common, copy=False)
    if sorter is not None:
        sorter = asarray(sorter)
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must be an array of integers")
    return _core.searchsorted(a.astype(common, copy=False), va, side == "right", sorter)


def _searchsorted_method(self, v, side="left", sorter=None):
    return searchsorted(self, v, side, sorter)


# --------------------------------------------------------------------------------------------------
# order statistics


def _quantile_dtype(a_dtype, q_host, weak_q, method):
    """NumPy's result dtype: discrete methods take an element; interpolation promotes with the
    quantiles' dtype (a Python float q is weak); the median is a mean."""
    if method == "median":
        return _np.dtype(_np.float64) if a_dtype.kind in "biu" else a_dtype
    if method in _DISCRETE_METHODS:
        return a_dtype
    if a_dtype.kind == "b":
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                        "the `^` operator, or the logical_xor function instead.")
    if weak_q:
        return _np.result_type(a_dtype, 0.5)
    return _np.result_type(a_dtype, q_host.dtype)


def _order_statistic(a, q, axis, out, keepdims, method, skip_nan, percent=False):
    a = asarray(a)
    weak_q = type(q) in (int, float)
    q_host = asnumpy(q) if isinstance(q, ndarray) else _np.asanyarray(q)
    if method != "median":
        if method not in _QUANTILE_METHODS:
            raise ValueError(f"{method!r} is not a valid method. Use one of: {_QUANTILE_METHODS}")
        if a.dtype.kind == "c":
            raise TypeError("a must be an array of real numbers")
        if percent:
            q_host = _np.true_divide(q_host, 100)
        if q_host.dtype.kind not in "iufb":
            raise TypeError(f"q must be real numbers, got {q_host.dtype}")
        if q_host.size and not (q_host.min() >= 0 and q_host.max() <= 1):
            raise ValueError("Percentiles must be in the range [0, 100]" if percent
                             else "Quantiles must be in the range [0, 1]")
        if method == "linear" and q_host.dtype.kind in "iub":
            method = "lower"  # integer virtual indexes: NumPy takes the elements
    out_dtype = _quantile_dtype(a.dtype, q_host, weak_q, method)
    skip_nan = skip_nan and a.dtype.kind in "fc"
    result = _core.quantile(a, asarray(_np.asarray(q_host, dtype=_np.float64)), axis, method, skip_nan, out_dtype)
    if keepdims:
        axes = range(a.ndim) if axis is None else axis if isinstance(axis, tuple) else (axis,)
        axes = {operator.index(ax) % a.ndim for ax in axes} if a.ndim else set()
        kept = tuple(1 if d in axes else s for d, s in enumerate(a.shape))
        result = result.reshape(q_host.shape + kept)
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    out[...] = result
    return out


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
             interpolation=None):
    """q-th quantiles (q in [0, 1]) along the axes; result shape q.shape + the kept dims."""
    _no_weights(weights, interpolation)
    return _order_statistic(a, q, axis, out, keepdims, method, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
               interpolation=None):
    """q-th percentiles (q in [0, 100]) along the axes."""
    _no_weights(weights, interpolation)
    return _order_statistic(a, q, axis, out, keepdims, method, False, percent=True)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
                interpolation=None):
    """quantile ignoring NaNs (an all-NaN slice gives NaN)."""
    _no_weights(weights, interpolation)
    return _order_statistic(a, q, axis, out, keepdims, method, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None, interpolation=None):
    """percentile ignoring NaNs (an all-NaN slice gives NaN)."""
    _no_weights(weights, interpolation)
    return _order_statistic(a, q, axis, out, keepdims, method, True, percent=True)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median along the axes: the mean of the middle elements (NaN where a slice holds a NaN)."""
    return _order_statistic(a, 0.5, axis, out, keepdims, "median", False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median ignoring NaNs (an all-NaN slice gives NaN)."""
    return _order_statistic(a, 0.5, axis, out, keepdims, "median", True)


def _no_weights(weights, interpolation):
    if weights is not None:
        raise NotImplementedError("weights= is not supported yet for quantiles")
    if interpolation is not None:
        raise TypeError("the 'interpolation' argument was removed in NumPy 2.4; use 'method'")


ndarray.sort = _sort_method
ndarray.argsort = _argsort_method
ndarray.partition = _partition_method
ndarray.argpartition = _argpartition_method
ndarray.searchsorted = _searchsorted_method

__all__ = ["sort", "argsort", "lexsort", "partition", "argpartition", "sort_complex", "searchsorted", "quantile",
           "percentile", "nanquantile", "nanpercentile", "median", "nanmedian"]
