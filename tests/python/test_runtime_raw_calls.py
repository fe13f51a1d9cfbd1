"""cuarray.cuda.runtime's raw calls on integer pointers and handles (CuPy's malloc, memcpy,
memset, stream and event functions), against NumPy copies of random data."""
import numpy as np
import pytest

import cuarray as cp
from cuarray.cuda import runtime


def test_constants_are_the_runtimes():
    assert (runtime.memcpyHostToHost, runtime.memcpyHostToDevice, runtime.memcpyDeviceToHost,
            runtime.memcpyDeviceToDevice, runtime.memcpyDefault) == (0, 1, 2, 3, 4)
    assert (runtime.streamNonBlocking, runtime.eventBlockingSync, runtime.eventDisableTiming,
            runtime.eventInterprocess, runtime.cudaErrorNotReady) == (1, 1, 2, 4, 600)


def test_host_to_host_copy_and_bad_calls(rng):
    src, dst = rng.standard_normal(8), np.zeros(8)
    runtime.memcpy(dst.ctypes.data, src.ctypes.data, src.nbytes, runtime.memcpyHostToHost)
    np.testing.assert_array_equal(dst, src)
    with pytest.raises(runtime.CUDARuntimeError, match="cudaErrorInvalidMemcpyDirection"):
        runtime.memcpy(dst.ctypes.data, src.ctypes.data, 8, 7)
    runtime.free(0)  # as cudaFree(NULL)
    for call, name in [(runtime.free, "malloc"), (runtime.streamDestroy, "streamCreate"),
                       (runtime.eventDestroy, "eventCreate"), (runtime.eventSynchronize, "eventCreate")]:
        with pytest.raises(runtime.CUDARuntimeError, match=name):
            call(0x1234)


@pytest.mark.gpu
def test_malloc_copies_every_way_and_memset(rng):
    host = rng.standard_normal(1000).astype(np.float32)
    a, b = runtime.malloc(host.nbytes), runtime.malloc(host.nbytes)
    try:
        runtime.memcpy(a, host.ctypes.data, host.nbytes, runtime.memcpyHostToDevice)
        runtime.memcpy(b, a, host.nbytes, runtime.memcpyDeviceToDevice)
        back = np.empty_like(host)
        runtime.memcpy(back.ctypes.data, b, host.nbytes, runtime.memcpyDeviceToHost)
        np.testing.assert_array_equal(back, host)
        runtime.memset(b, 0, host.nbytes // 2)
        runtime.memcpy(back.ctypes.data, b, host.nbytes, runtime.memcpyDefault)  # direction from the pointers
        np.testing.assert_array_equal(back[:500], 0)
        np.testing.assert_array_equal(back[500:], host[500:])
        runtime.memcpyPeer(a, 0, b, 0, host.nbytes)  # one device: an ordinary device copy
        runtime.memcpy(back.ctypes.data, a, host.nbytes, runtime.memcpyDeviceToHost)
        np.testing.assert_array_equal(back[:500], 0)
    finally:
        runtime.free(a)
        runtime.free(b)
    with pytest.raises(runtime.CUDARuntimeError, match="not a pointer from"):
        runtime.free(a)  # freed once only


@pytest.mark.gpu
def test_raw_calls_on_cuarrays_memory_see_its_pending_work(rng):
    host = rng.standard_normal(300).astype(np.float32)
    x = cp.asarray(host)
    y = x * 2  # a small launch cuarray may hold back; handing out y's pointer submits it
    back = np.empty_like(host)
    runtime.memcpy(back.ctypes.data, y.data.ptr, y.nbytes, runtime.memcpyDeviceToHost)
    np.testing.assert_array_equal(back, host * 2)
    runtime.memcpy(y.data.ptr, host.ctypes.data, y.nbytes // 2, runtime.memcpyHostToDevice)
    np.testing.assert_array_equal(y.get()[:150], host[:150])
    np.testing.assert_array_equal(y.get()[150:], host[150:] * 2)


@pytest.mark.gpu
def test_streams_and_events(rng):
    host = rng.standard_normal(1 << 20).astype(np.float32)
    device = runtime.malloc(host.nbytes)
    stream = runtime.streamCreateWithFlags(runtime.streamNonBlocking)
    start, end = runtime.eventCreate(), runtime.eventCreate()
    try:
        runtime.eventRecord(start, stream)
        runtime.memcpyAsync(device, host.ctypes.data, host.nbytes, runtime.memcpyHostToDevice, stream)
        runtime.memsetAsync(device, 0, 4, stream)
        runtime.eventRecord(end, stream)
        runtime.streamWaitEvent(cp.cuda.get_current_stream().ptr, end)
        runtime.eventSynchronize(end)
        assert runtime.eventQuery(end) == runtime.cudaSuccess
        assert runtime.eventElapsedTime(start, end) >= 0
        runtime.streamSynchronize(stream)
        assert runtime.streamQuery(stream) == runtime.cudaSuccess
        back = np.empty_like(host)
        runtime.memcpy(back.ctypes.data, device, host.nbytes, runtime.memcpyDeviceToHost)
        assert back[0] == 0
        np.testing.assert_array_equal(back[1:], host[1:])
        ours = cp.cuda.Stream()
        runtime.streamSynchronize(ours.ptr)  # any stream's handle, never destroyed here
        with pytest.raises(runtime.CUDARuntimeError, match="streamCreate"):
            runtime.streamDestroy(ours.ptr)
    finally:
        runtime.eventDestroy(start)
        runtime.eventDestroy(end)
        runtime.streamDestroy(stream)
        runtime.free(device)


@pytest.mark.gpu
def test_managed_allocation_reads_on_the_host(rng):
    host = rng.integers(0, 100, 64).astype(np.int32)
    ptr = runtime.mallocManaged(host.nbytes)
    try:
        runtime.memcpy(ptr, host.ctypes.data, host.nbytes, runtime.memcpyDefault)
        runtime.deviceSynchronize()
        view = np.ctypeslib.as_array((np.ctypeslib.ctypes.c_int32 * 64).from_address(ptr))
        np.testing.assert_array_equal(view, host)
    finally:
        runtime.free(ptr)
    with pytest.raises(runtime.CUDARuntimeError, match="mallocManaged"):
        runtime.mallocManaged(8, flags=3)
