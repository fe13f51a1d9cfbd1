"""Several devices in one process (CuPy's rules): an array lives on the device that was current when
it was made; an operation runs on the current device and refuses, with a ValueError naming both
devices, an array of another; copies across devices (asarray, array, ndarray.copy, to_device, get,
set) move the data peer to peer, ordered after the source device's pending work and before its
later work; pools, streams and kernel caches serve threads bound to different devices at once.

The one-device parts run on any GPU machine; the rest need two GPUs and skip with that reason."""
import re
import threading

import numpy as np
import pytest

import cuarray as cp

from helpers import gpu_unavailable_reason


def _device_count():
    return 0 if gpu_unavailable_reason() is not None else cp.cuda.runtime.getDeviceCount()


pytestmark = pytest.mark.gpu
needs_two_gpus = pytest.mark.skipif("_device_count() < 2", reason="needs two or more GPUs")
MISMATCH = r"is on device (0|1) and the current device is (0|1)"


def test_arrays_live_on_the_current_device(rng):
    for d in range(_device_count()):
        with cp.cuda.Device(d):
            x = cp.asarray(rng.standard_normal(100))
            y = cp.sin(x) + 1
            assert x.device.id == d and y.device.id == d and y.data.device_id == d
            np.testing.assert_allclose(y.get(), np.sin(x.get()) + 1)


def test_same_device_moves_are_no_copies(rng):
    x = cp.asarray(rng.standard_normal((4, 5)))
    assert cp.asarray(x) is x
    assert x.to_device(x.device) is x
    y = x.copy()
    assert y.data.ptr != x.data.ptr and y.device == x.device


@needs_two_gpus
@pytest.mark.parametrize("op", [
    lambda a, b: a + b,
    lambda a, b: a @ b,
    lambda a, b: cp.where(a > 0, a, b),
])
def test_mixing_devices_raises_naming_both(op, rng):
    with cp.cuda.Device(0):
        a = cp.asarray(rng.standard_normal((8, 8)))
    with cp.cuda.Device(1):
        b = cp.asarray(rng.standard_normal((8, 8)))
        with pytest.raises(ValueError, match=MISMATCH):
            op(a, b)
    with cp.cuda.Device(0), pytest.raises(ValueError, match=MISMATCH):
        op(a, b)


@needs_two_gpus
@pytest.mark.parametrize("op", [lambda a: a.sum(), lambda a: a.max(axis=0), lambda a: a.mean(axis=1)])
def test_reductions_refuse_an_array_of_another_device(op, rng):
    with cp.cuda.Device(0):
        a = cp.asarray(rng.standard_normal((6, 7)))
    with cp.cuda.Device(1), pytest.raises(ValueError, match=MISMATCH):
        op(a)


def _as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


@needs_two_gpus
@pytest.mark.parametrize("op", [
    lambda a: a.cumsum(),
    lambda a: cp.sort(a, axis=None),
    lambda a: a[0].argsort(),
    lambda a: a.take(cp.asarray([0, 2])),
    lambda a: a[a > 0],
    lambda a: a.nonzero(),
    lambda a: cp.searchsorted(cp.sort(a[0]), a[1]),
    lambda a: cp.median(a, axis=0),
    lambda a: cp.histogram(a, bins=4),
    lambda a: cp.pad(a, 1),
    lambda a: cp.random.default_rng(1).permuted(a, axis=1),
    lambda a: cp.concatenate([a, a[:2]]),
])
def test_operations_refuse_or_move_an_array_of_another_device(op, rng):
    """Every engine (scan, sort, gather, select, search, histograms, pad, random) checks its operands:
    a kernel on device 1 handed device 0's pointers would fault or crawl over the link. Functions
    that take array-likes move the array first (asarray, as CuPy's do); either way the answer is
    right and lives on the current device."""
    with cp.cuda.Device(0):
        a = cp.asarray(rng.standard_normal((6, 7)))
        expected = _as_tuple(op(a))  # runs where the array lives
    with cp.cuda.Device(1):
        try:
            got = _as_tuple(op(a))
        except ValueError as exc:
            assert re.search(MISMATCH, str(exc)), exc
            return
        for e, g in zip(expected, got):
            assert g.device.id == 1
            np.testing.assert_array_equal(cp.asnumpy(e), cp.asnumpy(g))


@needs_two_gpus
@pytest.mark.parametrize("src, dst", [(0, 1), (1, 0)])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_copies_across_devices(src, dst, layout, rng):
    host = rng.standard_normal((37, 53)).astype(np.float32)
    with cp.cuda.Device(src):
        x = cp.asarray(host, order="F" if layout == "F" else "C")
        if layout == "strided":
            x, host = x[::2, ::-3], host[::2, ::-3]
    with cp.cuda.Device(dst):
        moved = [cp.asarray(x), cp.array(x), x.copy(), x.copy(order="F"), cp.array(x, dtype=np.float64),
                 x.to_device(cp.cuda.Device(dst))]
        for y in moved:
            assert y.device.id == dst and y.data.device_id == dst
            np.testing.assert_array_equal(y.get(), host)
            np.testing.assert_array_equal((y * 2).get(), host * 2)  # usable by kernels on dst
        assert moved[3].flags.f_contiguous
        if layout == "F":
            assert moved[0].flags.f_contiguous  # asarray keeps an F-contiguous layout (order K)
        assert x.get().tolist() == host.tolist()  # get() from another current device
    assert x.device.id == src


@needs_two_gpus
@pytest.mark.parametrize("make", [cp.asarray, cp.array])
def test_copy_false_refuses_a_move(make, rng):
    with cp.cuda.Device(0):
        x = cp.asarray(rng.standard_normal(10))
    with cp.cuda.Device(1), pytest.raises(ValueError, match="Unable to avoid copy .* on device 0"):
        make(x, copy=False)


@needs_two_gpus
@pytest.mark.parametrize("current", [0, 1])
def test_memory_pointer_copy_between_devices(current, rng):
    """CuPy's MemoryPointer.copy_from_device_async: on the current device's stream by default, which
    may be the source's rather than the destination's."""
    host = rng.standard_normal(1000)
    with cp.cuda.Device(0):
        src = cp.asarray(host) * 1  # written by a kernel still in flight
    with cp.cuda.Device(1):
        dst = cp.empty(1000)
    with cp.cuda.Device(current):
        dst.data.copy_from_device_async(src.data, src.nbytes)
        cp.cuda.Stream.null.synchronize()
    np.testing.assert_array_equal(dst.get(), host)
    with cp.cuda.Device(0):
        stream = cp.cuda.Stream()
    back = cp.empty(1000)  # on device 0
    with cp.cuda.Device(1):
        back.data.copy_from_device_async(dst.data, dst.nbytes, stream)  # a stream of device 0
    stream.synchronize()
    np.testing.assert_array_equal(back.get(), host)


@needs_two_gpus
def test_set_from_host_under_another_device(rng):
    host = rng.standard_normal(1000)
    with cp.cuda.Device(0):
        x = cp.empty(1000)
    with cp.cuda.Device(1):
        x.set(host)
    np.testing.assert_array_equal(x.get(), host)


@needs_two_gpus
@pytest.mark.parametrize("src, dst", [(0, 1), (1, 0)])
def test_peer_copy_waits_for_the_source_device(src, dst):
    """The copy is issued on the destination's stream; the source's writes are still running on its
    device when it is issued (a long kernel chain, no synchronize)."""
    n = 1 << 26
    with cp.cuda.Device(src):
        x = cp.zeros(n, dtype=np.float32)
        for _ in range(20):
            x += 1
    with cp.cuda.Device(dst):
        y = cp.asarray(x)
        assert float(y.min()) == 20.0 and float(y.max()) == 20.0


@needs_two_gpus
def test_peer_copy_source_memory_is_not_reused_too_early():
    """The source of a move is a temporary (a strided view made contiguous); its memory returns to the
    source device's pool at once. Work queued on the source device next must not overwrite it before
    the copy on the destination's stream has read it."""
    n = 1 << 25
    with cp.cuda.Device(0):
        base = cp.arange(2 * n, dtype=np.float32)
        view = base[::2]  # the move copies it into a temporary first
    with cp.cuda.Device(1):
        moved = cp.asarray(view)
    with cp.cuda.Device(0):
        for _ in range(4):  # reuse the temporary's block right away, on device 0's stream
            junk = cp.full(n, -1.0, dtype=np.float32)
            del junk
    with cp.cuda.Device(1):
        expected = np.arange(0, 2 * n, 2, dtype=np.float32)
        np.testing.assert_array_equal(moved.get(), expected)


@needs_two_gpus
def test_threads_bound_to_different_devices(rng):
    """Each thread makes its device current once and works there: its own pool, stream and kernel
    cache entries (a RawKernel and an ElementwiseKernel compiled per device)."""
    source = r'''extern "C" __global__ void twice(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = 2.0f * x[i];
    }'''
    raw = cp.RawKernel(source, "twice")
    axpy = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "mt_axpy")
    hosts = [rng.standard_normal(4097).astype(np.float32) for _ in range(2)]
    results, errors = {}, []

    def work(d):
        try:
            cp.cuda.Device(d).use()
            stream = cp.cuda.Stream(non_blocking=True)
            with stream:
                x = cp.asarray(hosts[d])
                y = cp.empty_like(x)
                raw(((x.size + 255) // 256,), (256,), (x, y, np.int32(x.size)))
                z = axpy(np.float32(3), x, y)
                total = z.sum()
                stream.synchronize()
            assert x.device.id == d and z.device.id == d
            results[d] = (z.get(), float(total), cp.get_default_memory_pool().used_bytes())
        except Exception as exc:  # reported by the main thread
            errors.append(exc)

    for _ in range(3):
        threads = [threading.Thread(target=work, args=(d,)) for d in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        for d in (0, 1):
            z, total, used = results[d]
            np.testing.assert_allclose(z, 5 * hosts[d], rtol=1e-6)
            np.testing.assert_allclose(total, (5 * hosts[d].astype(np.float64)).sum(), rtol=1e-4, atol=1e-3)
            assert used > 0
