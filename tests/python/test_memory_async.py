"""Stream-ordered memory (CuPy's malloc_async, MemoryAsync, MemoryAsyncPool, runtime.mallocAsync
and the memory pool calls) and allocators over another library's functions (PythonFunctionAllocator,
CFunctionAllocator): values on random data, the pools' accounting, streams that die before their
memory, CuPy's errors."""
import ctypes
import gc
import threading

import numpy as np
import pytest

import cuarray as cp
from helpers import assert_array_equal_np, random_array

gpu = pytest.mark.gpu
runtime = cp.cuda.runtime


@pytest.fixture
def restore_allocators():
    yield
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)


def _fake_allocations():
    """malloc/free over addresses that are never dereferenced, recording the calls."""
    calls = []

    def malloc(size, device):
        calls.append(("malloc", size, device))
        return (1 << 40) + 256 * len(calls)

    def free(ptr, device):
        calls.append(("free", ptr, device))
    return calls, malloc, free


# ---- host: the function allocators ---------------------------------------------------------------

def test_python_function_allocator_frees_when_the_last_user_dies():
    calls, malloc, free = _fake_allocations()
    allocator = cp.cuda.PythonFunctionAllocator(malloc, free)
    p = allocator.malloc(1000)
    assert isinstance(p, cp.cuda.MemoryPointer) and isinstance(p.mem, cp.cuda.memory.PythonFunctionAllocatorMemory)
    assert (p.mem.size, p.device_id) == (1000, cp.cuda.Device().id)
    view = p + 24
    address = p.ptr
    del p
    gc.collect()
    assert calls == [("malloc", 1000, view.device_id)]  # the offset pointer still holds the memory
    del view
    gc.collect()
    assert calls[-1] == ("free", address, calls[0][2])
    assert cp.cuda.PythonFunctionAllocator(malloc, free).malloc(0).ptr == 0 and len(calls) == 2  # 0 bytes: no call


def test_python_function_allocator_errors():
    with pytest.raises(cp.cuda.OutOfMemoryError, match="Out of memory allocating 64 bytes"):
        cp.cuda.PythonFunctionAllocator(lambda size, device: 0, lambda ptr, device: None).malloc(64)
    assert issubclass(cp.cuda.OutOfMemoryError, MemoryError)

    def refuse(size, device):
        raise RuntimeError("the other library refused")
    with pytest.raises(RuntimeError, match="refused"):
        cp.cuda.PythonFunctionAllocator(refuse, lambda ptr, device: None).malloc(64)


def test_c_function_allocator_calls_its_functions_with_param():
    malloc_type = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    free_type = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
    calls = []
    c_malloc = malloc_type(lambda param, size, device: calls.append(("malloc", param, size, device)) or (1 << 41))
    c_free = free_type(lambda param, ptr, device: calls.append(("free", param, ptr, device)))
    owner = [c_malloc, c_free]
    allocator = cp.cuda.CFunctionAllocator(0x1234, ctypes.cast(c_malloc, ctypes.c_void_p).value,
                                           ctypes.cast(c_free, ctypes.c_void_p).value, owner)
    p = allocator.malloc(96)
    assert p.ptr == 1 << 41 and isinstance(p.mem, cp.cuda.memory.CFunctionAllocatorMemory)
    del p
    gc.collect()
    device = cp.cuda.Device().id
    assert calls == [("malloc", 0x1234, 96, device), ("free", 0x1234, 1 << 41, device)]


def test_set_limit_arguments_are_checked_as_cupy_checks_them():
    pool = cp.cuda.MemoryPool()
    with pytest.raises(ValueError, match="size and fraction cannot be specified at one time"):
        pool.set_limit(size=10, fraction=0.1)
    with pytest.raises(ValueError, match="memory limit size out of range"):
        pool.set_limit(size=-1)
    with pytest.raises(ValueError, match="memory limit fraction out of range"):
        pool.set_limit(fraction=-0.5)


def test_memory_async_names_are_cupys():
    for name in ("MemoryAsync", "MemoryAsyncPool", "malloc_async", "PythonFunctionAllocator", "CFunctionAllocator"):
        assert getattr(cp.cuda, name) is getattr(cp.cuda.memory, name)
    for name in ("mallocAsync", "mallocFromPoolAsync", "freeAsync", "deviceGetDefaultMemPool", "deviceGetMemPool",
                 "deviceSetMemPool", "memPoolTrimTo", "memPoolGetAttribute", "memPoolSetAttribute"):
        assert callable(getattr(runtime, name))
    assert (runtime.cudaMemPoolAttrReleaseThreshold, runtime.cudaMemPoolAttrUsedMemCurrent,
            runtime.cudaDevAttrMemoryPoolsSupported) == (4, 7, 115)


# ---- GPU: stream-ordered memory ----------------------------------------------------------------------

@gpu
def test_malloc_async_holds_an_array(rng):
    host = random_array((513,), np.float64, rng)
    p = cp.cuda.malloc_async(host.nbytes)
    assert isinstance(p.mem, cp.cuda.MemoryAsync) and p.mem.size == host.nbytes
    assert p.mem.stream == cp.cuda.get_current_stream().ptr
    a = cp.ndarray(host.shape, host.dtype, p)
    a[...] = cp.asarray(host)
    assert_array_equal_np(a[::-2] * 3, host[::-2] * 3)
    with cp.cuda.Stream(non_blocking=True) as stream:
        mem = cp.cuda.MemoryAsync(64, stream.ptr)
        assert mem.stream == stream.ptr and mem.size == 64 and mem.device_id == cp.cuda.Device().id
    assert cp.cuda.malloc_async(0).mem.size == 0


@gpu
def test_memory_async_pool_serves_every_allocation(restore_allocators, rng):
    pool = cp.cuda.MemoryAsyncPool()
    default = cp.get_default_memory_pool()
    host = random_array((300, 200), np.float32, rng)
    cp.cuda.set_allocator(pool.malloc)
    assert cp.cuda.get_allocator() == pool.malloc
    a = cp.asarray(host)
    (a.T @ a)[::3] + a.sum(axis=0)  # cuBLAS's workspace, kept with its handle, now comes from the pool
    del a
    gc.collect()
    cp.cuda.Device().synchronize()
    used_before, default_used = pool.used_bytes(), default.used_bytes()
    a = cp.asarray(host)
    b = (a.T @ a)[::3] + a.sum(axis=0)  # a reduction and elementwise temporaries
    assert pool.used_bytes() >= used_before + host.nbytes
    assert default.used_bytes() <= default_used  # nothing from cuarray's own pool
    assert pool.total_bytes() >= pool.used_bytes() and pool.free_bytes() == pool.total_bytes() - pool.used_bytes()
    ref = (host.T @ host)[::3] + host.sum(axis=0)
    np.testing.assert_allclose(cp.asnumpy(b), ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())
    assert isinstance(cp.cuda.alloc(128).mem, cp.cuda.MemoryAsync)
    del a, b
    gc.collect()
    pool.free_all_blocks()
    assert pool.used_bytes() == used_before
    with pytest.raises(NotImplementedError, match="not supported in MemoryAsyncPool"):
        pool.n_free_blocks()


@gpu
def test_memory_async_pool_on_a_stream_that_dies_first(restore_allocators, rng):
    pool = cp.cuda.MemoryAsyncPool()
    host = random_array((1 << 16,), np.int32, rng)
    cp.cuda.set_allocator(pool.malloc)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        a = cp.asarray(host)
        b = a * 3 - 7
    stream.synchronize()
    del stream
    gc.collect()  # the stream is destroyed before b's memory is freed
    assert_array_equal_np(b, host * 3 - 7)
    del a, b
    gc.collect()
    cp.cuda.Device().synchronize()


@gpu
def test_memory_async_pool_for_one_thread(restore_allocators, rng):
    pool = cp.cuda.MemoryAsyncPool()
    host = random_array((1 << 20,), np.float32, rng)
    seen = []

    def work():
        with cp.cuda.using_allocator(pool.malloc):
            used = pool.used_bytes()
            x = cp.asarray(host) * 2
            seen.append((pool.used_bytes() - used, cp.asnumpy(x)))
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen[0][0] >= host.nbytes  # the product (the copy is freed, on the stream, once it is used)
    np.testing.assert_array_equal(seen[0][1], host * 2)
    cp.cuda.Device().synchronize()
    used = pool.used_bytes()
    y = cp.asarray(host)  # this thread keeps cuarray's own pool
    assert pool.used_bytes() == used
    del y


@gpu
def test_memory_async_pool_limits_and_handles():
    device = cp.cuda.Device().id
    pool = cp.cuda.MemoryAsyncPool("default")
    assert runtime.deviceGetMemPool(device) == runtime.deviceGetDefaultMemPool(device)
    pool.set_limit(size=1 << 24)
    assert pool.get_limit() == 1 << 24
    pool.set_limit(fraction=0.25)
    assert pool.get_limit() == int(0.25 * cp.cuda.Device().mem_info[1])
    pool.set_limit()
    assert pool.get_limit() == 0
    with pytest.raises(ValueError, match="fraction out of range"):
        pool.set_limit(fraction=1.5)
    with pytest.raises(ValueError, match="size and fraction cannot be specified at one time"):
        pool.set_limit(size=10, fraction=0.1)
    with pytest.raises(ValueError, match="size out of range"):
        pool.set_limit(size=-1)
    count = runtime.getDeviceCount()
    same = cp.cuda.MemoryAsyncPool([runtime.deviceGetDefaultMemPool(d) for d in range(count)])
    assert same.malloc(256).mem.size == 256
    with pytest.raises(ValueError, match="entries for"):
        cp.cuda.MemoryAsyncPool(["current"] * (count + 1))
    with pytest.raises(NotImplementedError, match="cudaMemPoolCreate"):
        cp.cuda.MemoryAsyncPool("create")
    with pytest.raises(ValueError, match="handle must be"):
        cp.cuda.MemoryAsyncPool("mine")


@gpu
def test_memory_async_pool_out_of_memory():
    pool = cp.cuda.MemoryAsyncPool()
    total = cp.cuda.Device().mem_info[1]
    with pytest.raises(cp.cuda.OutOfMemoryError, match="Out of memory allocating"):
        pool.malloc(4 * total)
    p = pool.malloc(1 << 20)  # the pool still serves
    assert p.mem.size == 1 << 20


@gpu
def test_runtime_stream_ordered_calls(rng):
    device = cp.cuda.Device().id
    stream = cp.cuda.Stream(non_blocking=True)
    host = random_array((1000,), np.uint8, rng)
    ptr = runtime.mallocAsync(host.nbytes, stream.ptr)
    runtime.memcpyAsync(ptr, host.ctypes.data, host.nbytes, runtime.memcpyHostToDevice, stream.ptr)
    back = np.zeros_like(host)
    runtime.memcpyAsync(back.ctypes.data, ptr, host.nbytes, runtime.memcpyDeviceToHost, stream.ptr)
    stream.synchronize()
    np.testing.assert_array_equal(back, host)
    pool = runtime.deviceGetDefaultMemPool(device)
    runtime.freeAsync(ptr, stream.ptr)
    stream.synchronize()
    other = runtime.mallocFromPoolAsync(4096, pool, 0)
    assert runtime.memPoolGetAttribute(pool, runtime.cudaMemPoolAttrUsedMemCurrent) >= 4096
    runtime.memsetAsync(other, 7, 4096, 0)
    runtime.free(other)
    runtime.memPoolSetAttribute(pool, runtime.cudaMemPoolAttrUsedMemHigh, 0)
    runtime.memPoolTrimTo(pool, 0)
    plain = runtime.malloc(64)
    with pytest.raises(runtime.CUDARuntimeError, match="not from a stream-ordered allocation"):
        runtime.freeAsync(plain, 0)
    runtime.free(plain)
    with pytest.raises(runtime.CUDARuntimeError, match="unknown memory pool attribute"):
        runtime.memPoolGetAttribute(pool, 42)
    runtime.deviceSetMemPool(device, pool)
    assert runtime.deviceGetMemPool(device) == pool
    assert runtime.deviceGetAttribute(runtime.cudaDevAttrMemoryPoolsSupported, device) == 1


@gpu
def test_python_function_allocator_serves_arrays(restore_allocators, rng):
    live = {}

    def malloc(size, device):
        ptr = runtime.malloc(size)
        live[ptr] = (size, device)
        return ptr

    def free(ptr, device):
        assert live.pop(ptr)[1] == device
        runtime.free(ptr)
    host = random_array((77, 33), np.complex64, rng)
    cp.cuda.set_allocator(cp.cuda.PythonFunctionAllocator(malloc, free).malloc)
    a = cp.asarray(host)
    b = cp.conj(a[:, ::2]) * 2
    assert live
    assert_array_equal_np(b, np.conj(host[:, ::2]) * 2)
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    del a, b
    gc.collect()
    assert not live
