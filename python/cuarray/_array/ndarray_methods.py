"""ndarray methods off the hot path (printing, host conversion, NumPy protocol hooks), in Python.

The type itself and everything per-call-critical (operators, indexing, views) is C++
(python/src/bind_ndarray.cpp); this module attaches the rest at import.
"""
import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import asnumpy, from_numpy, array as _array
from ..cuda.memory import BaseMemory, MemoryPointer


def host_to_device(host):
    return from_numpy(host)


class Flags:
    """ndarray.flags: C_CONTIGUOUS, F_CONTIGUOUS and OWNDATA, by attribute or key."""
    __slots__ = ("c_contiguous", "f_contiguous", "owndata")

    def __init__(self, c, f, owndata):
        self.c_contiguous, self.f_contiguous, self.owndata = c, f, owndata

    def __getitem__(self, key):
        names = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
                 "F": "f_contiguous", "OWNDATA": "owndata"}
        return getattr(self, names[key.upper()])

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}")


def _data(self):
    """ndarray.data: a MemoryPointer to the first element, in the memory the array views."""
    memory, offset = _core.array_memory(self)
    return MemoryPointer(BaseMemory._of(memory), offset)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    for i in range(self.shape[0]):
        yield self[i]


def _array_protocol(self, dtype=None, copy=None):
    raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()` or "
                    "`cuarray.asnumpy()` to construct a NumPy array explicitly.")


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    import cuarray
    ours = getattr(cuarray, ufunc.__name__, None)
    if method in ("reduce", "accumulate", "reduceat", "outer", "at") and isinstance(ours, cuarray.ufunc):
        return getattr(ours, method)(*inputs, **kwargs)  # np.maximum.reduce(x), np.add.at(x, i, v), ...
    if method != "__call__":
        return NotImplemented
    if not isinstance(ours, (cuarray.ufunc, cuarray._math.products.gufunc)):
        return NotImplemented
    # NumPy hands its scalars over as 0-d arrays: they are scalars (strong, NEP 50) to us.
    inputs = [x[()] if isinstance(x, _np.ndarray) and x.ndim == 0 else x for x in inputs]
    return ours(*inputs, **kwargs)


def _array_function(self, func, types, args, kwargs):
    import cuarray
    module = cuarray
    for part in func.__module__.split(".")[1:]:
        module = getattr(module, part, None)
        if module is None:
            return NotImplemented
    impl = getattr(module, func.__name__, None)
    if impl is None or impl is func:
        return NotImplemented
    return impl(*args, **kwargs)


def _real(self):
    return self._complex_part(False) if self.dtype.kind == "c" else self


def _set_real(self, value):
    _real(self)[...] = value


def _imag(self):
    if self.dtype.kind == "c":
        return self._complex_part(True)
    return _core.zeros(self.shape, self.dtype, "C")


def _set_imag(self, value):
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    self._complex_part(True)[...] = value


def _cuda_array_interface(self):
    """CUDA Array Interface v3. The consumer orders its work after `stream`, cuarray's current
    stream (1 for the legacy default stream); reading `_ptr` submits cuarray's held launches and
    holds none while the memory is shared."""
    ptr = self._ptr
    return {"shape": self.shape, "typestr": self.dtype.str, "descr": self.dtype.descr,
            "data": (ptr if self.size else 0, False), "version": 3,
            "strides": None if self._c_contiguous else self.strides,
            "stream": _core.exchange_stream(self._device_id), "mask": None}


def _conjugate(self):
    import cuarray
    return cuarray.conjugate(self)


def _clip(self, min=None, max=None, out=None, **kwargs):
    import cuarray
    return cuarray.clip(self, min, max, out=out, **kwargs)


def _host_copy(self):
    """A NumPy copy keeping the array's layout (Fortran order for a Fortran-only array), so that
    NumPy's order='A'/'K' read the layout they would read here."""
    return asnumpy(self, order="F" if self._f_contiguous and not self._c_contiguous else "C")


def _dump(self, file):
    """Pickles the array to `file` (a path or an open binary file), as ndarray.dump."""
    import os
    import pickle
    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


def _round_method(self, decimals=0, out=None):
    import cuarray
    return cuarray.around(self, decimals, out=out)


_METHODS = {
    "__repr__": lambda self: repr(asnumpy(self)),
    "__str__": lambda self: str(asnumpy(self)),
    "__format__": lambda self, spec: format(asnumpy(self), spec),
    "tolist": lambda self: asnumpy(self).tolist(),
    "get": lambda self, stream=None, order="C", out=None, blocking=True: asnumpy(self, order=order, out=out),
    "set": lambda self, arr, stream=None: self.__setitem__(Ellipsis, arr),
    "__iter__": _iter,
    "__reduce__": lambda self: (_array, (_host_copy(self),)),
    "tobytes": lambda self, order="C": _host_copy(self).tobytes(order),
    "tofile": lambda self, fid, sep="", format="%s": asnumpy(self).tofile(fid, sep, format),
    "dump": _dump,
    "dumps": lambda self: __import__("pickle").dumps(self, protocol=2),
    "__contains__": lambda self, value: bool((self == value).any()),  # NumPy's rule, one reduction
    # cuarray.ndarray[Any, np.dtype[np.float32]] in annotations, as NumPy's ndarray allows.
    "__class_getitem__": classmethod(lambda cls, item: __import__("types").GenericAlias(cls, item)),
    "__copy__": lambda self: self.copy(),
    "__deepcopy__": lambda self, memo: self.copy(),
    "__array__": _array_protocol,
    "__array_ufunc__": _array_ufunc,
    "__array_function__": _array_function,
    "clip": _clip,
    "round": _round_method,
    "conj": _conjugate,
    "conjugate": _conjugate,
    "flags": property(lambda self: Flags(self._c_contiguous, self._f_contiguous, self.base is None)),
    "device": property(lambda self: __import__("cuarray").cuda.Device(self._device_id)),
    "data": property(_data),
    "real": property(_real, _set_real),
    "imag": property(_imag, _set_imag),
    "__cuda_array_interface__": property(_cuda_array_interface),
}
for _name, _fn in _METHODS.items():
    setattr(ndarray, _name, _fn)
