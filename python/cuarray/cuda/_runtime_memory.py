"""CuPy's raw memory calls of cupy.cuda.runtime (malloc, free, mallocManaged, memcpy,
memcpyAsync, memcpyPeer, memcpyPeerAsync, memset, memsetAsync) and their constants, on integer
pointers. An allocation made here lives until free() is given its pointer; copies and fills go
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

_LEGACY_STREAM = 0  # the CUDA runtime's stream 0: the legacy default stream
_allocations = {}   # pointer -> the memory object that owns it, until free()


def _error(message):
    return _core.CUDARuntimeError(message)


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


def free(ptr):
    """Releases memory from malloc() or mallocManaged() (cudaFree); a null pointer is ignored."""
    if ptr == 0:
        return
    if _allocations.pop(int(ptr), None) is None:
        raise _error(f"cudaErrorInvalidValue: free: {int(ptr):#x} is not a pointer from cuarray.cuda.runtime.malloc")


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
