"""cuarray.cuda: devices, runtime calls, streams, events, the device memory pool (accounting, limit,
OutOfMemoryError) and the pinned host pool."""
import re

import numpy as np
import pytest

import cuarray as cp

from helpers import assert_array_equal_np, random_array, run_in_threads

pytestmark = pytest.mark.gpu

MiB = 1 << 20


def _same_stream(a, b):
    if a is b:
        return True
    ptr_a, ptr_b = getattr(a, "ptr", None), getattr(b, "ptr", None)
    return ptr_a is not None and ptr_a == ptr_b


def _busy_work(n=1 << 24):
    """Enough device work that an event pair measures a positive time."""
    x = cp.ones(n, dtype=np.float32)
    for _ in range(10):
        x = x * 1.0001 + 0.5
    return x


# --- devices and runtime ------------------------------------------------------------------------------

def test_device_count_and_synchronize():
    assert cp.cuda.runtime.getDeviceCount() >= 1
    assert cp.cuda.runtime.deviceSynchronize() is None


def test_device_context_manager():
    dev = cp.cuda.Device(0)
    assert dev.id == 0
    with dev as entered:
        assert (entered if entered is not None else dev).id == 0
        x = cp.arange(10)
        assert x.device.id == 0
        assert cp.cuda.Device().id == 0
    dev.synchronize()


def test_compute_capability_string():
    cc = cp.cuda.Device(0).compute_capability
    assert isinstance(cc, str) and re.fullmatch(r"\d{2,3}", cc), cc
    assert int(cc) >= 50


def test_bad_device_id_raises_with_cudas_status():
    count = cp.cuda.runtime.getDeviceCount()
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="invalid device ordinal") as raised:
        with cp.cuda.Device(count + 7):
            cp.zeros(3)
    assert raised.value.status == cp.cuda.runtime.cudaErrorInvalidDevice


def test_failed_driver_call_carries_its_cuResult():
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_NOT_FOUND") as raised:
        cp.RawModule(code='extern "C" __global__ void k() {}').get_function("no_such_kernel")
    assert raised.value.status == 500  # CUDA_ERROR_NOT_FOUND


def test_operands_on_different_devices_raise_value_error():
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs 2 GPUs")
    with cp.cuda.Device(0):
        a = cp.ones(8)
    with cp.cuda.Device(1):
        b = cp.ones(8)
        assert b.device.id == 1
    with pytest.raises(ValueError):
        a + b


# --- streams and events ------------------------------------------------------------------------------------

def test_null_stream_and_current_stream():
    null = cp.cuda.Stream.null
    null.synchronize()
    assert _same_stream(cp.cuda.get_current_stream(), null)


def test_with_stream_sets_current_stream(rng):
    before = cp.cuda.get_current_stream()
    stream = cp.cuda.Stream(non_blocking=True)
    host = random_array((1000,), np.float64, rng)
    with stream:
        assert _same_stream(cp.cuda.get_current_stream(), stream)
        g = cp.asarray(host) * 2.0 + 1.0
        inner = cp.cuda.Stream()
        with inner:
            assert _same_stream(cp.cuda.get_current_stream(), inner)
        assert _same_stream(cp.cuda.get_current_stream(), stream)
    stream.synchronize()
    assert _same_stream(cp.cuda.get_current_stream(), before)
    assert_array_equal_np(g, host * 2.0 + 1.0)


def test_per_thread_default_stream(rng):
    assert cp.cuda.Stream.null.ptr == 0
    assert cp.cuda.Stream.ptds.ptr == 2 == cp.cuda.Stream(null=True, ptds=True).ptr  # CU_STREAM_PER_THREAD
    assert cp.cuda.Stream(ptds=True).ptr not in (0, 2)  # ptds applies to the null stream only (CuPy)
    hosts = [random_array((1 << 16,), np.float32, rng) for _ in range(2)]
    results = {}
    cp.cuda.flush_launches()  # what earlier tests left held on device 0

    def work(i):
        with cp.cuda.Stream.ptds:
            assert cp.cuda.get_current_stream().ptr == 2
            for _ in range(50):  # blocks freed on one thread's stream must not race the other's
                y = cp.asarray(hosts[i]) * 3.0 + i
                # never held: another thread's launch could submit the queue onto its own stream 2
                assert cp._core.held_launches(0) == 0 or not cp.cuda.launch_batching()
            results[i] = y.get()

    run_in_threads(work, 2)
    for i in range(2):
        np.testing.assert_array_equal(results[i], hosts[i] * np.float32(3.0) + np.float32(i))


def test_external_stream_uses_and_never_destroys_the_owners_stream(rng):
    owner = cp.cuda.Stream(non_blocking=True)
    host = random_array((1000,), np.float64, rng)
    external = cp.cuda.ExternalStream(owner.ptr)
    assert isinstance(external, cp.cuda.Stream)
    assert external.ptr == owner.ptr and external.device_id == 0
    assert cp.cuda.ExternalStream(owner.ptr, device_id=0) == external
    with external:
        assert cp.cuda.get_current_stream().ptr == owner.ptr
        y = cp.asarray(host) * 2.0
    external.synchronize()
    del external  # the owner's stream lives on
    with owner:
        z = y + 1.0
    owner.synchronize()
    assert_array_equal_np(z, host * 2.0 + 1.0)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="invalid device ordinal"):
        cp.cuda.ExternalStream(owner.ptr, device_id=cp.cuda.runtime.getDeviceCount())


def test_external_stream_of_torch_keeps_stream_order(rng):
    torch = pytest.importorskip("torch")
    stream = torch.cuda.Stream()
    host = random_array((1 << 20,), np.float32, rng)
    with torch.cuda.stream(stream):
        t = torch.as_tensor(host, device="cuda")
        for _ in range(20):  # keeps the stream busy, so an unordered read would see old values
            t = t * 1.0
        t = t + 1.0
    with cp.cuda.ExternalStream(stream.cuda_stream):
        y = cp.from_dlpack(t) * 2.0  # no synchronize: the external stream orders it after torch's work
    stream.synchronize()
    np.testing.assert_allclose(y.get(), (host + np.float32(1.0)) * np.float32(2.0), rtol=1e-6)


def test_get_current_stream_of_another_device():
    stream = cp.cuda.Stream()
    with stream:
        assert cp.cuda.get_current_stream(0).ptr == stream.ptr
        assert cp.cuda.get_current_stream(-1).ptr == stream.ptr
    if cp.cuda.runtime.getDeviceCount() > 1:
        with cp.cuda.Device(1):
            other = cp.cuda.Stream()
            other.use()
        try:
            assert cp.cuda.get_current_stream(1).ptr == other.ptr
            assert cp.cuda.get_current_stream().ptr == 0  # device 0's stream is unchanged
            assert cp.cuda.Device().id == 0
        finally:
            with cp.cuda.Device(1):
                cp.cuda.Stream.null.use()


def test_stream_record_returns_event():
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        _busy_work()
    event = stream.record()
    assert isinstance(event, cp.cuda.Event)
    event.synchronize()
    assert event.query() is True


def test_event_timing():
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    x = _busy_work()
    stop.record()
    stop.synchronize()
    assert stop.query() is True
    elapsed = cp.cuda.get_elapsed_time(start, stop)
    assert isinstance(elapsed, float) and elapsed > 0
    assert float(x[0]) > 1.0


def test_event_query_before_completion_is_bool():
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        _busy_work(1 << 26)
        event = cp.cuda.Event()
        event.record()
    assert isinstance(event.query(), bool)
    event.synchronize()
    assert event.query() is True


# --- memory pools ----------------------------------------------------------------------------------------------

def test_memory_pool_accounting():
    pool = cp.cuda.get_default_memory_pool()
    cp.cuda.runtime.deviceSynchronize()
    before = pool.used_bytes()
    a = cp.empty(64 * MiB, dtype=np.uint8)
    assert pool.used_bytes() - before >= 64 * MiB
    assert pool.total_bytes() >= pool.used_bytes()
    del a
    assert pool.used_bytes() <= before
    assert pool.total_bytes() >= pool.used_bytes()


def test_free_all_blocks():
    pool = cp.cuda.get_default_memory_pool()
    keep = cp.ones(MiB, dtype=np.float32)
    tmp = cp.ones(16 * MiB, dtype=np.float32)
    del tmp
    cp.cuda.runtime.deviceSynchronize()
    assert pool.total_bytes() > pool.used_bytes()  # the freed block stays cached
    pool.free_all_blocks()
    assert pool.total_bytes() == pool.used_bytes()
    assert float(keep[5]) == 1.0


def test_set_limit_and_out_of_memory_error():
    pool = cp.cuda.get_default_memory_pool()
    old_limit = pool.get_limit() if hasattr(pool, "get_limit") else 0
    request = 1 << 30  # 1 GiB, a round size the allocator need not pad
    try:
        pool.set_limit(size=pool.used_bytes() + 64 * MiB)
        small = cp.ones(MiB, dtype=np.uint8)  # well below the limit: fine
        with pytest.raises(cp.cuda.memory.OutOfMemoryError) as info:
            cp.empty(request, dtype=np.uint8)
        assert isinstance(info.value, MemoryError)
        digits = re.sub(r"[,_\s]", "", str(info.value))
        assert str(request) in digits or re.search(r"1(\.0+)?\s*GiB|1024(\.0+)?\s*MiB", str(info.value)), (
            f"the message should name the requested size ({request} bytes): {info.value}")
        assert float(small[0]) == 1.0
    finally:
        pool.set_limit(size=old_limit)
    big = cp.empty(request, dtype=np.uint8)  # the limit is gone again
    del big


def test_pinned_memory_pool_exists():
    pinned = cp.cuda.get_default_pinned_memory_pool()
    assert pinned is not None
    assert callable(getattr(pinned, "free_all_blocks", None))
    pinned.free_all_blocks()
