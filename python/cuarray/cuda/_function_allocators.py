"""Allocators over another library's malloc and free (CuPy's PythonFunctionAllocator and
CFunctionAllocator): the way to let, say, PyTorch's caching allocator serve cuarray with
``set_allocator(PythonFunctionAllocator(malloc, free).malloc)``. cuarray only decides when: the
memory is freed with the library's free when its last user dies (docs/memory.md)."""
import ctypes

from .. import _core
from .memory import BaseMemory, MemoryPointer

_C_MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
_C_FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


class _Release:
    """Calls free(ptr, device) when the memory's last user lets go of it (the memory's owner)."""
    __slots__ = ("_free", "_ptr", "_device", "_keep")

    def __init__(self, free, ptr, device, keep):
        self._free, self._ptr, self._device, self._keep = free, ptr, device, keep

    def __del__(self):
        self._free(self._ptr, self._device)


class _FunctionAllocatorMemory(BaseMemory):
    """``size`` bytes from ``malloc(size, device_id) -> ptr``, given back with ``free(ptr, device_id)``."""
    __slots__ = ()

    def __init__(self, size, malloc, free, keep=None):
        size, device = int(size), _core.get_current_device()
        ptr = int(malloc(size, device) or 0) if size > 0 else 0
        if size > 0 and ptr == 0:
            raise _core.OutOfMemoryError(f"Out of memory allocating {size:,} bytes (the allocator returned a null pointer).")
        owner = _Release(free, ptr, device, keep) if ptr else None
        self._memory = _core.wrap_unowned(ptr, size, device, owner)


class PythonFunctionAllocatorMemory(_FunctionAllocatorMemory):
    __slots__ = ()


class CFunctionAllocatorMemory(_FunctionAllocatorMemory):
    __slots__ = ()


class PythonFunctionAllocator:
    """``malloc_func(size, device_id) -> ptr`` and ``free_func(ptr, device_id)`` as an allocator.
    Inside them ``cuarray.cuda.get_current_stream()`` is the stream the memory is for."""

    def __init__(self, malloc_func, free_func):
        self._malloc_func = malloc_func
        self._free_func = free_func

    def malloc(self, size):
        return MemoryPointer(PythonFunctionAllocatorMemory(size, self._malloc_func, self._free_func), 0)


class CFunctionAllocator:
    """C functions ``void* malloc(void* param, size_t size, int device_id)`` and
    ``void free(void* param, void* ptr, int device_id)`` at the addresses ``malloc_func`` and
    ``free_func``, called with ``param``; ``owner`` is kept alive while any of their memory is."""

    def __init__(self, param, malloc_func, free_func, owner):
        self._param = int(param)
        self._malloc = _C_MALLOC(int(malloc_func))
        self._free = _C_FREE(int(free_func))
        self._owner = owner

    def malloc(self, size):
        param, c_malloc, c_free = self._param, self._malloc, self._free
        memory = CFunctionAllocatorMemory(size, lambda n, device: c_malloc(param, n, device),
                                          lambda ptr, device: c_free(param, ptr, device), keep=self._owner)
        return MemoryPointer(memory, 0)
