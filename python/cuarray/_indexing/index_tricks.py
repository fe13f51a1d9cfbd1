"""NumPy's index tricks: mgrid, ogrid, r_, c_, s_, index_exp, diag_indices(_from), ndindex,
ndenumerate and the broadcast object.

The objects parse their keys on the host exactly as NumPy's (numpy/lib/_index_tricks_impl.py) and
build their arrays on the device (arange, indices, linspace, concatenate). s_, index_exp and ndindex
never touch array data, so they are NumPy's own objects.
"""
import math

import numpy as _np
from numpy import index_exp, ndindex, s_  # noqa: F401  (pure host objects, re-exported)

from .._core import ndarray
from .._creation.creation import arange, array, asarray, linspace
from .index_functions import indices
from .._manipulation.manipulation import broadcast_arrays, concatenate

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "diag_indices", "diag_indices_from", "ndindex",
           "ndenumerate", "broadcast"]


def _bounds(item):
    start = 0 if item.start is None else item.start
    step = 1 if item.step is None else item.step
    return start, item.stop, step


class _Grid:
    """numpy's nd_grid: dense (mgrid) or open (ogrid) grids of slices; a complex step is a count."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        size, num_list = [], [0]
        for item in key:
            start, stop, step = _bounds(item)
            if isinstance(step, (_np.complexfloating, complex)):
                size.append(int(abs(step)))
            else:
                size.append(int(math.ceil((stop - start) / step)))
            num_list += [start, stop, abs(step) if isinstance(step, (_np.complexfloating, complex)) else step]
        typ = _np.result_type(*num_list)
        nn = [arange(n, dtype=typ) for n in size] if self.sparse else indices(size, typ)
        nn = list(nn) if self.sparse else nn
        for k, item in enumerate(key):
            start, stop, step = _bounds(item)
            if isinstance(step, (_np.complexfloating, complex)):
                step = int(abs(step))
                if step != 1:
                    step = (item.stop - start) / float(step - 1)
            nn[k] = nn[k] * step + start
        if self.sparse:
            shape = [1] * len(size)
            out = []
            for k in range(len(size)):
                shape[k] = -1
                out.append(nn[k].reshape(tuple(shape)))
                shape[k] = 1
            return tuple(out)
        return nn

    @staticmethod
    def _one(key):
        start, stop, step = _bounds(key)
        if isinstance(step, (_np.complexfloating, complex)):
            step_float = abs(step)
            step = length = int(step_float)
            if step != 1:
                step = (key.stop - start) / float(step - 1)
            typ = _np.result_type(start, stop, step_float)
            return arange(0, length, 1, dtype=typ) * step + start
        return arange(start, stop, key.step)

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class AxisConcatenator:
    """numpy's AxisConcatenator: slices become ranges, scalars and arrays are joined along `axis`
    after NumPy's ndmin and trans1d rules. Matrix directives ('r', 'c', strings) are not
    supported (cuarray has no matrix class)."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise NotImplementedError("cuarray has no matrix class: matrix strings are not supported")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, result_type_objs = [], []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start, stop, step = _bounds(item)
                if isinstance(step, (_np.complexfloating, complex)):
                    newobj = linspace(start, stop, num=int(abs(step)))
                else:
                    newobj = arange(start, stop, step)
                if ndmin > 1:
                    newobj = array(newobj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        newobj = newobj.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError(
                        "cuarray has no matrix class: the 'r' and 'c' directives are not supported")
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in _np.ScalarType:
                scalar = True
                newobj = item
            else:
                item_ndim = _np.ndim(item) if not isinstance(item, ndarray) else item.ndim
                newobj = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    defaxes = list(range(ndmin))
                    newobj = newobj.transpose(defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2])
            objs.append(newobj)
            result_type_objs.append(item if scalar else newobj.dtype)
        if result_type_objs:
            final_dtype = _np.result_type(*result_type_objs)
            objs = [array(obj, copy=None, ndmin=ndmin, dtype=final_dtype) for obj in objs]
        return concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """r_: joins along the first axis."""

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """c_: joins along the last axis, 1-D arrays as columns."""

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array (one arange, repeated)."""
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for an array whose dimensions are all equal (at least 2)."""
    shape = arr.shape if isinstance(arr, ndarray) else _np.shape(arr)  # only the shape is needed
    if not len(shape) >= 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


class ndenumerate:
    """(index, value) pairs of an array in C order. The values are read once to the host (one
    copy): a device read per element would be far slower, and NumPy yields host scalars too."""

    def __init__(self, arr):
        self._iter = _np.ndenumerate(asarray(arr).get())

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iter)


class broadcast:
    """CuPy's broadcast object: the arrays broadcast against each other (`values`), and the
    common `shape`, `size`, `ndim`/`nd` and `numiter`."""

    def __init__(self, *arrays):
        self.values = tuple(broadcast_arrays(*[asarray(a) for a in arrays]))
        self.shape = tuple(_np.broadcast_shapes(*[v.shape for v in self.values])) if self.values else ()
        self.size = math.prod(self.shape)
        self.nd = self.ndim = len(self.shape)
        self.numiter = len(arrays)
