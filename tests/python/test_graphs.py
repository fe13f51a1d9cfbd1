"""Stream capture into CUDA graphs (CuPy's Stream.begin_capture / end_capture / is_capturing and
cuda.Graph): replays against NumPy on random data, inputs changed between replays, memory the
graph keeps (arrays made after the capture must not share it), launch batching around a capture,
invalidated captures and CuPy's errors."""
import gc

import numpy as np
import pytest

import cuarray as cp
from helpers import assert_allclose_np, assert_array_equal_np, random_array

gpu = pytest.mark.gpu


def test_graph_names_and_host_errors():
    assert cp.cuda.Graph is cp.cuda.graph.Graph
    with pytest.raises(NotImplementedError, match="must be created via stream capture"):
        cp.cuda.Graph()
    assert (cp.cuda.runtime.streamCaptureModeGlobal, cp.cuda.runtime.streamCaptureModeThreadLocal,
            cp.cuda.runtime.streamCaptureModeRelaxed) == (0, 1, 2)
    with pytest.raises(RuntimeError, match="cannot capture on the default"):
        cp.cuda.runtime.streamBeginCapture(0)


def _captured(make, mode=None):
    """Runs `make` once on a new non-blocking stream (compiling its kernels, filling the pool's
    cache, making cuBLAS's handle), then captures a second run: (stream, graph, what it returned)."""
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        make()
        stream.synchronize()
        assert not stream.is_capturing()
        stream.begin_capture(mode)
        assert stream.is_capturing()
        made = make()
        graph = stream.end_capture()
        assert not stream.is_capturing()
    return stream, graph, made


def _step(x, w):
    """Small kernels (each would be held by launch batching) and a reduction; new arrays each time."""
    y = cp.tanh(x @ w) * 0.5 + x[:, :1]
    return y, y.sum(axis=0)


@gpu
def test_capture_replays_with_new_inputs(rng):
    host_x = random_array((64, 32), np.float32, rng, low=-1, high=1)
    host_w = random_array((32, 32), np.float32, rng, low=-1, high=1)
    x, w = cp.asarray(host_x), cp.asarray(host_w)
    stream, graph, (y, total) = _captured(lambda: _step(x, w))
    assert isinstance(graph, cp.cuda.Graph)
    for round_ in range(3):
        host_x = random_array((64, 32), np.float32, rng, low=-1, high=1)
        x[...] = cp.asarray(host_x)  # the graph reads x's memory
        cp.cuda.Device().synchronize()
        graph.launch(stream)
        stream.synchronize()
        ref = np.tanh(host_x @ host_w) * 0.5 + host_x[:, :1]
        assert_allclose_np(y, ref, rtol=1e-5, atol=1e-6)
        assert_allclose_np(total, ref.sum(axis=0), rtol=1e-4, atol=1e-5)


@gpu
def test_graph_keeps_the_memory_of_its_arrays(rng):
    """Temporaries die during the capture; without the graph keeping their memory, arrays made
    afterwards would take it and every replay would overwrite them."""
    host = random_array((4096,), np.float64, rng)
    x = cp.asarray(host)
    # x * x, + 1.0 and sqrt are temporaries that die during the capture
    stream, graph, out = _captured(lambda: cp.sqrt(x * x + 1.0) - 1.0)
    with stream:
        gc.collect()
        others = [cp.full(4096, float(i), dtype=np.float64) for i in range(8)]  # the same sizes, same stream
        stream.synchronize()
    graph.launch(stream)
    graph.launch(stream)
    stream.synchronize()
    for i, other in enumerate(others):
        assert_array_equal_np(other, np.full(4096, float(i)))
    assert_allclose_np(out, np.sqrt(host * host + 1.0) - 1.0)
    del graph
    gc.collect()  # the kept memory returns to the pool once the device is idle
    assert_array_equal_np(others[3], np.full(4096, 3.0))


@gpu
def test_graph_launches_on_other_streams_and_uploads(rng):
    host = random_array((1000,), np.int32, rng, low=-1000, high=1000)
    x = cp.asarray(host)
    # In thread-local mode the pool may not call cuMemAlloc: the first run leaves its blocks cached.
    _, graph, y = _captured(lambda: cp.cumsum(x) * 2, mode=cp.cuda.runtime.streamCaptureModeThreadLocal)
    other = cp.cuda.Stream()
    graph.upload(other)
    y[...] = 0
    cp.cuda.Device().synchronize()
    with other:
        graph.launch()  # the current stream
    other.synchronize()
    assert_array_equal_np(y, np.cumsum(host) * 2)


@gpu
def test_launch_batching_holds_again_after_a_capture(rng):
    host = random_array((256,), np.float32, rng)
    x = cp.asarray(host)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        x + 1
        stream.synchronize()
        stream.begin_capture()
        y = x + 1
        assert cp._core.held_launches(cp.cuda.Device().id) == 0  # captured at once
        stream.end_capture()
        z = x * 3  # a small launch: held again, and still correct
        assert cp._core.held_launches(cp.cuda.Device().id) >= 1 or not cp.cuda.launch_batching()
    assert_array_equal_np(z, host * 3)
    del y


@gpu
def test_invalidated_capture_raises_and_the_stream_recovers(rng):
    host = random_array((512,), np.float32, rng)
    x = cp.asarray(host)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        x * 2
        stream.synchronize()
        stream.begin_capture()
        y = x * 2
        with pytest.raises(cp.cuda.driver.CUDADriverError):
            stream.synchronize()  # not allowed while capturing: the driver invalidates the capture
        with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="invalidated"):
            stream.is_capturing()
        with pytest.raises(cp.cuda.driver.CUDADriverError):
            stream.end_capture()
        assert not stream.is_capturing()
        z = x * 2 + 1
    assert_array_equal_np(z, host * 2 + 1)
    del y
    with pytest.raises(ValueError, match="stream capture mode"):
        stream.begin_capture(mode=7)


@gpu
def test_capture_with_a_stream_ordered_pool(rng):
    """Memory from MemoryAsyncPool during a capture becomes the graph's own (memory nodes)."""
    host = random_array((2048,), np.float32, rng)
    x = cp.asarray(host)
    pool = cp.cuda.MemoryAsyncPool()
    try:
        cp.cuda.set_allocator(pool.malloc)
        stream, graph, y = _captured(lambda: cp.exp(x) + x)  # exp(x) is freed inside the capture
        for _ in range(2):
            graph.launch(stream)
            stream.synchronize()
            # exp(x) + x cancels near x = -0.57: absolute, not relative, float32 accuracy there
            assert_allclose_np(y, np.exp(host) + host, atol=1e-6)
    finally:
        cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
