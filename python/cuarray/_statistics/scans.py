"""NumPy's cumulative functions over the C++ scan engine (src/ops/ufunc/accumulate.cpp): cumsum, cumprod,
nancumsum, nancumprod, cumulative_sum, cumulative_prod and ufunc.accumulate; diff and ediff1d
over slicing and the ufuncs, as NumPy writes them.

The dtype rules and the work are in C++; this module keeps NumPy's signatures and the argument
checks NumPy makes in Python (axis must be an integer, out= must be an array).
"""
import operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index

from .. import _core
from .._core import ndarray, ufunc
from .._creation.creation import asarray, empty
from .._ufunc.out import ufunc_out


def _axis(axis):
    """None or an integer axis (NumPy: TypeError for tuples and floats)."""
    return None if axis is None else operator.index(axis)


def _out(out):
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("output must be an array")
    return out


def _cumulative_function(name, a, axis, dtype, out):
    a, axis, out = asarray(a), _axis(axis), _out(out)
    rank = 1 if axis is None else a.ndim
    if out is not None and out.ndim > rank:
        # NumPy remaps out= to its first `rank` dims: a (24, 1) out takes a 24-element cumsum.
        _core.cumulative(name, a, axis, dtype, out[(slice(None),) * rank + (0,) * (out.ndim - rank)])
        return out
    return _core.cumulative(name, a, axis, dtype, out)


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (the flattened array when None); int64 for bool and narrow ints."""
    return _cumulative_function("cumsum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along `axis` (the flattened array when None)."""
    return _cumulative_function("cumprod", a, axis, dtype, out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum treating NaN as zero."""
    return _cumulative_function("nancumsum", a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product treating NaN as one."""
    return _cumulative_function("nancumprod", a, axis, dtype, out)


def _cumulative(name, identity, x, axis, dtype, out, include_initial):
    """NumPy 2.1's cumulative_sum/cumulative_prod: axis required above one dimension, and
    include_initial puts the identity before the scan."""
    x = asarray(x)
    if x.ndim == 0:
        x = x.reshape((1,))
    if axis is None:
        if x.ndim >= 2:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    if not include_initial:
        return _core.cumulative(name, x, axis, dtype, _out(out))
    before = [slice(None)] * x.ndim
    after = list(before)
    before[axis], after[axis] = 0, slice(1, None)
    if out is None:
        # The result dtype, from a scan of no elements (nothing runs).
        empty_view = x[tuple(slice(0, 0) if d == axis else slice(None) for d in range(x.ndim))]
        result_dtype = _core.cumulative(name, empty_view, axis, dtype, None).dtype
        shape = list(x.shape)
        shape[axis] += 1
        out = empty(tuple(shape), dtype=result_dtype)
    else:
        _out(out)
        expected = x.shape[:axis] + (x.shape[axis] + 1,) + x.shape[axis + 1:]
        if out.shape != expected:
            raise ValueError(f"output of shape {out.shape} does not match the expected shape {expected}")
    _core.cumulative(name, x, axis, dtype, out[tuple(after)])
    out[tuple(before)] = identity
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative sum (NumPy 2.1 / array API): axis is required for arrays of more than one dimension."""
    return _cumulative("cumsum", 0, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative product (NumPy 2.1 / array API): axis is required for arrays of more than one dimension."""
    return _cumulative("cumprod", 1, x, axis, dtype, out, include_initial)


def _accumulate(self, array, axis=0, dtype=None, out=None):
    """Accumulate the result of applying the ufunc along one axis: out[0] = array[0],
    out[i] = ufunc(out[i-1], array[i])."""
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axis[0]
    if axis is None:
        raise ValueError("accumulate does not allow multiple axes")
    out = ufunc_out(out)  # checked before any data moves
    return _core.accumulate(self.__name__, asarray(array), operator.index(axis), dtype, out)


ufunc.accumulate = _accumulate


def _join(parts, axis):
    """np.concatenate of arrays that match except along `axis`, in their common dtype."""
    dtype = _np.result_type(*[p.dtype for p in parts])
    shape = list(parts[0].shape)
    shape[axis] = sum(p.shape[axis] for p in parts)
    result = empty(tuple(shape), dtype=dtype)
    start = 0
    for p in parts:
        where = [slice(None)] * len(shape)
        where[axis] = slice(start, start + p.shape[axis])
        result[tuple(where)] = p
        start += p.shape[axis]
    return result


def _broadcast(values, shape):
    from .._math.functions import broadcast_to
    return broadcast_to(values, tuple(shape))


def diff(a, n=1, axis=-1, prepend=_np._NoValue, append=_np._NoValue):
    """n-th discrete difference along `axis` (not_equal for bool, as NumPy)."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = asarray(a)
    nd = a.ndim
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis_index(axis, nd)
    combined = []
    for extra, at_end in ((prepend, False), (append, True)):
        if extra is _np._NoValue or extra is None:  # (None: the Array API standard's "none given")
            continue
        extra = asarray(extra)
        if extra.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            extra = _broadcast(extra, shape)
        combined.append((at_end, extra))
    if combined:
        parts = [e for at_end, e in combined if not at_end] + [a] + [e for at_end, e in combined if at_end]
        a = _join(parts, axis)
    later = [slice(None)] * nd
    earlier = [slice(None)] * nd
    later[axis], earlier[axis] = slice(1, None), slice(None, -1)
    later, earlier = tuple(later), tuple(earlier)
    from .. import not_equal, subtract
    op = not_equal if a.dtype == _np.bool_ else subtract
    for _ in range(n):
        a = op(a[later], a[earlier])
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened array, with optional values
    before and after."""
    from .. import subtract
    ary = asarray(ary).ravel()
    if to_begin is None and to_end is None:
        return ary[1:] - ary[:-1]

    def edge(values, name):
        if values is None:
            return None
        values = asarray(values)
        if not _np.can_cast(values.dtype, ary.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule.")
        return values.ravel()

    begin, end = edge(to_begin, "to_begin"), edge(to_end, "to_end")
    l_begin = 0 if begin is None else begin.size
    l_end = 0 if end is None else end.size
    l_diff = max(ary.size - 1, 0)
    result = empty((l_diff + l_begin + l_end,), dtype=ary.dtype)
    if l_begin:
        result[:l_begin] = begin
    if l_end:
        result[l_begin + l_diff:] = end
    subtract(ary[1:], ary[:-1], result[l_begin:l_begin + l_diff])
    return result


def _cumsum_method(self, axis=None, dtype=None, out=None):
    return cumsum(self, axis, dtype, out)


def _cumprod_method(self, axis=None, dtype=None, out=None):
    return cumprod(self, axis, dtype, out)


ndarray.cumsum = _cumsum_method
ndarray.cumprod = _cumprod_method

__all__ = ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod", "diff",
           "ediff1d"]
