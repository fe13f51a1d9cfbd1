"""CuPy's raw memory calls of cupy.cuda.runtime (malloc, free, mallocManaged, mallocAsync,
freeAsync, memcpy, memcpyAsync, memcpyPeer, memcpyPeerAsync, memset, memsetAsync, the memory pool
calls) and their constants, on integer pointers and handles. An allocation made here lives until free() is given its pointer; copies and fills go
through cuarray's own (which submit any held launches first), on the legacy default stream for
the synchronous calls, as the CUDA runtime's do."""
import ctypes

from .. import _core

memcpyHostToHost = 0
memcpyHostToDevice = 1
memcpyDeviceToHost = 2
memcpyDeviceToDevice = 3
memcpyDefault = 4
cudaMemAttachGlobal = 1
cudaMemAttachHost = 2
# cudaMemPoolAttr (for memPoolGetAttribute / memPoolSetAttribute)
cudaMemPoolReuseFollowEventDependencies = 1
cudaMemPoolReuseAllowOpportunistic = 2
cudaMemPoolReuseAllowInternalDependencies = 3
cudaMemPoolAttrReleaseThreshold = 4
cudaMemPoolAttrReservedMemCurrent = 5
cudaMemPoolAttrReservedMemHigh = 6
cudaMemPoolAttrUsedMemCurrent = 7
cudaMemPoolAttrUsedMemHigh = 8

_LEGACY_STREAM = 0  # the CUDA runtime's stream 0: the legacy default stream
_allocations = {}   # pointer -> the memory object that owns it, until free()


def _error(message):
    """A CUDARuntimeError whose message starts with its cudaError_t name, which gives its status."""
    return _core.CUDARuntimeError(_core.runtime_error_ids[message.split(":", 1)[0]], message)


def malloc(size):
    """size bytes of device memory on the current device (cudaMalloc); free() releases them."""
    memory = _core.alloc_raw(int(size), _core.get_current_device())
    _allocations[memory.ptr] = memory
    return memory.ptr


def mallocManaged(size, flags=cudaMemAttachGlobal):
    """size bytes of managed memory (cudaMallocManaged); free() releases them."""
    if flags not in (cudaMemAttachGlobal, cudaMemAttachHost):
        raise _error(f"cudaErrorInvalidValue: mallocManaged: flags must be cudaMemAttachGlobal or cudaMemAttachHost, "
                     f"not {flags}")
    memory = _core.alloc_managed(int(size), _core.get_current_device())
    _allocations[memory.ptr] = memory
    return memory.ptr


def mallocAsync(size, stream):
    """size bytes from the current device's current memory pool in `stream`'s order
    (cudaMallocAsync); freeAsync() or free() releases them."""
    memory = _core.alloc_stream_ordered(int(size), int(stream))
    _allocations[memory.ptr] = memory
    return memory.ptr


def mallocFromPoolAsync(size, pool, stream):
    """size bytes from the memory pool `pool` (a cudaMemPool_t) in `stream`'s order."""
    memory = _core.alloc_stream_ordered(int(size), int(stream), int(pool))
    _allocations[memory.ptr] = memory
    return memory.ptr


def _take(ptr, call):
    memory = _allocations.pop(int(ptr), None)
    if memory is None:
        raise _error(f"cudaErrorInvalidValue: {call}: {int(ptr):#x} is not a pointer from cuarray.cuda.runtime's "
                     "malloc, mallocManaged, mallocAsync or mallocFromPoolAsync")
    return memory


def free(ptr):
    """Releases memory from malloc(), mallocManaged() or mallocAsync() (cudaFree); a null pointer
    is ignored."""
    if ptr != 0:
        _take(ptr, "free")


def freeAsync(ptr, stream):
    """Releases memory from mallocAsync() in `stream`'s order (cudaFreeAsync)."""
    if ptr == 0:
        return
    memory = _allocations.get(int(ptr))
    if memory is not None:
        try:
            _core.free_on_stream(memory, int(stream))
        except ValueError:
            raise _error(f"cudaErrorInvalidValue: freeAsync: {int(ptr):#x} is not from a stream-ordered "
                         "allocation (mallocAsync)") from None
    _take(ptr, "freeAsync")


def deviceGetDefaultMemPool(device):
    """The default memory pool (cudaMemPool_t, as an int) of `device`."""
    return _core.default_mem_pool(int(device))


def deviceGetMemPool(device):
    """The current memory pool of `device`, which mallocAsync takes its memory from."""
    return _core.current_mem_pool(int(device))


def deviceSetMemPool(device, pool):
    """Makes `pool` the current memory pool of `device`."""
    _core.set_current_mem_pool(int(device), int(pool))


def memPoolTrimTo(pool, size):
    """Returns the pool's unused memory to the driver, keeping at least size bytes reserved."""
    _core.trim_mem_pool(int(pool), int(size))


def memPoolGetAttribute(pool, attr):
    """One of the pool's attributes (cudaMemPoolAttr...)."""
    return _core.mem_pool_attribute(int(pool), int(attr))


def memPoolSetAttribute(pool, attr, value):
    """Sets one of the pool's attributes (the release threshold, a reuse policy, or a high-water mark to 0)."""
    _core.set_mem_pool_attribute(int(pool), int(attr), int(value))


def _device_of(ptr):
    """The device of a device (or managed) pointer; None for host memory."""
    try:
        return _core.pointer_device(int(ptr))
    except _core.CUDARuntimeError:
        return None


def _copy(dst, src, size, kind, stream):
    """Queues the copy (a host-to-host one is done at once); returns whether a device was involved."""
    dst, src, size = int(dst), int(src), int(size)
    if kind == memcpyDefault:  # the pointers say which way (unified addressing)
        kind = {(False, False): memcpyHostToHost, (False, True): memcpyHostToDevice,
                (True, False): memcpyDeviceToHost, (True, True): memcpyDeviceToDevice}[
            (_device_of(src) is not None, _device_of(dst) is not None)]
    if kind == memcpyHostToHost:
        ctypes.memmove(dst, src, size)
        return False
    if kind == memcpyHostToDevice:
        _core.memcpy_htod(dst, src, size, stream)
    elif kind == memcpyDeviceToHost:
        _core.memcpy_dtoh(dst, src, size, stream)
    elif kind == memcpyDeviceToDevice:
        dst_device, src_device = _device_of(dst), _device_of(src)
        if dst_device is None or src_device is None:
            raise _error(f"cudaErrorInvalidValue: memcpy: memcpyDeviceToDevice from {src:#x} to {dst:#x}, and "
                         f"{src if src_device is None else dst:#x} is not device memory")
        _core.memcpy_dtod(dst, dst_device, src, src_device, size, stream)
    else:
        raise _error(f"cudaErrorInvalidMemcpyDirection: memcpy: kind {kind} is not one of memcpyHostToHost (0) to "
                     "memcpyDefault (4)")
    return True


def memcpy(dst, src, size, kind):
    """Copies size bytes from src to dst (cudaMemcpy): done when it returns."""
    if _copy(dst, src, size, kind, _LEGACY_STREAM):
        _core.StreamHandle.null().synchronize()


def memcpyAsync(dst, src, size, kind, stream):
    """Copies size bytes from src to dst in `stream`'s order (cudaMemcpyAsync)."""
    _copy(dst, src, size, kind, int(stream))


def memcpyPeer(dst, dstDevice, src, srcDevice, size):
    """Copies size bytes between two devices' memory (cudaMemcpyPeer): done when it returns."""
    _core.memcpy_dtod(int(dst), int(dstDevice), int(src), int(srcDevice), int(size), _LEGACY_STREAM)
    _core.StreamHandle.null().synchronize()


def memcpyPeerAsync(dst, dstDevice, src, srcDevice, size, stream):
    """Copies size bytes between two devices' memory in `stream`'s order (cudaMemcpyPeerAsync)."""
    _core.memcpy_dtod(int(dst), int(dstDevice), int(src), int(srcDevice), int(size), int(stream))


def memset(ptr, value, size):
    """Sets size bytes at ptr to the byte value (cudaMemset): done when it returns."""
    _core.memset_device(int(ptr), int(value), int(size), _LEGACY_STREAM)
    _core.StreamHandle.null().synchronize()


def memsetAsync(ptr, value, size, stream):
    """Sets size bytes at ptr to the byte value in `stream`'s order (cudaMemsetAsync)."""
    _core.memset_device(int(ptr), int(value), int(size), int(stream))
