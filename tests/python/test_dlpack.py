"""DLPack (versioned and legacy capsules, the stream protocol) and the CUDA Array Interface, both
ways: cuarray with itself, NumPy, PyTorch, JAX and numba (docs/interop.md).

Host tests build DLPack tensors with ctypes (dlpack_structs.py) and check everything decided before
GPU work: capsule names and ownership, the deleter called exactly once, errors and their types.
GPU tests need a GPU; those with another library skip with a reason when it is absent.
"""
import gc
import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as cp
from dlpack_structs import (IS_COPIED, READ_ONLY, FakeProducer, FakeTensor, capsule_name, kDLBfloat, kDLBool,
                            kDLComplex, kDLCPU, kDLCUDA, kDLFloat, kDLInt, kDLOpenCL, kDLUInt, read_capsule,
                            tensor_shape, tensor_strides)
from helpers import ALL_DTYPES, LAYOUTS, assert_array_equal_np, layout_pair, random_array

gpu = pytest.mark.gpu
DLPACK_MINOR = 3  # third_party/dlpack: DLPack 1.3

# (code, bits) DLPack must carry for each dtype: bool is kDLBool of one byte, complex counts both parts.
DLPACK_TYPES = {"bool": (kDLBool, 8), "int8": (kDLInt, 8), "int16": (kDLInt, 16), "int32": (kDLInt, 32),
                "int64": (kDLInt, 64), "uint8": (kDLUInt, 8), "uint16": (kDLUInt, 16), "uint32": (kDLUInt, 32),
                "uint64": (kDLUInt, 64), "float16": (kDLFloat, 16), "float32": (kDLFloat, 32),
                "float64": (kDLFloat, 64), "complex64": (kDLComplex, 64), "complex128": (kDLComplex, 128)}


# ---------------------------------------------------------------------------------------------------
# host: names, consumption and ownership of capsules, errors decided before any GPU work

def test_legacy_names_and_module_paths():
    from cuarray.core.dlpack import from_dlpack, fromDlpack, toDlpack
    assert from_dlpack is cp.from_dlpack and fromDlpack is cp.fromDlpack and toDlpack is cp.toDlpack
    for name in ("__dlpack__", "__dlpack_device__", "toDlpack", "__cuda_array_interface__"):
        assert hasattr(cp.ndarray, name)
    with pytest.raises(TypeError):
        cp.toDlpack(np.arange(3))


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
@pytest.mark.parametrize("bad", ["dtype", "lanes", "device", "ndim"])
def test_unsupported_tensor_is_refused_and_released_once(versioned, bad):
    spec = {"dtype": {"dtype": (kDLBfloat, 16, 1)}, "lanes": {"dtype": (kDLFloat, 32, 4)},
            "device": {"device": (kDLOpenCL, 0)}, "ndim": {"shape": (1,) * 65}}[bad]
    tensor = FakeTensor(versioned=versioned, **spec)
    capsule = tensor.capsule()
    with pytest.raises(BufferError):
        cp.from_dlpack(capsule)
    assert tensor.deleter_calls == 1
    assert capsule_name(capsule) == ("used_dltensor_versioned" if versioned else "used_dltensor")
    del capsule
    gc.collect()
    assert tensor.deleter_calls == 1  # the renamed capsule no longer owns the tensor


@given(dtype=st.sampled_from(ALL_DTYPES), versioned=st.booleans(),
       layout=st.lists(st.tuples(st.integers(1, 5), st.integers(-7, 7)), max_size=4),
       c_order=st.booleans())
def test_cuda_tensor_is_viewed_with_its_layout_and_released_with_its_last_view(dtype, versioned, layout, c_order):
    # No GPU work: a view of CUDA memory is made without touching the memory or the driver.
    shape = tuple(n for n, _ in layout)
    strides = None if c_order else tuple(s for _, s in layout)
    address = 0x7F00_0000_0000
    tensor = FakeTensor(versioned=versioned, dtype=(*DLPACK_TYPES[dtype.name], 1), shape=shape, strides=strides,
                        data=address)
    y = cp.from_dlpack(tensor.capsule())
    assert y.dtype == dtype and y.shape == shape
    expected = np.empty(shape, dtype).strides if strides is None else tuple(s * dtype.itemsize for s in strides)
    assert y.strides == expected
    assert y.data.ptr == address
    view = y[..., None]
    del y
    gc.collect()
    assert tensor.deleter_calls == 0  # a view still holds the memory
    del view
    gc.collect()
    assert tensor.deleter_calls == 1


ADDRESS = 0x7F00_0000_0000  # never dereferenced: views and capsules need no GPU


def fake_device_array(dtype=np.dtype(np.float32), shape=(4, 6), strides=None):
    """(tensor, array): a cuarray array viewing CUDA memory that does not exist, imported from a
    ctypes tensor. Making views of it, exporting it without a copy and reading its attributes
    touch neither the memory nor the driver, so the protocols' bookkeeping is testable anywhere."""
    tensor = FakeTensor(dtype=(*DLPACK_TYPES[np.dtype(dtype).name], 1), shape=shape, strides=strides, data=ADDRESS)
    return tensor, cp.from_dlpack(tensor.capsule())


@pytest.mark.parametrize("max_version, name, version", [
    (None, "dltensor", None), ((0, 8), "dltensor", None), ((1, 0), "dltensor_versioned", (1, 0)),
    ((1, 2), "dltensor_versioned", (1, 2)), ((1, 99), "dltensor_versioned", (1, DLPACK_MINOR)),
    ((2, 0), "dltensor_versioned", (1, DLPACK_MINOR))])
@pytest.mark.parametrize("stream", [None, -1, 1])
def test_export_capsule_kind_and_fields(max_version, name, version, stream):
    tensor, x = fake_device_array(np.dtype(np.float16), (4, 6), (-6, 2))  # negative and gapped strides
    assert x.__dlpack_device__() == (kDLCUDA, 0)
    capsule = x.__dlpack__(stream=stream, max_version=max_version)
    assert capsule_name(capsule) == name
    managed, t = read_capsule(capsule)
    if version is not None:
        assert (managed.version.major, managed.version.minor) == version
        assert managed.flags == 0  # a view of writable memory
    assert (t.device.device_type, t.device.device_id) == (kDLCUDA, 0)
    assert t.data == ADDRESS and t.byte_offset == 0
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (kDLFloat, 16, 1)
    assert tensor_shape(t) == (4, 6) and tensor_strides(t) == (-6, 2)
    del x, capsule, managed, t
    gc.collect()
    assert tensor.deleter_calls == 1  # the unconsumed capsule released its reference, then the array


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_export_dtype_codes(dtype):
    _, x = fake_device_array(dtype)
    _, t = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (*DLPACK_TYPES[dtype.name], 1)
    _, t = read_capsule(x.toDlpack())
    assert (t.dtype.code, t.dtype.bits) == DLPACK_TYPES[dtype.name]


def test_export_zero_strides_and_0d():
    _, x = fake_device_array(np.dtype(np.complex64), (3, 4), (0, 1))
    _, t = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert tensor_strides(t) == (0, 1)
    _, t = read_capsule(x[1, 2].__dlpack__(max_version=(1, 0)))
    assert t.ndim == 0 and t.data == ADDRESS + 2 * 8


def test_export_argument_errors():
    _, x = fake_device_array()
    for kwargs, error in [({"stream": 0}, ValueError), ({"stream": -7}, ValueError),
                          ({"stream": "default"}, TypeError), ({"stream": True}, TypeError),
                          ({"max_version": 1}, TypeError), ({"max_version": (1,)}, TypeError),
                          ({"dl_device": "cuda"}, TypeError), ({"dl_device": (kDLCPU, 0), "stream": 5}, ValueError),
                          ({"dl_device": (kDLCPU, 0), "copy": False}, BufferError),
                          ({"dl_device": (kDLOpenCL, 0)}, BufferError)]:
        with pytest.raises(error):
            x.__dlpack__(**kwargs)
    with pytest.raises(TypeError):
        x.__dlpack__(1)  # keyword-only, as the standard writes it
    capsule = x.__dlpack__(copy=False)  # a view needs no copy
    assert capsule_name(capsule) == "dltensor"


def test_self_round_trip_is_zero_copy_and_keeps_the_producer():
    tensor, x = fake_device_array(np.dtype(np.int64), (5, 3), (1, 5))  # Fortran order
    for y in (cp.from_dlpack(x), cp.fromDlpack(x.toDlpack()), cp.from_dlpack(x[::-1].__dlpack__(max_version=(1, 0)))):
        assert y.data.ptr == (ADDRESS if y.strides[0] > 0 else ADDRESS + 4 * 8)
        assert abs(y.strides[0]) == 8 and y.strides[1] == 40
    y = cp.from_dlpack(x)
    del x
    gc.collect()
    assert tensor.deleter_calls == 0
    del y
    gc.collect()
    assert tensor.deleter_calls == 1


def test_cuda_array_interface_of_a_device_array():
    _, x = fake_device_array(np.dtype(np.float16), (4, 6))
    iface = x.__cuda_array_interface__
    assert iface == {"shape": (4, 6), "typestr": "<f2", "descr": [("", "<f2")], "data": (ADDRESS, False),
                     "version": 3, "strides": None, "stream": 1, "mask": None}
    view = x[::-1, 1::2]
    iface = view.__cuda_array_interface__
    assert iface["strides"] == (-12, 4) and iface["data"] == (ADDRESS + 3 * 12 + 2, False)


def test_other_major_version_is_refused_and_released_once():
    tensor = FakeTensor(version=(2, 0))
    with pytest.raises(BufferError, match="version 2"):
        cp.fromDlpack(tensor.capsule())
    assert tensor.deleter_calls == 1


def test_consumed_capsule_cannot_be_consumed_again():
    tensor = FakeTensor(dtype=(kDLBfloat, 16, 1))
    capsule = tensor.capsule()
    with pytest.raises(BufferError):
        cp.from_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed multiple times"):
        cp.from_dlpack(capsule)
    assert tensor.deleter_calls == 1


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
def test_host_tensor_with_copy_false_is_a_value_error(versioned):
    data = np.arange(3, dtype=np.float32)
    tensor = FakeTensor(versioned=versioned, device=(kDLCPU, 0), data=data.ctypes.data)
    with pytest.raises(ValueError, match="copy"):
        cp.from_dlpack(tensor.capsule(), copy=False)
    assert tensor.deleter_calls == 1


def test_numpy_producer_with_copy_false_is_refused_before_export():
    with pytest.raises(ValueError, match="copy"):
        cp.from_dlpack(np.arange(4.0), copy=False)


def test_from_dlpack_asks_a_gpu_producer_with_its_stream_and_version():
    tensor = FakeTensor(dtype=(kDLBfloat, 16, 1))
    producer = FakeProducer(tensor, (kDLCUDA, 0))
    with pytest.raises(BufferError):
        cp.from_dlpack(producer)
    # cuarray's current stream is the null stream: the legacy default stream, which DLPack calls 1.
    assert producer.requests == [{"max_version": (1, DLPACK_MINOR), "stream": 1}]
    assert tensor.deleter_calls == 1


def test_from_dlpack_asks_a_host_producer_without_a_stream():
    tensor = FakeTensor(dtype=(kDLBfloat, 16, 1), device=(kDLCPU, 0))
    producer = FakeProducer(tensor, (kDLCPU, 0))
    with pytest.raises(BufferError):
        cp.from_dlpack(producer)
    assert producer.requests == [{"max_version": (1, DLPACK_MINOR)}]


def test_from_dlpack_retries_a_producer_without_max_version():
    tensor = FakeTensor(versioned=False, dtype=(kDLBfloat, 16, 1))
    producer = FakeProducer(tensor, (kDLCUDA, 0), refuse_max_version=True)
    with pytest.raises(BufferError):
        cp.from_dlpack(producer)
    assert producer.requests == [{"max_version": (1, DLPACK_MINOR), "stream": 1}, {"stream": 1}]
    assert tensor.deleter_calls == 1


def test_from_dlpack_refuses_devices_it_cannot_reach():
    producer = FakeProducer(FakeTensor(), (kDLOpenCL, 0))
    with pytest.raises(BufferError):
        cp.from_dlpack(producer)
    assert producer.requests == []  # refused before asking for a capsule
    with pytest.raises(BufferError):
        cp.from_dlpack(np.arange(3), device=(kDLCPU, 0))
    with pytest.raises(TypeError):
        cp.from_dlpack(np.arange(3), device="gpu")
    with pytest.raises(TypeError):
        cp.from_dlpack(3)
    with pytest.raises(TypeError):
        cp.from_dlpack([1, 2])


class CudaArrayInterface:
    """An object exposing a given __cuda_array_interface__ (as numba or PyTorch would)."""

    def __init__(self, **interface):
        self.__cuda_array_interface__ = interface


def _interface(**changes):
    interface = {"shape": (4,), "typestr": "<f4", "data": (0x7F0000000000, False), "version": 3, "strides": None}
    interface.update(changes)
    return interface


@pytest.mark.parametrize("changes, error", [
    ({"mask": CudaArrayInterface(**_interface())}, ValueError),  # masked arrays
    ({"stream": 0}, ValueError),                                  # ambiguous stream
    ({"stream": -5}, ValueError),
    ({"typestr": ">f4"}, TypeError),                               # not native byte order
    ({"typestr": "|V8"}, TypeError),                               # no such cuarray dtype
], ids=["mask", "stream0", "negative-stream", "big-endian", "void"])
def test_cuda_array_interface_errors(changes, error):
    with pytest.raises(error):
        cp.asarray(CudaArrayInterface(**_interface(**changes)))


def test_cuda_array_interface_read_only_with_copy_false_is_refused():
    obj = CudaArrayInterface(**_interface(data=(0x7F0000000000, True)))
    with pytest.raises(ValueError, match="read-only"):
        cp.asarray(obj, copy=False)
    with pytest.raises(ValueError, match="read-only"):
        cp.array(obj, copy=False)


# ---------------------------------------------------------------------------------------------------
# GPU: what cuarray's capsules carry

@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(np.complex128), np.dtype(np.bool_)])
def test_capsule_shape_and_element_strides(layout, dtype, rng):
    host, x = layout_pair(layout, (3, 4, 5), dtype, rng)
    _, t = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert tensor_shape(t) == host.shape
    # Element strides, negative and zero ones included (CuPy #10172 mis-encoded negative strides).
    assert tensor_strides(t) == tuple(s // dtype.itemsize for s in x.strides)
    assert t.byte_offset == 0
    assert t.data == (None if x.size == 0 else x.data.ptr)  # null for size-0 tensors


@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_reads_a_host_export(layout, dtype, rng):
    host, x = layout_pair(layout, (3, 4), dtype, rng)
    out = np.from_dlpack(x, device="cpu")
    np.testing.assert_array_equal(out, host, strict=True)
    capsule = x.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0))
    managed, t = read_capsule(capsule)
    assert managed.flags & IS_COPIED and t.device.device_type == kDLCPU


@gpu
@given(dtype=st.sampled_from(ALL_DTYPES), data=st.data())
def test_any_view_survives_both_exports(dtype, data):
    shape = tuple(data.draw(st.lists(st.integers(0, 5), max_size=4), label="shape"))
    steps = tuple(data.draw(st.sampled_from([1, 2, -1, -2]), label=f"step{i}") for i in range(len(shape)))
    host = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).astype(dtype).reshape(shape)
    key = (Ellipsis, *(slice(None, None, k) for k in steps))  # (a 0-d array stays an array)
    x, ref = cp.asarray(host)[key], host[key]
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), ref, strict=True)
    y = cp.from_dlpack(x)
    assert y.strides == x.strides or x.size == 0
    assert_array_equal_np(y, ref)


@gpu
def test_copy_true_exports_a_copy():
    x = cp.arange(5, dtype=cp.int32)
    managed, t = read_capsule(capsule := x.__dlpack__(max_version=(1, 0), copy=True))
    assert managed.flags == IS_COPIED and t.data != x.data.ptr
    y = cp.from_dlpack(capsule)
    y[0] = 42
    assert int(x[0]) == 0
    assert_array_equal_np(y, np.array([42, 1, 2, 3, 4], np.int32))


@gpu
def test_export_to_a_missing_device_and_the_per_thread_stream():
    x = cp.arange(4.0)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(kDLCUDA, 4096))
    capsule = x.__dlpack__(stream=2, max_version=(1, 0))  # the per-thread default stream waits by event
    assert_array_equal_np(cp.from_dlpack(capsule), np.arange(4.0))


@gpu
def test_unconsumed_capsule_releases_the_memory():
    gc.collect()
    before = cp.get_default_memory_pool().used_bytes()
    x = cp.empty(1 << 20, dtype=cp.uint8)
    capsule = x.__dlpack__(max_version=(1, 0))
    del x
    gc.collect()
    assert cp.get_default_memory_pool().used_bytes() >= before + (1 << 20)  # the capsule keeps it
    del capsule
    gc.collect()
    assert cp.get_default_memory_pool().used_bytes() == before


@gpu
def test_imported_capsule_keeps_the_memory_alive(rng):
    host = random_array((1000,), np.float64, rng)
    capsule = cp.asarray(host).__dlpack__(max_version=(1, 0))  # the array itself is gone
    y = cp.from_dlpack(capsule)
    gc.collect()
    cp.empty(1000)  # a new allocation must not reuse it
    assert_array_equal_np(y, host)


# ---------------------------------------------------------------------------------------------------
# GPU: cuarray <-> cuarray and NumPy -> cuarray

@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_round_trip_through_dlpack_is_zero_copy(layout, dtype, rng):
    host, x = layout_pair(layout, (3, 4), dtype, rng)
    for y in (cp.from_dlpack(x), cp.fromDlpack(x.toDlpack()), cp.from_dlpack(x.__dlpack__(max_version=(1, 0)))):
        assert y.dtype == dtype and y.shape == x.shape and y.strides == x.strides
        if x.size:
            assert y.data.ptr == x.data.ptr
        assert_array_equal_np(y, host)
    z = cp.from_dlpack(x, copy=True)
    assert_array_equal_np(z, host)
    if x.size:
        assert z.data.ptr != x.data.ptr


@gpu
def test_writes_are_shared_after_a_round_trip():
    x = cp.zeros(8, dtype=cp.float32)
    y = cp.from_dlpack(x)
    y[2:5] = 7
    x[0] = -1
    assert_array_equal_np(x, np.array([-1, 0, 7, 7, 7, 0, 0, 0], np.float32))
    assert_array_equal_np(y, np.array([-1, 0, 7, 7, 7, 0, 0, 0], np.float32))


@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_producer_is_copied_to_the_device(layout, dtype, rng):
    host = layout_pair(layout, (3, 4), dtype, rng)[0]  # "broadcast" is read-only with zero strides
    y = cp.from_dlpack(host)
    assert isinstance(y, cp.ndarray)
    assert_array_equal_np(y, host)


@gpu
def test_numpy_read_only_and_legacy_capsules_are_copied(rng):
    host = random_array((5, 6), np.complex64, rng)[::-1, ::2]
    assert_array_equal_np(cp.fromDlpack(host.__dlpack__()), host)  # legacy: NumPy refuses read-only ones
    host.flags.writeable = False
    assert_array_equal_np(cp.from_dlpack(host), host)
    assert_array_equal_np(cp.from_dlpack(host.__dlpack__(max_version=(1, 0))), host)


@gpu
def test_read_only_gpu_tensor_is_copied():
    x = cp.arange(4, dtype=cp.float32)
    capsule = x.__dlpack__(max_version=(1, 0))
    managed, _ = read_capsule(capsule)
    managed.flags = READ_ONLY
    y = cp.from_dlpack(capsule)
    assert y.data.ptr != x.data.ptr
    assert_array_equal_np(y, np.arange(4, dtype=np.float32))
    capsule = x.__dlpack__(max_version=(1, 0))
    read_capsule(capsule)[0].flags = READ_ONLY
    with pytest.raises(ValueError, match="read-only"):
        cp.from_dlpack(capsule, copy=False)


@gpu
def test_from_dlpack_device_argument():
    x = cp.arange(3)
    assert cp.from_dlpack(x, device=0).data.ptr == x.data.ptr
    assert cp.from_dlpack(x, device=x.device).data.ptr == x.data.ptr
    assert cp.from_dlpack(x, device=(kDLCUDA, 0)).data.ptr == x.data.ptr


def _slow_fill(x, value, rounds=200):
    """Writes `value` into x at the end of a long chain of kernels on the current stream."""
    for _ in range(rounds):
        x *= 1.0000001
    x[...] = value


@gpu
def test_export_orders_the_consumer_stream_after_cuarray():
    x = cp.zeros(1 << 22, dtype=cp.float32)
    consumer = cp.cuda.Stream(non_blocking=True)
    _slow_fill(x, 3.0)                               # on the null stream
    capsule = x.__dlpack__(stream=consumer.ptr, max_version=(1, 0))
    with consumer:
        y = cp.fromDlpack(capsule)                   # no protocol: the wait above orders it
        total = y.sum()                              # runs on the consumer stream
    consumer.synchronize()
    assert float(total) == 3.0 * x.size


# ---------------------------------------------------------------------------------------------------
# GPU: __cuda_array_interface__ both ways

@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cuda_array_interface_v3(layout, rng):
    _, x = layout_pair(layout, (3, 4), np.float16, rng)
    iface = x.__cuda_array_interface__
    assert iface["version"] == 3 and iface["shape"] == x.shape and iface["typestr"] == "<f2"
    assert iface["descr"] == [("", "<f2")] and iface["mask"] is None
    assert iface["data"] == ((x.data.ptr if x.size else 0), False)
    assert iface["strides"] == (None if x.flags.c_contiguous else x.strides)
    assert iface["stream"] == 1  # the legacy default stream
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        assert x.__cuda_array_interface__["stream"] == stream.ptr


@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asarray_of_a_cuda_array_interface_is_zero_copy(layout, dtype, rng):
    host, x = layout_pair(layout, (3, 4), dtype, rng)
    owner = CudaArrayInterface(**x.__cuda_array_interface__)
    owner.keep = x  # the foreign "library" owns the memory through this object
    y = cp.asarray(owner)
    assert y.shape == x.shape and y.dtype == dtype
    if x.size:
        assert y.data.ptr == x.data.ptr and y.strides == x.strides
    del owner, x
    gc.collect()
    cp.empty((3, 4), dtype)
    assert_array_equal_np(y, host)  # the array keeps the owner (and its memory) alive


@gpu
def test_array_copies_a_cuda_array_interface_unless_copy_false():
    x = cp.arange(6, dtype=cp.int16)
    owner = CudaArrayInterface(**x.__cuda_array_interface__)
    assert cp.array(owner).data.ptr != x.data.ptr
    assert cp.array(owner, copy=False).data.ptr == x.data.ptr
    assert cp.asarray(owner, copy=True).data.ptr != x.data.ptr
    shared = cp.asarray(owner)
    shared[1] = 100
    assert int(x[1]) == 100


@gpu
def test_read_only_cuda_array_interface_is_copied():
    x = cp.arange(6, dtype=cp.float64)
    iface = dict(x.__cuda_array_interface__, data=(x.data.ptr, True))
    y = cp.asarray(CudaArrayInterface(**iface))
    assert y.data.ptr != x.data.ptr
    assert_array_equal_np(y, np.arange(6.0))


@gpu
def test_cuda_array_interface_stream_is_waited_on():
    producer = cp.cuda.Stream(non_blocking=True)
    with producer:
        x = cp.zeros(1 << 22, dtype=cp.float32)
        _slow_fill(x, 2.0)
        iface = x.__cuda_array_interface__
    assert iface["stream"] == producer.ptr
    y = cp.asarray(CudaArrayInterface(**iface))  # the null stream waits for `producer`
    assert float(y.sum()) == 2.0 * x.size


# ---------------------------------------------------------------------------------------------------
# PyTorch

def _torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA device")
    return torch


def _torch_dtypes(torch):
    names = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
             "complex128"]
    return [(np.dtype(n), getattr(torch, n)) for n in names]


@gpu
def test_seed_example_dlpack_torch():
    _torch()
    import seed_examples
    assert seed_examples.ex_dlpack_torch() is None


@gpu
def test_torch_round_trip_is_zero_copy_for_every_dtype(rng):
    torch = _torch()
    for dtype, torch_dtype in _torch_dtypes(torch):
        host = random_array((4, 5), dtype, rng)
        x = cp.asarray(host)
        t = torch.from_dlpack(x)
        assert t.dtype == torch_dtype and t.data_ptr() == x.data.ptr and tuple(t.shape) == host.shape
        g = cp.from_dlpack(t)
        assert g.data.ptr == x.data.ptr and g.dtype == dtype
        assert_array_equal_np(g, host)
        legacy = cp.fromDlpack(torch.utils.dlpack.to_dlpack(torch.utils.dlpack.from_dlpack(x.toDlpack())))
        assert legacy.data.ptr == x.data.ptr


@gpu
def test_torch_views_keep_their_strides(rng):
    torch = _torch()
    host = random_array((6, 8), np.float32, rng)
    x = cp.asarray(host)
    for view, ref in ((x.T, host.T), (x[1::2, ::3], host[1::2, ::3]), (x[:, 2], host[:, 2])):
        t = torch.from_dlpack(view)
        assert t.stride() == tuple(s // 4 for s in view.strides)
        np.testing.assert_array_equal(t.cpu().numpy(), ref)
    t = torch.arange(24, device="cuda", dtype=torch.float64).reshape(4, 6)[:, 1::2].t()
    g = cp.from_dlpack(t)
    assert g.strides == tuple(s * 8 for s in t.stride()) and g.data.ptr == t.data_ptr()
    assert_array_equal_np(g, t.cpu().numpy())


@gpu
def test_torch_writes_are_visible_both_ways():
    torch = _torch()
    t = torch.zeros(10, device="cuda")
    g = cp.from_dlpack(t)
    g += 2
    assert t[3].item() == 2.0
    t.mul_(3)
    assert float(g[3]) == 6.0
    t2 = torch.from_dlpack(g)
    t2[0] = -1
    assert float(g[0]) == -1.0 and t[0].item() == -1.0


@gpu
def test_torch_consumer_stream_waits_for_cuarray():
    torch = _torch()
    x = cp.zeros(1 << 22, dtype=cp.float32)
    s = torch.cuda.Stream()
    _slow_fill(x, 2.0)                      # cuarray's null stream
    with torch.cuda.stream(s):
        t = torch.from_dlpack(x)            # torch passes s: s waits for cuarray's work
        total = t.sum()
    s.synchronize()
    assert total.item() == 2.0 * x.size


@gpu
def test_cuarray_waits_for_the_torch_producer_stream():
    torch = _torch()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.zeros(1 << 22, device="cuda")
        for _ in range(200):
            t.mul_(1.0000001)
        t.fill_(4.0)
        g = cp.from_dlpack(t)               # cuarray passes its stream; torch makes it wait for s
    assert float(g.sum()) == 4.0 * g.size


@gpu
def test_torch_and_the_cuda_array_interface():
    torch = _torch()
    x = cp.arange(12, dtype=cp.float32).reshape(3, 4)[:, ::2]
    t = torch.as_tensor(x, device="cuda")
    assert t.data_ptr() == x.data.ptr and t.stride() == (4, 2)
    t2 = torch.arange(6, device="cuda", dtype=torch.int32)
    g = cp.asarray(t2)
    assert g.data.ptr == t2.data_ptr()
    g[0] = 9
    assert t2[0].item() == 9


# ---------------------------------------------------------------------------------------------------
# JAX

def _jax():
    # JAX takes 75% of the GPU at its first use unless told not to; beside cuarray and the other
    # test workers that ran it out of memory for a 30-byte array.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    try:
        device = jax.devices("gpu")[0]
    except RuntimeError:
        pytest.skip("JAX has no GPU backend")
    return jax, device


@gpu
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int32", "float16", "float32", "complex64")])
def test_jax_from_dlpack_both_ways(dtype, rng):
    jax, device = _jax()
    host = random_array((5, 3), dtype, rng)
    x = cp.asarray(host)
    j = jax.numpy.from_dlpack(x)
    assert j.dtype == dtype
    np.testing.assert_array_equal(np.asarray(j), host)
    j2 = jax.device_put(jax.numpy.asarray(host), device)
    g = cp.from_dlpack(j2)
    assert_array_equal_np(g, host)
    assert_array_equal_np(cp.asarray(j2), host)  # asarray takes GPU DLPack producers too


# ---------------------------------------------------------------------------------------------------
# numba

def _numba_cuda():
    numba = pytest.importorskip("numba", reason="numba is not installed")
    from numba import cuda
    if not cuda.is_available():
        pytest.skip("numba.cuda finds no GPU")
    return numba, cuda


def _numba_jit_works(cuda):
    """Whether numba can compile a kernel at all here (numba-cuda releases lag NumPy's: with numpy
    2.5 numba-cuda 0.2x fails inside its own typing registry, before any cuarray object is seen)."""
    try:
        @cuda.jit
        def one(out):
            out[0] = 1

        one[1, 1](cuda.device_array(1, dtype=np.int32))
    except AttributeError as exc:
        pytest.skip("numba cannot compile kernels with this NumPy: %s" % exc)


@gpu
def test_numba_kernel_on_a_cuarray_array(rng):
    _, cuda = _numba_cuda()
    _numba_jit_works(cuda)

    @cuda.jit
    def scale_add(x, out, k):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * k + 1

    host = random_array((1000,), np.float32, rng)
    x = cp.asarray(host)[1::2]  # a strided view through __cuda_array_interface__
    out = cp.empty(500, dtype=cp.float32)
    scale_add[4, 128](x, out, np.float32(3))
    cuda.synchronize()
    assert_array_equal_np(out, host[1::2] * np.float32(3) + np.float32(1))


@gpu
def test_asarray_of_a_numba_device_array(rng):
    _, cuda = _numba_cuda()
    host = random_array((7, 3), np.int64, rng)
    d = cuda.to_device(host)
    g = cp.asarray(d)
    assert g.data.ptr == d.__cuda_array_interface__["data"][0]
    assert_array_equal_np(g, host)
    g[0, 0] = 1234
    assert d.copy_to_host()[0, 0] == 1234
