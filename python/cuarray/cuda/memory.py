"""Device and pinned memory, CuPy's cupy.cuda.memory interface: memory objects, pointers into them,
the pools, and the allocators every cuarray allocation goes through (docs/memory.md).

The objects are thin: the memory is a C++ buffer (``_core.DeviceMemory``) that cuarray's arrays
share; pools and the allocator hooks live in C++ (``src/runtime/memory/allocators.cpp``), so an allocation
from a pool runs no Python even when ``set_allocator(MemoryPool().malloc)`` is in effect.
"""
import atexit
import contextlib
import ctypes
import threading

from .. import _core

OutOfMemoryError = _core.OutOfMemoryError


def _device():
    return _core.get_current_device()


def _stream_ptr(stream):
    return None if stream is None else stream.ptr


def _host_address(mem):
    """A host pointer as CuPy takes it: an int, a ctypes pointer, or an object with .ptr (pinned memory)."""
    if isinstance(mem, int):
        return mem
    if isinstance(mem, ctypes.c_void_p):
        return mem.value or 0
    if hasattr(mem, "ctypes"):  # a NumPy array
        return mem.ctypes.data
    if hasattr(mem, "ptr"):
        return int(mem.ptr)
    return ctypes.cast(mem, ctypes.c_void_p).value or 0


# ---- device memory -------------------------------------------------------------------------------

class BaseMemory:
    """Device memory: ``ptr``, ``size``, ``device_id`` (CuPy's BaseMemory)."""
    __slots__ = ("_memory",)

    @property
    def ptr(self):
        return self._memory.ptr

    @property
    def size(self):
        return self._memory.size

    @property
    def device_id(self):
        return self._memory.device_id

    @property
    def device(self):
        from .device import Device
        return Device(self.device_id)

    @classmethod
    def _of(cls, memory):
        obj = cls.__new__(cls)
        obj._memory = memory
        return obj


class Memory(BaseMemory):
    """``size`` bytes from the driver (cuMemAlloc), freed when the last user dies."""
    __slots__ = ()

    def __init__(self, size):
        self._memory = _core.alloc_raw(int(size), _device())


class ManagedMemory(BaseMemory):
    """``size`` bytes of managed (unified) memory (cuMemAllocManaged), reachable from host and device."""
    __slots__ = ()

    def __init__(self, size):
        self._memory = _core.alloc_managed(int(size), _device())


class PooledMemory(BaseMemory):
    """A block of a memory pool; it returns to the pool when the last user dies."""
    __slots__ = ()


class UnownedMemory(BaseMemory):
    """Device memory another library owns: ``owner`` is kept alive as long as cuarray uses the memory."""
    __slots__ = ("owner",)

    def __init__(self, ptr, size, owner, device_id=None):
        ptr = int(ptr)
        if device_id is None:
            device_id = _core.pointer_device(ptr) if ptr else _device()
        self.owner = owner
        self._memory = _core.wrap_unowned(ptr, int(size), int(device_id), owner)


class MemoryPointer:
    """A pointer into device memory: ``mem`` and an ``offset`` in bytes (CuPy's MemoryPointer).
    Reading ``ptr`` hands the address out (the memory is then shared with other code, see
    docs/launch-batching.md); arrays made on the pointer with ``ndarray(..., memptr=p)`` need not."""
    __slots__ = ("mem", "_offset")

    def __init__(self, mem, offset):
        self.mem = mem
        self._offset = int(offset)

    @property
    def ptr(self):
        return self.mem.ptr + self._offset

    @property
    def device_id(self):
        return self.mem.device_id

    @property
    def device(self):
        return self.mem.device

    def __int__(self):
        return self.ptr

    def __bool__(self):
        return self.ptr != 0

    def __add__(self, offset):
        return MemoryPointer(self.mem, self._offset + int(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        return MemoryPointer(self.mem, self._offset - int(offset))

    def __iadd__(self, offset):
        self._offset += int(offset)
        return self

    def __isub__(self, offset):
        self._offset -= int(offset)
        return self

    def __repr__(self):
        return f"<MemoryPointer 0x{self.ptr:x} device={self.device_id} mem={self.mem!r}>"

    # Copies and fills: the *_async forms run on `stream` (the current stream when None); the
    # others also wait for the stream, as CuPy's do.
    def copy_from_device_async(self, src, size, stream=None):
        _core.memcpy_dtod(self.ptr, self.device_id, src.ptr, src.device_id, int(size), _stream_ptr(stream),
                          None if stream is None else getattr(stream, "device_id", None))

    def copy_from_device(self, src, size):
        self.copy_from_device_async(src, size)
        _core.get_current_stream().synchronize()

    def copy_from_host_async(self, mem, size, stream=None):
        _core.memcpy_htod(self.ptr, _host_address(mem), int(size), _stream_ptr(stream))

    def copy_from_host(self, mem, size):
        self.copy_from_host_async(mem, size)
        _core.get_current_stream().synchronize()

    def copy_from_async(self, mem, size, stream=None):
        if isinstance(mem, MemoryPointer):
            self.copy_from_device_async(mem, size, stream)
        else:
            self.copy_from_host_async(mem, size, stream)

    def copy_from(self, mem, size):
        self.copy_from_async(mem, size)
        _core.get_current_stream().synchronize()

    def copy_to_host_async(self, mem, size, stream=None):
        _core.memcpy_dtoh(_host_address(mem), self.ptr, int(size), _stream_ptr(stream))

    def copy_to_host(self, mem, size):
        self.copy_to_host_async(mem, size)
        _core.get_current_stream().synchronize()

    def memset_async(self, value, size, stream=None):
        _core.memset_device(self.ptr, int(value), int(size), _stream_ptr(stream))

    def memset(self, value, size):
        self.memset_async(value, size)
        _core.get_current_stream().synchronize()


def malloc_managed(size):
    """Managed memory of ``size`` bytes (for ``MemoryPool(malloc_managed)``)."""
    return MemoryPointer(ManagedMemory(size), 0)


def _malloc(size):
    return MemoryPointer(Memory(size), 0)


# ---- pools -----------------------------------------------------------------------------------------

def _limit_bytes(size, fraction):
    """CuPy's set_limit arguments as bytes for the current device: ``size``, or ``fraction`` of the
    memory the driver reports; neither (or 0) is no limit."""
    if size is None:
        if fraction is None:
            return 0
        if not 0 <= fraction <= 1:
            raise ValueError(f"memory limit fraction out of range: {fraction}")
        return int(fraction * _core.mem_get_info(_device())[1])
    if fraction is not None:
        raise ValueError("size and fraction cannot be specified at one time")
    if size < 0:
        raise ValueError(f"memory limit size out of range: {size}")
    return int(size)


class MemoryPool:
    """A caching allocator over all devices (CuPy's MemoryPool). ``allocator`` (size -> MemoryPointer)
    supplies its blocks: cuMemAlloc when None; ``malloc_managed`` gives a pool of managed memory."""

    def __init__(self, allocator=None, *, _pools=None):
        if _pools is not None:
            self._pools = _pools
        elif allocator is None or allocator is _malloc:
            self._pools = _core.PoolSet.create(None)
        elif allocator is malloc_managed:
            self._pools = _core.PoolSet.create("managed")
        else:
            self._pools = _core.PoolSet.create(allocator)

    def malloc(self, size):
        return MemoryPointer(PooledMemory._of(self._pools.malloc(int(size))), 0)

    def used_bytes(self):
        return self._pools.used_bytes(_device())

    def total_bytes(self):
        return self._pools.total_bytes(_device())

    def free_bytes(self):
        return self._pools.free_bytes(_device())

    def n_free_blocks(self):
        return self._pools.n_free_blocks(_device())

    def free_all_blocks(self, stream=None):
        self._pools.free_all_blocks(_device())

    def set_limit(self, size=None, fraction=None):
        self._pools.set_limit(_device(), _limit_bytes(size, fraction))

    def get_limit(self):
        return self._pools.get_limit(_device())


# ---- pinned host memory -----------------------------------------------------------------------------

class PinnedMemory:
    """Page-locked host memory: ``ptr``, ``size`` (CuPy's PinnedMemory)."""
    __slots__ = ("_block",)

    def __init__(self, size, flags=0):
        self._block = _core.alloc_pinned_raw(int(size))

    @property
    def ptr(self):
        return self._block.ptr

    @property
    def size(self):
        return self._block.size

    @classmethod
    def _of(cls, block):
        obj = cls.__new__(cls)
        obj._block = block
        return obj


class PinnedMemoryPointer(_core.PinnedSpan):
    """A pointer into pinned memory: ``mem`` and an ``offset`` (CuPy's PinnedMemoryPointer). It exports
    the buffer protocol over the rest of the memory, so ``numpy.frombuffer(p, dtype, count)`` views it."""

    def __init__(self, mem, offset):
        offset = int(offset)
        super().__init__(mem.ptr + offset, mem.size - offset)
        self.mem = mem

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return PinnedMemoryPointer(self.mem, self.ptr - self.mem.ptr + int(offset))


class PinnedMemoryPool:
    """The page-locked host buffers that stage host<->device copies (one per process)."""

    def malloc(self, size):
        return PinnedMemoryPointer(PinnedMemory._of(_core.alloc_pinned_pooled(int(size))), 0)

    def n_free_blocks(self):
        return _core.pinned_n_free_blocks()

    def total_bytes(self):
        return _core.pinned_total_bytes()

    def free_all_blocks(self):
        _core.pinned_free_all_blocks()


_default_pool = MemoryPool(_pools=_core.PoolSet.default())
_default_pinned_pool = PinnedMemoryPool()


def get_default_memory_pool():
    return _default_pool


def get_default_pinned_memory_pool():
    return _default_pinned_pool


# ---- the allocators ---------------------------------------------------------------------------------

_allocator = _default_pool.malloc
_pinned_allocator = _default_pinned_pool.malloc
_thread = threading.local()  # .allocator: using_allocator's, on this thread


def _pool_of(allocator, kinds=None):
    """The pool (a MemoryPool or MemoryAsyncPool, or one of ``kinds``) whose ``malloc`` `allocator`
    is, else None. Its ``_pools`` allocate in C++."""
    owner = getattr(allocator, "__self__", None)
    for kind in kinds or (MemoryPool, MemoryAsyncPool):
        if isinstance(owner, kind) and getattr(allocator, "__func__", None) is kind.malloc:
            return owner
    return None


def _install(allocator, this_thread):
    pool = _pool_of(allocator)
    if allocator is None or allocator is _malloc:
        _core.set_device_allocator("raw", this_thread)
    elif pool is not None:
        _core.set_device_allocator(pool._pools, this_thread)
    elif callable(allocator):
        _core.set_device_allocator(allocator, this_thread)
    else:
        raise TypeError(f"allocator must be callable (size -> MemoryPointer), not {type(allocator).__name__}")


def set_allocator(allocator=None):
    """Every device allocation of cuarray then comes from ``allocator`` (size -> MemoryPointer).
    ``None`` allocates from the driver each time (the pool disabled, as in CuPy);
    ``get_default_memory_pool().malloc`` restores the default."""
    global _allocator
    if getattr(_thread, "allocator", None) is not None:
        raise ValueError("Can't change the global allocator inside ``using_allocator`` context manager")
    _install(allocator, False)
    _allocator = _malloc if allocator is None else allocator


def get_allocator():
    """The allocator in effect on this thread."""
    local = getattr(_thread, "allocator", None)
    return _allocator if local is None else local


@contextlib.contextmanager
def using_allocator(allocator=None):
    """``allocator`` for the allocations of this thread inside a ``with`` block (CuPy's thread-local
    allocator); ``None`` allocates from the driver each time."""
    previous = getattr(_thread, "allocator", None)
    allocator = _malloc if allocator is None else allocator
    _install(allocator, True)
    _thread.allocator = allocator
    try:
        yield
    finally:
        _thread.allocator = previous
        if previous is None:
            _core.set_device_allocator(None, True)
        else:
            _install(previous, True)


def alloc(size):
    """``size`` bytes from the current allocator, as a MemoryPointer."""
    allocator = get_allocator()
    if _pool_of(allocator, (MemoryPool,)) is not None or allocator is _malloc:
        # the hook in C++ serves it (a pool's block or the driver's memory), no Python round trip
        return MemoryPointer(BaseMemory._of(_core.alloc_device(int(size))), 0)
    return allocator(int(size))


def set_pinned_memory_allocator(allocator=None):
    """Page-locked staging buffers then come from ``allocator`` (size -> PinnedMemoryPointer);
    ``None`` allocates from the driver each time (the pool disabled, as in CuPy);
    ``get_default_pinned_memory_pool().malloc`` restores the default."""
    global _pinned_allocator
    if allocator is None:
        _core.set_pinned_allocator("raw")
    elif getattr(allocator, "__func__", None) is PinnedMemoryPool.malloc:  # the one pinned pool
        _core.set_pinned_allocator(None)
    elif callable(allocator):
        _core.set_pinned_allocator(allocator)
    else:
        raise TypeError(f"allocator must be callable (size -> PinnedMemoryPointer), not {type(allocator).__name__}")
    _pinned_allocator = allocator


@atexit.register
def _drop_allocator_hooks():
    """The C++ hooks hold the Python objects they call (a pool set, a function): released here,
    while the interpreter still runs, instead of surviving into its teardown, where nanobind reports
    them as leaked (every program that set an allocator and never reset it printed that)."""
    _core.set_device_allocator(None, True)
    _core.set_device_allocator(None, False)
    _core.set_pinned_allocator(None)


def alloc_pinned_memory(size):
    """``size`` bytes of page-locked host memory from the current pinned allocator."""
    if _pinned_allocator is None:
        return PinnedMemoryPointer(PinnedMemory(size), 0)
    return _pinned_allocator(int(size))


# Allocators over other memory: after the classes they build on.
from ._memory_async import MemoryAsync, MemoryAsyncPool, malloc_async  # noqa: E402
from ._function_allocators import (CFunctionAllocator, CFunctionAllocatorMemory,  # noqa: E402
                                   PythonFunctionAllocator, PythonFunctionAllocatorMemory)
