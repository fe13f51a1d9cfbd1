"""average, trace and diagonal, composed from the reductions and views with NumPy's signatures,
dtypes and errors."""
import operator

import numpy as _np

from . import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import asarray, full


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal as a view: axis1 and axis2 removed, the diagonal as the last axis."""
    return asarray(a).diagonal(offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (sum's dtype rules)."""
    return _reductions.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def _normalize_axis_tuple(axis, ndim):
    """NumPy's normalize_axis_tuple: AxisError out of range, ValueError for a repeated axis."""
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for ax in axes:
        ax = operator.index(ax)
        if not -ndim <= ax < ndim:
            raise _np.exceptions.AxisError(ax, ndim)
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("repeated axis in `axis` argument")
    return tuple(out)


def _weights_for(weights, a, axis):
    """The weights reshaped to broadcast against `a` (NumPy's _weights_are_valid)."""
    w = asarray(weights)
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = w.transpose(tuple(int(i) for i in _np.argsort(axis)))
        w = w.reshape(tuple(n if d in axis else 1 for d, n in enumerate(a.shape)))
    return w


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average, as numpy.average. Weights summing to zero raise ZeroDivisionError, which
    costs one small device->host read."""
    a = asarray(a)
    if axis is not None:
        axis = _normalize_axis_tuple(axis, a.ndim)
    if weights is None:
        avg = _reductions.mean(a, axis, keepdims=keepdims)
        scale = avg.dtype.type(a.size / avg.size)
    else:
        w = _weights_for(weights, a, axis)
        if a.dtype.kind in "biu":
            result_dtype = _np.result_type(a.dtype, w.dtype, "f8")
        else:
            result_dtype = _np.result_type(a.dtype, w.dtype)
        scale = _reductions.sum(w, axis, dtype=result_dtype, keepdims=keepdims)
        if bool(_reductions.any(_ufuncs.equal(scale, 0.0))):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _ufuncs.divide(_reductions.sum(_ufuncs.multiply(a, w, dtype=result_dtype), axis, keepdims=keepdims), scale)
    if not returned:
        return avg
    if not isinstance(scale, ndarray) or scale.shape != avg.shape:
        scale = full(avg.shape, scale, dtype=avg.dtype) if not isinstance(scale, ndarray) else \
            scale._broadcast_to(avg.shape).copy()
    return avg, scale


ndarray.trace = trace
__all__ = ["average", "diagonal", "trace"]
