"""Arrays of other libraries' memory and back: DLPack and the CUDA Array Interface (docs/interop.md).

The protocols are C++ (python/src/bind_interop.cpp over src/interop/); this module names them the
way NumPy and CuPy users call them.
"""
import numpy as _np

from .. import _core
from .._core import from_dlpack, ndarray

# What asarray meets most often and never holds GPU memory: answered without probing attributes.
_HOST_TYPES = (_np.ndarray, _np.generic, list, tuple, int, float, complex, bool)

# DLPack device types of memory that cuarray views in place.
_CUDA_DEVICE_TYPES = (2, 13)  # kDLCUDA, kDLCUDAManaged


def toDlpack(array):
    """CuPy's legacy spelling of ``array.toDlpack()``: a legacy ``"dltensor"`` capsule, no stream protocol."""
    if not isinstance(array, ndarray):
        raise TypeError(f"toDlpack expects a cuarray.ndarray, not {type(array).__name__!r}")
    return array.toDlpack()


def fromDlpack(dltensor):
    """CuPy's legacy spelling of ``from_dlpack``: a DLPack capsule (or any DLPack producer) as an array."""
    return from_dlpack(dltensor)


def device_array_of(obj, copy=None):
    """A cuarray array viewing another library's GPU array, or None for anything else.

    Objects with ``__cuda_array_interface__`` (numba device arrays, CUDA torch tensors, CuPy
    arrays) come first, as CuPy's asarray takes them; then DLPack producers whose data is on a
    GPU (JAX arrays). Host producers (NumPy arrays) are left to the host path.
    """
    if isinstance(obj, _HOST_TYPES):
        return None
    interface = getattr(obj, "__cuda_array_interface__", None)  # a property: read it once
    if interface is not None:
        return _core.from_cuda_array_interface(obj, interface, copy)
    device = getattr(obj, "__dlpack_device__", None)
    if device is not None and hasattr(obj, "__dlpack__") and device()[0] in _CUDA_DEVICE_TYPES:
        return from_dlpack(obj, copy=copy)
    return None
