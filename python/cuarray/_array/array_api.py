"""The Array API standard's entry points: ndarray.__array_namespace__, __array_namespace_info__,
ndarray.to_device and the device check every device= argument shares, astype, isdtype, and
finfo/iinfo that take arrays.

cuarray's namespace is the `cuarray` module itself (as NumPy's is `numpy`): the standard's names
live beside NumPy's, with NumPy's semantics where NumPy and the standard agree. docs/array-api.md
lists where they differ. Devices are `cuarray.cuda.Device` objects (hashable, compared by id).
"""
import contextlib
import functools
import inspect

import numpy as _np
from numpy import isdtype  # noqa: F401  (cuarray's dtypes are NumPy's: NumPy's isdtype is exact)

from .. import _core
from .._core import ndarray

__array_api_version__ = "2025.12"
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


def _array_namespace(self, /, *, api_version=None):
    """The namespace of the Array API standard for this array: the `cuarray` module."""
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f'Version "{api_version}" of the Array API Standard is not supported.')
    import cuarray
    return cuarray


def _device_class():
    from ..cuda import Device
    return Device


def check_device(device):
    """A device argument as a cuarray.cuda.Device, or None: a Device, or a device id as CuPy's
    functions take it (ValueError for anything else, as NumPy's check)."""
    Device = _device_class()
    if device is None or isinstance(device, Device):
        return device
    if isinstance(device, (int, _np.integer)) and not isinstance(device, bool):
        return Device(device)
    raise ValueError(f"Device not understood. Only cuarray.cuda.Device objects or device ids are allowed, "
                     f"but received: {device!r}")


def on_device(device):
    """The context in which a creation function allocates on `device` (None: the current device)."""
    device = check_device(device)
    return contextlib.nullcontext() if device is None else device


def with_device(create):
    """Gives a creation function the standard's keyword-only `device=` argument."""
    @functools.wraps(create)
    def wrapper(*args, device=None, **kwargs):
        if device is None:
            return create(*args, **kwargs)
        with on_device(device):
            return create(*args, **kwargs)
    signature = inspect.signature(create)
    wrapper.__signature__ = signature.replace(parameters=[
        *signature.parameters.values(), inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None)])
    return wrapper


def _to_device(self, device, /, *, stream=None):
    """A copy of the array on `device` (the array itself when it is there already); the copy is
    ordered on `stream` (a cuarray.cuda.Stream of that device) or on the device's current stream."""
    device = check_device(device)
    from ..cuda import Stream
    if stream is not None and not isinstance(stream, Stream):
        raise TypeError(f"stream must be a cuarray.cuda.Stream, not {type(stream).__name__}")
    if device is None or device.id == self._device_id:
        return self
    if stream is None:
        return _core.to_device(self, device.id)
    if stream.device_id != device.id:
        raise ValueError(f"stream belongs to device {stream.device_id}, not to the target device {device.id}")
    with stream:
        return _core.to_device(self, device.id)


def astype(x, dtype, /, *, copy=True, device=None):
    """x as `dtype` (the standard's function form of ndarray.astype), optionally on `device`."""
    if not isinstance(x, ndarray):
        raise TypeError(f"Input should be a cuarray array. It is a {type(x)} instead.")
    device = check_device(device)
    out = x.astype(dtype, copy=copy)
    return out if device is None else _to_device(out, device)


def finfo(type, /):
    """numpy.finfo of a dtype, or of an array's dtype (the standard's finfo takes arrays)."""
    return _np.finfo(type.dtype if isinstance(type, ndarray) else type)


def iinfo(type, /):
    """numpy.iinfo of a dtype, or of an array's dtype (the standard's iinfo takes arrays)."""
    return _np.iinfo(type.dtype if isinstance(type, ndarray) else type)


class __array_namespace_info__:
    """The Array API standard's inspection namespace for cuarray (`cuarray.__array_namespace_info__()`)."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return _device_class()()

    def default_dtypes(self, *, device=None):
        check_device(device)
        return {"real floating": _np.dtype(_np.float64), "complex floating": _np.dtype(_np.complex128),
                "integral": _np.dtype(_np.intp), "indexing": _np.dtype(_np.intp)}

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes (every one cuarray supports) of `kind`: a kind name, a tuple of
        them (their union) or None (all)."""
        check_device(device)
        if isinstance(kind, tuple):
            found = {}
            for k in kind:
                found.update(self.dtypes(device=device, kind=k))
            return found
        if kind is not None and kind not in _KINDS:
            raise ValueError(f"unsupported kind: {kind!r}")
        return {name: _np.dtype(name) for name in _STANDARD_DTYPES if kind is None or isdtype(_np.dtype(name), kind)}

    def devices(self):
        """Every CUDA device of the machine (none where no driver or GPU is usable)."""
        from ..cuda import runtime
        try:
            count = runtime.getDeviceCount()
        except runtime.CUDARuntimeError:
            return []
        return [_device_class()(i) for i in range(count)]


_STANDARD_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                    "float64", "complex64", "complex128")
_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")

ndarray.__array_namespace__ = _array_namespace
ndarray.to_device = _to_device

__all__ = ["__array_api_version__", "__array_namespace_info__", "astype", "finfo", "iinfo", "isdtype"]
