"""Stream-ordered memory from the CUDA driver's memory pools (cuMemAllocFromPoolAsync): CuPy's
MemoryAsync, malloc_async and MemoryAsyncPool (docs/memory.md). The memory is allocated on a
stream and freed on it when its last user dies; ``set_allocator(MemoryAsyncPool().malloc)`` makes
every cuarray allocation come from the pool without running Python per allocation.
"""
from .. import _core
from .memory import BaseMemory, MemoryPointer, _limit_bytes

# CUmemPool_attribute values read here (cuda.h)
_RELEASE_THRESHOLD = 4
_RESERVED_MEM_CURRENT = 5
_USED_MEM_CURRENT = 7


class MemoryAsync(BaseMemory):
    """``size`` bytes from the current device's current memory pool, allocated on ``stream`` (a
    stream handle as an int, as CuPy takes it) and freed on it when the last user dies."""
    __slots__ = ("stream",)

    def __init__(self, size, stream):
        self.stream = int(stream)
        self._memory = _core.alloc_stream_ordered(int(size), self.stream)

    @classmethod
    def _on_current_stream(cls, memory):
        obj = cls._of(memory)
        obj.stream = _core.get_current_stream().ptr
        return obj


def malloc_async(size):
    """``size`` bytes from the current device's current memory pool on the current stream."""
    return MemoryPointer(MemoryAsync._on_current_stream(_core.alloc_stream_ordered(int(size))), 0)


class MemoryAsyncPool:
    """The driver's stream-ordered memory pool of each device (CuPy's MemoryAsyncPool).

    ``pool_handles`` chooses each device's pool: ``'current'`` (the device's current pool, the
    default), ``'default'`` (the device's default pool), an int (a ``cudaMemPool_t`` made elsewhere,
    trusted as the CUDA runtime trusts it), or a list of these, one per device. As in CuPy, the
    chosen pool becomes its device's current pool. Memory is allocated and freed on the current
    stream.
    """

    def __init__(self, pool_handles="current"):
        count = _core.get_device_count()
        if isinstance(pool_handles, (list, tuple)):
            if len(pool_handles) != count:
                raise ValueError(f"pool_handles has {len(pool_handles)} entries for {count} devices")
            handles = list(pool_handles)
        else:
            handles = [pool_handles] * count
        pools = [_resolve_pool(handle, device) for device, handle in enumerate(handles)]
        for device, pool in enumerate(pools):
            _core.set_current_mem_pool(device, pool)
        self._pools = _core.StreamOrderedPools.create(pools)

    def _pool(self):
        return self._pools.handle(_core.get_current_device())

    def malloc(self, size):
        """``size`` bytes from the current device's pool on the current stream (a MemoryPointer)."""
        return MemoryPointer(MemoryAsync._on_current_stream(self._pools.malloc(int(size))), 0)

    def free_all_blocks(self, stream=None):
        """Returns the memory the pool holds unused to the driver, once ``stream`` (the current one
        when None) has reached the frees queued on it."""
        (_core.get_current_stream() if stream is None else stream).synchronize()
        _core.trim_mem_pool(self._pool(), 0)

    def n_free_blocks(self):
        raise NotImplementedError("This function is not supported in MemoryAsyncPool")

    def used_bytes(self):
        return _core.mem_pool_attribute(self._pool(), _USED_MEM_CURRENT)

    def total_bytes(self):
        return _core.mem_pool_attribute(self._pool(), _RESERVED_MEM_CURRENT)

    def free_bytes(self):
        return self.total_bytes() - self.used_bytes()

    def set_limit(self, size=None, fraction=None):
        """The memory the current device's pool keeps reserved when unused (its release threshold,
        as CuPy sets it): ``size`` bytes or ``fraction`` of the device's memory; 0 or neither
        releases it at every synchronization."""
        _core.set_mem_pool_attribute(self._pool(), _RELEASE_THRESHOLD, _limit_bytes(size, fraction))

    def get_limit(self):
        return _core.mem_pool_attribute(self._pool(), _RELEASE_THRESHOLD)


def _resolve_pool(handle, device):
    if isinstance(handle, str):
        if handle == "default":
            return _core.default_mem_pool(device)
        if handle == "current":
            return _core.current_mem_pool(device)
        if handle == "create":
            raise NotImplementedError("cudaMemPoolCreate is not yet supported")
    elif isinstance(handle, int) and not isinstance(handle, bool):
        if handle == 0:
            raise ValueError("a memory pool handle cannot be 0")
        return handle
    raise ValueError("handle must be 'default' (for the device's default pool), 'current' (for the device's "
                     "current pool), or int (a pointer to cudaMemPool_t)")
