"""ndarray.flat: NumPy's flat iterator over an array in C order, whatever its layout.

Reads go through take (flat indexing of any layout, no raveled copy) and the views of
a.ravel(); writes through put, which repeats the values over the addressed positions as NumPy's
flat assignment does (a.flat[...] = [1, 2] writes 1, 2, 1, 2, ...) and lets the last of
duplicate positions win.
"""
import operator
import re

import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import arange, asarray

_VALID = "only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid indices"


def _flat_message(e):
    """take's and put's IndexError, in the flat iterator's words ("... out of bounds for size N")."""
    return IndexError(re.sub(r"for axis \d+ with size", "for size", str(e)))


class flatiter:
    """A flat (C-order) view of an array for indexing and iteration: ``a.flat``."""
    __slots__ = ("_base",)

    def __init__(self, base):
        self._base = base

    @property
    def base(self):
        return self._base

    def __len__(self):
        return self._base.size

    def __iter__(self):
        flat = self._base.ravel()
        for i in range(flat.size):
            yield flat[i]

    def copy(self):
        return self._base.flatten()

    def _positions(self, key):
        """The flat positions `key` addresses: an int, a slice, or an index array (device)."""
        if type(key) is ndarray and key.dtype.kind in "iu" and key._device_id == _core.get_current_device():
            return key  # the common case first: a device index array goes to take as it is (as asarray would pass it)
        size = self._base.size
        if isinstance(key, tuple):
            if len(key) > 1:
                raise IndexError("too many indices for flat iterator: flat iterator is 1-dimensional, "
                                 f"but {len(key)} were indexed")
            key = key[0] if key else Ellipsis
        if key is Ellipsis:
            return slice(None)
        if isinstance(key, slice):
            return key
        if key is None or isinstance(key, (float, complex)):
            raise IndexError(_VALID)
        if isinstance(key, (int, _np.integer)) and not isinstance(key, (bool, _np.bool_)):
            i = operator.index(key)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for size {size}")
            return i + size if i < 0 else i
        index = asarray(key)
        if index.dtype == _np.bool_:
            if index.ndim > 1:
                raise IndexError("too many indices for flat iterator: flat iterator is 1-dimensional, "
                                 f"but {index.ndim} were indexed")
            if index.shape != (size,):
                raise IndexError("boolean indices for iterators are not supported because of previous behavior "
                                 "that was confusing (valid boolean indices are expected to work in the future)")
            return _core.flatnonzero(index)
        if index.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return index

    def __getitem__(self, key):
        pos = self._positions(key)
        if isinstance(pos, slice):
            return self._base.ravel()[pos].copy()
        if isinstance(pos, int):
            return self._base.ravel()[pos]
        try:
            return _core.take(self._base, pos, None, "raise")
        except IndexError as e:
            raise _flat_message(e) from None

    def __setitem__(self, key, value):
        pos = self._positions(key)
        if isinstance(pos, slice):
            pos = arange(*pos.indices(self._base.size), dtype=_np.intp)
        elif isinstance(pos, int):
            pos = arange(pos, pos + 1, dtype=_np.intp)
        values = value if isinstance(value, ndarray) else asarray(value, dtype=self._base.dtype)
        try:
            _core.put(self._base, pos, values, "raise")
        except IndexError as e:
            raise _flat_message(e) from None

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()` or "
                        "`cuarray.asnumpy()` to construct a NumPy array explicitly.")


def _set_flat(self, value):
    flatiter(self)[...] = value


ndarray.flat = property(flatiter, _set_flat)
