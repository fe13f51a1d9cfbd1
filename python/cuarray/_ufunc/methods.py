"""ufunc.at, ufunc.outer and ufunc.reduceat with NumPy's semantics.

at and reduceat run on the GPU in C++ (src/ops/ufunc/ufunc_at.cpp, src/ops/ufunc/ufunc_reduceat.cpp); this
module turns NumPy's index forms into the items the engine takes and attaches the methods.
"""
import operator

import numpy as _np

from .. import _core
from .._core import ndarray, ufunc
from .._creation.creation import asarray, from_numpy
from .out import ufunc_out

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                "arrays are valid indices")


def _index_arrays(obj):
    """The integer index arrays an array-like item stands for (a boolean mask: its nonzero())."""
    if isinstance(obj, ndarray):
        if obj.dtype == _np.bool_:
            return list(obj.nonzero())
        if obj.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return [obj]
    host = _np.asarray(obj)
    if host.dtype == _np.bool_:
        return [from_numpy(i) for i in _np.nonzero(host)]
    if host.size == 0 and host.dtype.kind == "f":  # [] indexes nothing, as NumPy reads it
        host = host.astype(_np.intp)
    if host.dtype.kind not in "iu":
        raise IndexError(_INDEX_ERROR if not isinstance(obj, _np.ndarray) else
                         "arrays used as indices must be of integer (or boolean) type")
    return [from_numpy(host)]


def _at_items(a, indices):
    """NumPy's index, as the engine's items: int, None, (start, step, length) or an index array."""
    index = indices if isinstance(indices, tuple) else (indices,)
    if sum(1 for item in index if item is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    expanded = []  # (kind, value) with masks already split into per-dim arrays
    for item in index:
        if item is None or item is Ellipsis or isinstance(item, slice):
            expanded.append(item)
        elif isinstance(item, (bool, _np.bool_)):
            expanded.append(bool(item))
        elif isinstance(item, (ndarray, _np.ndarray, list, tuple)):
            expanded.append(_index_arrays(item))
        else:
            try:
                expanded.append(operator.index(item))
            except TypeError:
                raise IndexError(_INDEX_ERROR) from None
    consumed = sum(len(e) if isinstance(e, list) else 1 for e in expanded
                   if e is not None and e is not Ellipsis and not isinstance(e, bool))
    items, dim = [], 0
    for e in expanded:
        if e is Ellipsis:
            for _ in range(max(a.ndim - consumed, 0)):
                items.append((0, 1, a.shape[dim]))
                dim += 1
        elif e is None or e is True:
            items.append(None)
        elif e is False:
            return None  # a 0-d False mask selects nothing
        elif isinstance(e, slice):
            if dim >= a.ndim:
                raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, "
                                 f"but {consumed} were indexed")
            start, stop, step = e.indices(a.shape[dim])
            items.append((start, step, len(range(start, stop, step))))
            dim += 1
        elif isinstance(e, list):
            items.extend(e)
            dim += len(e)
        else:
            items.append(e)
            dim += 1
    return items


def _at(self, a, indices, b=None, /):
    """Unbuffered in-place a[indices] = ufunc(a[indices], b): repeated indices accumulate."""
    if not isinstance(a, ndarray):
        raise TypeError("ufunc.at's first operand must be a cuarray.ndarray")
    if b is not None and not isinstance(b, ndarray) and isinstance(b, (list, tuple, _np.ndarray)):
        b = asarray(b)
    items = _at_items(a, indices)
    if items is None:
        return
    _core.ufunc_at(self.__name__, a, items, b)


def _outer(self, A, B, /, **kwargs):
    """ufunc(A[..., None, None...], B): the result has shape A.shape + B.shape."""
    if self.nin != 2:
        raise ValueError("outer product only supported for binary functions")
    # NumPy converts both operands with asarray, so Python scalars take their default dtypes.
    A = A if isinstance(A, ndarray) else asarray(A)
    B = B if isinstance(B, ndarray) else asarray(B)
    return self(A[(Ellipsis,) + (None,) * B.ndim], B, **kwargs)


def _reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """Reductions over array[indices[i]:indices[i+1]] along `axis` (NumPy's rules for unordered indices)."""
    out = ufunc_out(out)  # checked before any data moves
    if not isinstance(array, ndarray):
        array = asarray(array)
    # NumPy casts the indices to intp safely (bools and narrower integers; a list of floats is
    # converted unsafely, an array of floats or uint64 raises).
    if isinstance(indices, ndarray):
        host = indices.get()
    else:
        host = _np.asarray(indices)
        if host.dtype.kind == "f" and not isinstance(indices, _np.ndarray):
            host = host.astype(_np.intp)
    if host.ndim != 1:
        raise ValueError(f"reduceat indices must be 1-dimensional, got {host.ndim} dimensions")
    if host.size == 0:
        host = host.astype(_np.intp)
    if not _np.can_cast(host.dtype, _np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {host.dtype!r} to dtype('int64') according to the rule 'safe'")
    if axis is None:
        raise TypeError("reduceat does not allow axis=None")
    result = _core.ufunc_reduceat(self.__name__, array, [int(i) for i in host.astype(_np.int64)],
                                  operator.index(axis), dtype)
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"output parameter for reduceat has the wrong shape {out.shape}; expected {result.shape}")
    out[...] = result
    return out


ufunc.at = _at
ufunc.outer = _outer
ufunc.reduceat = _reduceat
