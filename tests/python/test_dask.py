"""Dask arrays of cuarray chunks (docs/dask.md): registration (host), computations on one GPU with the
threads scheduler, dask-cuda's LocalCUDACluster on one and on two GPUs where installed."""
import math
import subprocess
import sys

import numpy as np
import pytest

import cuarray
from helpers import assert_allclose_np, assert_array_equal_np, gpu_unavailable_reason

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

from dask.array import dispatch  # noqa: E402
from dask.array.backends import array_creation_dispatch  # noqa: E402
from dask.array.chunk_types import is_valid_chunk_type  # noqa: E402
from dask.sizeof import sizeof  # noqa: E402

import cuarray._dask as cuarray_dask  # noqa: E402

THREADS = {"scheduler": "threads", "num_workers": 1}


# ---- host: registration ----------------------------------------------------------------------

def test_import_cuarray_does_not_import_dask():
    code = "import sys, cuarray; print(sorted(m for m in sys.modules if m.split('.')[0] == 'dask'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_backend_entry_point_is_discoverable():
    from dask._compatibility import importlib_metadata
    points = {ep.name: ep for ep in importlib_metadata.entry_points(group="dask.array.backends")}
    assert points["cuarray"].value == "cuarray._dask:CuarrayBackendEntrypoint"
    sizeof_points = {ep.name: ep for ep in importlib_metadata.entry_points(group="dask.sizeof")}
    assert sizeof_points["cuarray"].value == "cuarray._dask_sizeof:register"


def test_backend_selected_by_name():
    backend = array_creation_dispatch.dispatch("cuarray")
    assert isinstance(backend, cuarray_dask.CuarrayBackendEntrypoint)
    assert backend.RandomState is cuarray.random.RandomState
    assert backend.default_bit_generator is cuarray.random.Philox
    assert backend.to_backend_dispatch() is cuarray_dask.to_cuarray_dispatch
    with dask.config.set({"array.backend": "cuarray"}):
        assert array_creation_dispatch.backend == "cuarray"


def test_backend_loaded_by_dask_alone():
    # A fresh process that never imports cuarray._dask: selecting the backend must load it.
    code = ("import dask, sys\n"
            "from dask.array.backends import array_creation_dispatch as d\n"
            "with dask.config.set({'array.backend': 'cuarray'}):\n"
            "    print(type(d.dispatch(d.backend)).__name__, 'cuarray._dask' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["CuarrayBackendEntrypoint", "True"]


def test_sizeof_hook_is_lazy():
    # Importing Dask leaves a lazy hook for the "cuarray" package (loading the entry point imports
    # the cuarray package, which touches no GPU) but not cuarray._dask, which imports dask.array;
    # measuring an object of a cuarray type runs the hook, which registers everything.
    code = ("import sys\n"
            "from dask.sizeof import sizeof\n"
            "print('cuarray' in sizeof._lazy, 'cuarray._dask' in sys.modules)\n"
            "class Fake:\n"
            "    __module__ = 'cuarray.fake'\n"
            "sizeof(Fake())\n"
            "import cuarray\n"
            "print('cuarray._dask' in sys.modules, sizeof.dispatch(cuarray.ndarray).__module__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "True", "cuarray._dask"]


def test_sizeof_counts_device_bytes():
    class FakeChunk:
        nbytes = np.int64(3 * 1024 ** 3)  # numpy integer: sizeof must hand Dask a Python int

    assert sizeof.dispatch(cuarray.ndarray) is cuarray_dask._sizeof_cuarray
    size = cuarray_dask._sizeof_cuarray(FakeChunk())
    assert size == 3 * 1024 ** 3 and type(size) is int


def test_chunk_type_registered():
    class NotAChunk:
        pass

    assert is_valid_chunk_type(cuarray.ndarray)
    assert not is_valid_chunk_type(NotAChunk)


@pytest.mark.parametrize("table, function", [
    ("concatenate_lookup", cuarray.concatenate), ("tensordot_lookup", cuarray.tensordot),
    ("take_lookup", cuarray.take), ("empty_lookup", cuarray.empty), ("einsum_lookup", cuarray.einsum)])
def test_dispatch_tables_hold_cuarray(table, function):
    assert getattr(dispatch, table).dispatch(cuarray.ndarray) is function


def test_conversion_dispatch_holds_cuarray():
    assert dispatch.to_numpy_dispatch.dispatch(cuarray.ndarray) is cuarray_dask._cuarray_to_numpy
    assert cuarray_dask.to_cuarray_dispatch.dispatch(np.ndarray) is cuarray_dask._numpy_to_cuarray


def test_numpy_backend_is_untouched():
    assert dispatch.concatenate_lookup.dispatch(np.ndarray) is np.concatenate
    assert array_creation_dispatch.dispatch("numpy").RandomState is np.random.RandomState


# ---- one GPU, threads scheduler ------------------------------------------------------------------

def _chunked(rng, shape, chunks, dtype=np.float64):
    host = rng.standard_normal(shape).astype(dtype)
    return host, da.from_array(cuarray.asarray(host), chunks=chunks, asarray=False)


def _compute(x):
    out = x.compute(**THREADS)
    assert isinstance(out, cuarray.ndarray)
    return out


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_from_array_roundtrip(rng, dtype):
    host = (rng.standard_normal((37, 23)) * 100).astype(dtype)
    x = da.from_array(cuarray.asarray(host), chunks=(10, 7), asarray=False)
    assert isinstance(x._meta, cuarray.ndarray)
    assert x.dtype == dtype and x.numblocks == (4, 4)
    out = _compute(x)
    assert out.dtype == dtype
    assert_array_equal_np(out, host)


@pytest.mark.gpu
def test_from_array_of_views(rng):
    host = rng.standard_normal((40, 30))
    gpu = cuarray.asarray(host)
    for view, ref in ((gpu[::-1, ::2], host[::-1, ::2]), (gpu.T, host.T), (gpu[5:, -1:0:-3], host[5:, -1:0:-3])):
        x = da.from_array(view, chunks=(7, 6), asarray=False)
        assert_array_equal_np(_compute(x), ref)
        assert_array_equal_np(_compute(x * 2 - 1), ref * 2 - 1)


@pytest.mark.gpu
def test_map_blocks(rng):
    host, x = _chunked(rng, (50, 20), (13, 20))
    y = x.map_blocks(lambda b: cuarray.sin(b) * b.shape[0], dtype=x.dtype)
    ref = np.concatenate([np.sin(h) * h.shape[0] for h in np.split(host, [13, 26, 39])])
    assert_allclose_np(_compute(y), ref)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("reduction", ["sum", "mean", "std", "var", "max", "min", "prod"])
def test_reductions(rng, dtype, axis, reduction):
    host, x = _chunked(rng, (64, 48), (20, 15), dtype)
    if reduction == "prod":
        host, x = host[:8] / 2 + 1, x[:8] / 2 + 1
    got = getattr(x, reduction)(axis=axis).compute(**THREADS)
    ref = getattr(host, reduction)(axis=axis)
    # The dtype Dask gives NumPy chunks (Dask's own accumulation rules) is the one to match.
    on_numpy = getattr(da.from_array(host, chunks=x.chunks), reduction)(axis=axis).compute(**THREADS)
    assert type(got) is cuarray.ndarray and got.shape == np.shape(ref)
    assert got.dtype == on_numpy.dtype
    assert_allclose_np(got, np.asarray(ref).astype(on_numpy.dtype), rtol=1e-4 if dtype == np.float32 else 1e-10)


@pytest.mark.gpu
def test_integer_sum_keeps_numpy_dtype(rng):
    host = rng.integers(-50, 50, (30, 30), dtype=np.int8)
    x = da.from_array(cuarray.asarray(host), chunks=8, asarray=False)
    got = _compute(x.sum(axis=0))
    assert got.dtype == host.sum(axis=0).dtype
    assert_array_equal_np(got, host.sum(axis=0))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_matmul(rng, dtype):
    a_host = rng.standard_normal((60, 45)).astype(dtype)
    if dtype == np.complex64:
        a_host += 1j * rng.standard_normal((60, 45)).astype(np.float32)
    b_host = rng.standard_normal((45, 33)).astype(dtype)
    a = da.from_array(cuarray.asarray(a_host), chunks=(20, 15), asarray=False)
    b = da.from_array(cuarray.asarray(b_host), chunks=(15, 11), asarray=False)
    tol = 1e-4 if dtype != np.float64 else 1e-12
    got = _compute(a @ b)
    assert got.dtype == dtype
    assert_allclose_np(got, a_host @ b_host, rtol=tol, atol=tol)
    assert_allclose_np(_compute(a @ a.T), a_host @ a_host.T, rtol=tol, atol=tol)


@pytest.mark.gpu
def test_tensordot_and_einsum(rng):
    a_host, a = _chunked(rng, (12, 10, 8), (5, 5, 4))
    b_host, b = _chunked(rng, (10, 8, 6), (5, 4, 3))
    assert_allclose_np(_compute(da.tensordot(a, b, axes=([1, 2], [0, 1]))),
                       np.tensordot(a_host, b_host, axes=([1, 2], [0, 1])), rtol=1e-12, atol=1e-12)
    assert_allclose_np(_compute(da.einsum("ijk,jkl->il", a, b)),
                       np.einsum("ijk,jkl->il", a_host, b_host), rtol=1e-12, atol=1e-12)


@pytest.mark.gpu
def test_concatenate_stack_and_rechunk(rng):
    a_host, a = _chunked(rng, (9, 8), (4, 3))
    b_host, b = _chunked(rng, (5, 8), (2, 8))
    assert_array_equal_np(_compute(da.concatenate([a, b], axis=0)), np.concatenate([a_host, b_host]))
    assert_array_equal_np(_compute(da.stack([a, a + 1])), np.stack([a_host, a_host + 1]))
    assert_array_equal_np(_compute(a.rechunk((9, 1))), a_host)
    assert_array_equal_np(_compute(a[[0, 3, 8], 1:6]), a_host[[0, 3, 8], 1:6])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_fft_along_unchunked_axis(rng, dtype):
    host = rng.standard_normal((24, 64)).astype(dtype)
    x = da.from_array(cuarray.asarray(host), chunks=(5, 64), asarray=False)
    got = _compute(da.fft.fft(x, axis=1))
    ref = np.fft.fft(host, axis=1)
    assert got.dtype == (np.complex64 if dtype == np.float32 else np.complex128)
    single = dtype == np.float32
    assert_allclose_np(got, ref, rtol=1e-4 if single else 1e-10, atol=1e-3 if single else 1e-9)
    back = _compute(da.fft.ifft(da.fft.fft(x, axis=1), axis=1))
    assert_allclose_np(back.real, host.real, rtol=1e-4, atol=1e-4)


@pytest.mark.gpu
def test_fft_along_chunked_axis_is_refused(rng):
    _, x = _chunked(rng, (24, 64), (5, 16))
    with pytest.raises(ValueError, match="single chunk"):
        da.fft.fft(x, axis=1)


@pytest.mark.gpu
def test_sizeof_of_a_chunk(rng):
    x = cuarray.asarray(rng.standard_normal((100, 10)).astype(np.float32))
    assert sizeof(x) == 4000
    assert sizeof(x[::2]) == 2000


@pytest.mark.gpu
def test_mixed_with_numpy_backend_arrays(rng):
    host, x = _chunked(rng, (20, 10), 5)
    other = rng.standard_normal((20, 10))
    y = x + da.from_array(other, chunks=5).map_blocks(cuarray.asarray)
    assert_allclose_np(_compute(y), host + other)


@pytest.mark.gpu
def test_backend_creation_functions():
    with dask.config.set({"array.backend": "cuarray"}):
        ones = da.ones((6, 4), chunks=(3, 2), dtype=np.float32)
        zeros = da.zeros((5,), chunks=2)
        full = da.full((3, 3), 7, chunks=2, dtype=np.int16)
        empty = da.empty((4, 4), chunks=2)
        arange = da.arange(0, 11, 2, chunks=3)
    for x in (ones, zeros, full, empty, arange):
        assert isinstance(x._meta, cuarray.ndarray)
        _compute(x)
    assert_array_equal_np(_compute(ones), np.ones((6, 4), np.float32))
    assert_array_equal_np(_compute(zeros), np.zeros(5))
    assert_array_equal_np(_compute(full), np.full((3, 3), 7, np.int16))
    assert_array_equal_np(_compute(arange), np.arange(0, 11, 2))
    assert_allclose_np(_compute(ones.sum(axis=0) + arange[:4]), np.full(4, 6.0) + np.arange(0, 8, 2))


@pytest.mark.gpu
def test_backend_random():
    with dask.config.set({"array.backend": "cuarray"}):
        legacy = da.random.random((300, 40), chunks=(100, 20))
        generated = da.random.default_rng(42).random((300, 40), chunks=(100, 20))
        again = da.random.default_rng(42).random((300, 40), chunks=(100, 20))
        normal = da.random.default_rng(7).standard_normal((4000,), chunks=1000)
        seeded = da.random.RandomState(5).uniform(2, 3, (50,), chunks=10)
    for x in (legacy, generated, normal, seeded):
        assert isinstance(x._meta, cuarray.ndarray)
    for x in (legacy, generated):
        values = cuarray.asnumpy(_compute(x))
        assert values.dtype == np.float64 and values.shape == (300, 40)
        assert 0 <= values.min() and values.max() < 1 and len(np.unique(values)) == values.size
        assert abs(values.mean() - 0.5) < 0.02
    assert_array_equal_np(_compute(generated), cuarray.asnumpy(_compute(again)))
    blocks = cuarray.asnumpy(_compute(generated)).reshape(3, 100, 2, 20)
    assert not np.array_equal(blocks[0, :, 0], blocks[1, :, 0])  # each chunk has its own stream
    n = cuarray.asnumpy(_compute(normal))
    assert abs(n.mean()) < 0.1 and abs(n.std() - 1) < 0.1
    s = cuarray.asnumpy(_compute(seeded))
    assert 2 <= s.min() and s.max() < 3


@pytest.mark.gpu
def test_to_backend(rng):
    host = rng.standard_normal((12, 9))
    x = da.from_array(host, chunks=4).to_backend("cuarray")
    assert isinstance(x._meta, cuarray.ndarray)
    assert_array_equal_np(_compute(x), host)
    back = x.to_backend("numpy").compute(**THREADS)
    assert type(back) is np.ndarray and np.array_equal(back, host)


# ---- one worker process per GPU: dask-cuda's LocalCUDACluster, or distributed's Nannies -----------

CLUSTERS = [pytest.param(True, id="dask_cuda"), pytest.param(False, id="nannies")]


def _gpu_cluster(n_workers, use_dask_cuda):
    distributed = pytest.importorskip("distributed")
    if use_dask_cuda:
        pytest.importorskip("dask_cuda")
    cluster = cuarray_dask.local_gpu_cluster(n_workers, use_dask_cuda=use_dask_cuda)
    return cluster, distributed.Client(cluster)


def _sum_and_gram_on_cluster(n_workers, use_dask_cuda, rng):
    host = rng.standard_normal((4000, 256))
    cluster, client = _gpu_cluster(n_workers, use_dask_cuda)
    try:
        x = da.from_array(host, chunks=(4000 // (8 * n_workers), 256)).to_backend("cuarray").persist()
        total = (x.sum(axis=0) + (x @ x.T).sum(axis=1)[:256]).compute()
        assert isinstance(total, cuarray.ndarray)
        ref = host.sum(axis=0) + (host @ host.T).sum(axis=1)[:256]
        assert_allclose_np(total, ref, rtol=1e-9, atol=1e-7)
        # Every worker holds chunks, each on its own GPU (CUDA_VISIBLE_DEVICES rotated per worker).
        held = client.run(lambda dask_worker: len(dask_worker.data))
        assert len(held) == n_workers and all(count > 0 for count in held.values())
        visible = client.run(lambda: __import__("os").environ["CUDA_VISIBLE_DEVICES"].split(",")[0])
        assert sorted(visible.values()) == [str(i) for i in range(n_workers)]
        counts = client.run(lambda: cuarray.cuda.runtime.getDeviceCount())
        assert all(count == n_workers for count in counts.values())
    finally:
        client.close()
        cluster.close()


def test_nanny_cluster_rotates_visible_devices():
    # The workers start and see their own GPU first; no GPU is touched. Where NVML sees GPUs, the
    # Nanny looks up the first visible one, so the ids must exist: as many workers as GPUs there,
    # three on a host without any.
    distributed = pytest.importorskip("distributed")
    n = 3 if gpu_unavailable_reason() is not None else cuarray.cuda.runtime.getDeviceCount()
    cluster = cuarray_dask.local_gpu_cluster(n, use_dask_cuda=False)
    try:
        with distributed.Client(cluster) as client:
            visible = client.run(lambda: __import__("os").environ["CUDA_VISIBLE_DEVICES"])
            threads = client.nthreads()
        # No scheduler-side queue: cuarray tasks return once their kernels are queued (docs/dask.md).
        assert cluster.scheduler.WORKER_SATURATION == math.inf
    finally:
        cluster.close()
    assert sorted(visible.values()) == sorted(",".join(str((i + k) % n) for k in range(n)) for i in range(n))
    assert sorted(threads.values()) == [1] * n


@pytest.mark.gpu
@pytest.mark.parametrize("use_dask_cuda", CLUSTERS)
def test_cluster_one_worker(rng, use_dask_cuda):
    _sum_and_gram_on_cluster(1, use_dask_cuda, rng)


@pytest.mark.gpu
@pytest.mark.parametrize("use_dask_cuda", CLUSTERS)
def test_cluster_two_gpus(rng, use_dask_cuda):
    if cuarray.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    _sum_and_gram_on_cluster(2, use_dask_cuda, rng)
