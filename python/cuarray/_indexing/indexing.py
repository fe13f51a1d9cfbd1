"""Selections and index arrays with NumPy's signatures: nonzero, flatnonzero, argwhere, extract,
compress, take, put, take_along_axis (and their ndarray methods).

The work and the errors are in C++ (src/ops/indexing/selection.cpp, src/ops/indexing/take_put.cpp); this module converts
arguments and handles out=. a[mask] and a[indices] are in the C++ ndarray type.
"""
import operator

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray


def _axis(axis):
    return None if axis is None else operator.index(axis)


def _into(out, result):
    """numpy's out=: the result stored into `out` (same shape), which is returned."""
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if out.shape != result.shape:
        raise ValueError(f"output array does not match result of ndarray.take: {out.shape} vs {result.shape}")
    out[...] = result
    return out


def nonzero(a):
    """Indices of the nonzero elements: a tuple of int64 arrays, one per dimension."""
    return _core.nonzero(asarray(a))


def flatnonzero(a):
    """Indices of the nonzero elements of the flattened array."""
    return _core.flatnonzero(asarray(a))


def argwhere(a):
    """(N, a.ndim) indices of the nonzero elements, in C order."""
    return _core.argwhere(asarray(a))


def extract(condition, arr):
    """The elements of arr.ravel() where condition.ravel() is nonzero."""
    return _core.extract(asarray(condition), asarray(arr))


def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` (the flattened array when None) where `condition` is true."""
    return _into(out, _core.compress(asarray(condition), asarray(a), _axis(axis)))


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (of the flattened array when None)."""
    return _into(out, _core.take(asarray(a), asarray(indices), _axis(axis), mode))


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, with v repeated to the length of ind; the last of duplicate indices wins."""
    if not isinstance(a, ndarray):
        raise TypeError(f"argument 1 must be cuarray.ndarray, not {type(a)}")
    _core.put(a, asarray(ind), asarray(v), mode)


def take_along_axis(arr, indices, axis=-1):
    """arr's elements at `indices` (arr's rank, broadcast against it) along `axis`."""
    return _core.take_along_axis(asarray(arr), asarray(indices), _axis(axis))


def _nonzero_method(self):
    return _core.nonzero(self)


def _compress_method(self, condition, axis=None, out=None):
    return compress(condition, self, axis, out)


def _take_method(self, indices, axis=None, out=None, mode="raise"):
    return take(self, indices, axis, out, mode)


def _put_method(self, indices, values, mode="raise"):
    put(self, indices, values, mode)


ndarray.nonzero = _nonzero_method
ndarray.compress = _compress_method
ndarray.take = _take_method
ndarray.put = _put_method

__all__ = ["nonzero", "flatnonzero", "argwhere", "extract", "compress", "take", "put", "take_along_axis"]
