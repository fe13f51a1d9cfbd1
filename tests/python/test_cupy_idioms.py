"""CuPy's everyday idioms (issue 17, section 3), against NumPy and CuPy's documented behaviour:
the ndarray constructor on a MemoryPointer, cuarray.cuda's memory objects and allocator hooks,
array() of nests holding device arrays, cuarray.exceptions, cuarray.testing, and NumPy's n-ary
result_type in every function that promotes several operands.

Host-only tests (no marker) run without a GPU: exception classes, assertion helpers on NumPy data,
result_type over dtypes (the C++ rule), nest discovery, pointer arithmetic and the constructor's
argument checks on memory that is never touched."""
import gc
import itertools
import threading
import weakref

import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp
from cuarray._creation.creation import _discover_nested
from helpers import ALL_DTYPES, NUMERIC, assert_array_equal_np, expect_error, random_array

gpu = pytest.mark.gpu

# A device address that is never dereferenced: host tests build views on it without a GPU.
FAKE_PTR = 1 << 40


def fake_memory(size, owner=None):
    return cp.cuda.UnownedMemory(FAKE_PTR, size, owner, device_id=0)


# ---- cuarray.exceptions ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["AxisError", "ComplexWarning", "DTypePromotionError",
                                  "ModuleDeprecationWarning", "RankWarning", "TooHardError",
                                  "VisibleDeprecationWarning"])
def test_exceptions_are_numpys(name):
    assert getattr(cp.exceptions, name) is getattr(np.exceptions, name)


def test_linalg_error_is_numpys():
    assert cp.linalg.LinAlgError is np.linalg.LinAlgError


# ---- cuarray.testing on host data ------------------------------------------------------------------

def test_testing_helpers_on_numpy_data(rng):
    a = rng.standard_normal((3, 4))
    cp.testing.assert_allclose(a, a * (1 + 1e-9))
    cp.testing.assert_array_equal(a, a.copy())
    cp.testing.assert_array_almost_equal(a, a + 1e-9)
    cp.testing.assert_almost_equal(a, a + 1e-9)
    cp.testing.assert_array_less(a, a + 1)
    cp.testing.assert_equal({"x": [a, 1]}, {"x": [a.copy(), 1]})
    cp.testing.assert_array_max_ulp(a, a)
    with pytest.raises(AssertionError):
        cp.testing.assert_allclose(a, a + 1)
    with pytest.raises(AssertionError):
        cp.testing.assert_array_equal(a, a[::-1])
    with pytest.raises(AssertionError):
        cp.testing.assert_array_less(a, a)
    with cp.testing.assert_raises(ValueError):
        raise ValueError
    assert cp.testing.assert_warns is np.testing.assert_warns


def test_testing_keyword_arguments(rng):
    a = rng.standard_normal(5)
    cp.testing.assert_allclose(actual=a, desired=a, rtol=0)
    with pytest.raises(AssertionError):
        cp.testing.assert_allclose(actual=a, desired=a + 1)


# ---- result_type over many operands (host: the C++ rule against NumPy's) ---------------------------

def test_result_type_is_not_pairwise():
    assert cp.result_type(np.int8, np.uint8, np.float16) == np.float16
    dts = [np.dtype(t) for t in (np.int8, np.uint8, np.float16)]
    assert cp.result_type(*dts) == np.float16
    assert cp.result_type(*[np.zeros(1, t) for t in dts]) == np.float16
    assert np.promote_types(np.promote_types(dts[0], dts[1]), dts[2]) == np.float32  # the fold differs


@given(st.lists(st.sampled_from(ALL_DTYPES), min_size=1, max_size=7))
def test_result_type_of_dtypes_matches_numpy(dtypes):
    assert cp.result_type(*dtypes) == np.result_type(*dtypes)
    assert cp.result_type(*[np.zeros(0, d) for d in dtypes]) == np.result_type(*dtypes)


@given(st.lists(st.sampled_from(ALL_DTYPES), min_size=1, max_size=4),
       st.lists(st.sampled_from([True, 3, -7, 2.5, 1j, 300]), max_size=3))
def test_result_type_with_weak_scalars_matches_numpy(dtypes, scalars):
    args = [np.zeros(1, d) for d in dtypes] + scalars
    try:
        expected = np.result_type(*args)
    except Exception as exc:  # noqa: BLE001 - NumPy's refusal is the expected outcome
        with pytest.raises(type(exc)):
            cp.result_type(*args)
        return
    assert cp.result_type(*args) == expected


def test_result_type_of_nothing_raises_like_numpy():
    expect_error(lambda: np.result_type(), lambda: cp.result_type())


# ---- array() of nests: shape and dtype discovery (host leaves: the same rules) ----------------------

leaf = st.one_of(
    st.sampled_from(NUMERIC + [np.dtype(np.bool_)]).map(lambda d: np.ones((2,), d)),
    st.sampled_from([True, 1, -2, 2.5, 1.5j, 2**63, np.int8(3), np.float16(1.5), np.uint16(7)]),
)
nest = st.recursive(leaf, lambda children: st.lists(children, min_size=0, max_size=3).map(tuple)
                    | st.lists(children, min_size=0, max_size=3), max_leaves=8)


@given(st.lists(nest, min_size=1, max_size=4))
def test_nest_discovery_matches_numpy(obj):
    try:
        expected = np.array(obj)
    except ValueError as exc:
        with pytest.raises(ValueError, match="inhomogeneous"):
            _discover_nested(obj)
        assert "inhomogeneous" in str(exc)
        return
    if expected.dtype == object:
        return
    assert _discover_nested(obj) == (expected.shape, expected.dtype)


@pytest.mark.parametrize("obj", [
    [np.zeros(2, np.int8), np.zeros(2, np.uint8), np.zeros(2, np.float16)],  # float32, unlike concatenate
    [np.zeros(2, np.float32), [1, 2]],
    [np.float16(1), True],
    [1, 2**63],
    [[], []],
    [np.zeros(0, np.int8), []],
    [np.zeros((2, 3), np.complex64), np.ones((2, 3), np.float64)],
])
def test_nest_discovery_cases(obj):
    expected = np.array(obj)
    assert _discover_nested(obj) == (expected.shape, expected.dtype)


@pytest.mark.parametrize("obj", [[np.zeros(2), np.zeros(3)], [np.zeros(2), 1.0], [[1, 2], [3]],
                                 [np.zeros((2, 2)), [[1, 2], [3, 4, 5]]]])
def test_ragged_nests_raise_numpys_error(obj):
    expect_error(lambda: np.array(obj), lambda: _discover_nested(obj), match="inhomogeneous shape")


# ---- MemoryPointer and the ndarray constructor (host: memory never touched) -----------------------

def test_memory_pointer_arithmetic():
    mem = fake_memory(1024)
    p = cp.cuda.MemoryPointer(mem, 16)
    assert p.ptr == FAKE_PTR + 16 and int(p) == p.ptr and p.mem is mem and p.device_id == 0
    q = p + 8
    assert q.ptr == FAKE_PTR + 24 and q.mem is mem and p.ptr == FAKE_PTR + 16
    assert (q - 24).ptr == FAKE_PTR and (8 + p).ptr == FAKE_PTR + 24
    q += 100
    assert q.ptr == FAKE_PTR + 124
    q -= 4
    assert q.ptr == FAKE_PTR + 120
    assert mem.ptr == FAKE_PTR and mem.size == 1024 and mem.device_id == 0


def test_unowned_memory_keeps_its_owner_alive():
    class Owner:
        pass
    owner = Owner()
    alive = weakref.ref(owner)
    mem = fake_memory(64, owner)
    a = cp.ndarray((8,), np.float64, cp.cuda.MemoryPointer(mem, 0))
    del owner, mem
    gc.collect()
    assert alive() is not None  # the array holds the memory, the memory its owner
    del a
    gc.collect()
    assert alive() is None


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.complex128])
@pytest.mark.parametrize("order", ["C", "F"])
def test_ndarray_on_memptr_layout(dtype, order):
    shape = (3, 4, 5)
    item = np.dtype(dtype).itemsize
    ref = np.ndarray(shape, dtype, buffer=bytearray(60 * item + 32), offset=32, order=order)
    a = cp.ndarray(shape, dtype, cp.cuda.MemoryPointer(fake_memory(60 * item + 32), 32), order=order)
    assert a.shape == ref.shape and a.strides == ref.strides and a.dtype == ref.dtype
    assert a._c_contiguous == ref.flags.c_contiguous and a._f_contiguous == ref.flags.f_contiguous
    assert a.data.ptr == FAKE_PTR + 32


def test_ndarray_on_memptr_with_strides():
    mem = fake_memory(800)
    a = cp.ndarray((3, 4), np.float32, cp.cuda.MemoryPointer(mem, 400), strides=(-40, 8))
    ref = np.ndarray((3, 4), np.float32, buffer=bytearray(800), offset=400, strides=(-40, 8))
    assert a.strides == ref.strides == (-40, 8) and a.shape == (3, 4)
    assert a.data.ptr == FAKE_PTR + 400


@pytest.mark.parametrize("shape, strides, offset, size", [
    ((3,), None, 0, 8),          # too small
    ((3,), (40,), 0, 80),        # strides past the end
    ((3,), (-4,), 0, 80),        # strides before the start
    ((3,), (4, 4), 0, 80),       # strides of another rank
    ((-3,), None, 0, 80),        # negative dimension
])
def test_ndarray_on_memptr_bad_views_raise_like_numpy(shape, strides, offset, size):
    expect_error(
        lambda: np.ndarray(shape, np.float32, buffer=bytearray(size), offset=offset, strides=strides),
        lambda: cp.ndarray(shape, np.float32, cp.cuda.MemoryPointer(fake_memory(size), offset), strides=strides))


def test_ndarray_strides_need_memptr():
    with pytest.raises(ValueError, match="memptr is required"):
        cp.ndarray((2, 3), np.float32, strides=(12, 4))


def test_ndarray_rejects_unknown_dtype():
    with pytest.raises(TypeError):
        cp.ndarray((2,), object, cp.cuda.MemoryPointer(fake_memory(64), 0))


def test_ndarray_default_dtype_is_float64():
    a = cp.ndarray((2,), memptr=cp.cuda.MemoryPointer(fake_memory(64), 0))
    assert a.dtype == np.float64 and a.strides == (8,)


def test_pinned_memory_pointer_exports_a_buffer():
    host = np.arange(16, dtype=np.int32)

    class HostMemory:  # stands in for page-locked memory: any host memory with ptr and size
        ptr = host.ctypes.data
        size = host.nbytes

    p = cp.cuda.PinnedMemoryPointer(HostMemory, 8)
    assert p.ptr == host.ctypes.data + 8 and int(p) == p.ptr and p.size() == host.nbytes - 8
    view = np.frombuffer(p, np.int32, 5)
    np.testing.assert_array_equal(view, host[2:7])
    view[0] = -1  # writable, shared
    assert host[2] == -1
    assert (p + 4).ptr == p.ptr + 4 and (p + 4).mem is HostMemory


@pytest.mark.parametrize("make", [cp.asarray, cp.array])
def test_copy_false_from_host_data_raises(make):
    # NumPy 2's copy=False: host data always needs a copy to reach the device (before any GPU work).
    with pytest.raises(ValueError, match="Unable to avoid copy while creating an array from host data"):
        make(np.arange(3.0), copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        make([1, 2, 3], copy=False)


def test_set_allocator_rejects_non_callables():
    with pytest.raises(TypeError):
        cp.cuda.set_allocator(42)
    with pytest.raises(TypeError):
        cp.cuda.set_pinned_memory_allocator("pool")
    assert cp.cuda.get_allocator() == cp.get_default_memory_pool().malloc


def test_using_allocator_is_for_this_thread():
    def allocator(size):
        raise AssertionError("not called on the host")

    default = cp.cuda.get_allocator()
    with cp.cuda.using_allocator(allocator):
        assert cp.cuda.get_allocator() is allocator
        with pytest.raises(ValueError, match="using_allocator"):
            cp.cuda.set_allocator(None)
        seen = []
        thread = threading.Thread(target=lambda: seen.append(cp.cuda.get_allocator()))
        thread.start()
        thread.join()
        assert seen == [default]
        with cp.cuda.using_allocator(None):
            assert cp.cuda.get_allocator() is not allocator
        assert cp.cuda.get_allocator() is allocator
    assert cp.cuda.get_allocator() == default


def test_top_level_pools_are_cudas():
    assert cp.get_default_memory_pool() is cp.cuda.get_default_memory_pool()
    assert cp.get_default_pinned_memory_pool() is cp.cuda.get_default_pinned_memory_pool()
    assert isinstance(cp.get_default_memory_pool(), cp.cuda.MemoryPool)


# ---- GPU: the constructor and memory objects ---------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_ndarray_allocates(dtype, order, rng):
    a = cp.ndarray((4, 5), dtype, order=order)
    ref = np.ndarray((4, 5), dtype, order=order)
    assert a.shape == ref.shape and a.strides == ref.strides and a.dtype == ref.dtype
    host = random_array((4, 5), dtype, rng)
    a[...] = cp.asarray(host)
    assert_array_equal_np(a, host)


@gpu
def test_ndarray_on_another_arrays_memory(rng):
    host = random_array((6, 8), np.float32, rng)
    x = cp.asarray(host)
    # rows 1..4 reversed, every other column, as a view of x's memory through a MemoryPointer
    v = cp.ndarray((4, 4), np.float32, x.data + 4 * 32 + 4, strides=(-32, 8))
    assert_array_equal_np(v, host[4:0:-1, 1::2])
    v[...] = 0
    host[4:0:-1, 1::2] = 0
    assert_array_equal_np(x, host)  # writes through the view land in x


@gpu
def test_ndarray_data_points_at_first_element():
    x = cp.arange(10, dtype=np.int64)
    assert x[3:].data.ptr == x.data.ptr + 24
    assert x[::-1].data.ptr == x.data.ptr + 72
    assert x.data.mem.ptr == x.data.ptr and x.data.device_id == x.device.id


@gpu
def test_arrays_on_a_pointer_keep_launch_batching(rng):
    """Only reading an address shares memory with other code (and stops holding launches)."""
    gc.collect()  # no shared memory of earlier tests may linger
    was = cp.cuda.launch_batching()
    cp.cuda.set_launch_batching(True)
    try:
        host = random_array((1000,), np.float32, rng)
        p = cp.get_default_memory_pool().malloc(host.nbytes)
        a = cp.ndarray(host.shape, host.dtype, p)
        a[...] = cp.asarray(host)
        cp.cuda.flush_launches()
        b = a + 1
        assert cp._core.held_launches(a.device.id) == 1
        ptr = p.ptr  # the address leaves: what is held goes first, nothing is held from now on
        assert ptr == a.data.ptr and cp._core.held_launches(a.device.id) == 0
        c = a + 2
        assert cp._core.held_launches(a.device.id) == 0
        assert_array_equal_np(b, host + 1)
        assert_array_equal_np(c, host + 2)
    finally:
        cp.cuda.set_launch_batching(was)


@gpu
def test_unowned_memory_over_a_cuarray_array(rng):
    host = random_array((16,), np.float64, rng)
    x = cp.asarray(host)
    mem = cp.cuda.UnownedMemory(x.data.ptr, x.nbytes, x)
    assert mem.device_id == x.device.id  # found from the pointer
    y = cp.ndarray((4, 4), np.float64, cp.cuda.MemoryPointer(mem, 0))
    del x
    gc.collect()
    assert_array_equal_np(y, host.reshape(4, 4))


@gpu
def test_alloc_copies_and_memset(rng):
    host = random_array((100,), np.int32, rng)
    p = cp.cuda.alloc(host.nbytes)
    p.copy_from_host(host.ctypes.data, host.nbytes)
    back = np.empty_like(host)
    p.copy_to_host(back.ctypes.data, host.nbytes)
    np.testing.assert_array_equal(back, host)
    q = cp.cuda.alloc(host.nbytes)
    q.copy_from_device(p, host.nbytes)
    assert_array_equal_np(cp.ndarray(host.shape, host.dtype, q), host)
    (q + 8).memset(0xFF, 8)
    expected = host.copy()
    expected[2:4] = -1
    assert_array_equal_np(cp.ndarray(host.shape, host.dtype, q), expected)
    s = cp.cuda.Stream()
    q.memset_async(0, host.nbytes, stream=s)
    q.copy_from_async(p, host.nbytes, stream=s)
    s.synchronize()
    assert_array_equal_np(cp.ndarray(host.shape, host.dtype, q), host)


@gpu
def test_memory_and_managed_memory(rng):
    host = random_array((32,), np.float32, rng)
    for mem in (cp.cuda.Memory(host.nbytes), cp.cuda.ManagedMemory(host.nbytes)):
        a = cp.ndarray(host.shape, host.dtype, cp.cuda.MemoryPointer(mem, 0))
        a[...] = cp.asarray(host)
        assert_array_equal_np(a * 2, host * 2)


# ---- GPU: allocators ------------------------------------------------------------------------------

@pytest.fixture
def restore_allocators():
    yield
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    cp.cuda.set_pinned_memory_allocator(cp.get_default_pinned_memory_pool().malloc)


@gpu
def test_set_allocator_none_bypasses_the_pool(restore_allocators, rng):
    pool = cp.get_default_memory_pool()
    host = random_array((1 << 16,), np.float32, rng)
    gc.collect()
    cp.cuda.set_allocator(None)
    used = pool.used_bytes()
    a = cp.asarray(host)
    b = a + 1
    assert pool.used_bytes() <= used  # (an earlier test's garbage may return meanwhile)
    assert_array_equal_np(b, host + 1)
    cp.cuda.set_allocator(pool.malloc)
    used = pool.used_bytes()
    c = cp.asarray(host)
    assert pool.used_bytes() >= used + host.nbytes
    del a, b, c


@gpu
def test_set_allocator_to_a_pool_of_ones_own(restore_allocators, rng):
    default = cp.get_default_memory_pool()
    mine = cp.cuda.MemoryPool()
    host = random_array((1000,), np.float64, rng)
    gc.collect()
    cp.cuda.set_allocator(mine.malloc)
    used = default.used_bytes()
    a = cp.asarray(host)
    s = cp.sqrt(cp.abs(a)).sum()
    assert mine.used_bytes() >= host.nbytes and default.used_bytes() <= used
    np.testing.assert_allclose(float(s), np.sqrt(np.abs(host)).sum(), rtol=1e-12)
    del a, s
    assert mine.used_bytes() == 0 and mine.n_free_blocks() > 0
    mine.free_all_blocks()
    assert mine.total_bytes() == 0


@gpu
def test_set_allocator_to_a_python_function(restore_allocators, rng):
    calls = []
    pool = cp.cuda.MemoryPool()

    def allocator(size):
        calls.append(size)
        return pool.malloc(size)

    host = random_array((64, 64), np.float32, rng)
    cp.cuda.set_allocator(allocator)
    assert cp.cuda.get_allocator() is allocator
    a = cp.asarray(host)
    b = a @ a.T  # output and cuBLAS workspace
    assert calls and all(c >= 0 for c in calls) and host.nbytes in calls
    p = cp.cuda.alloc(100)
    assert calls[-1] == 100 and p.mem is not None
    # Entries that cancel (terms near 1e3 summing to 0.36) carry float32's error of the terms, not of
    # the sum: a tolerance relative to the largest entry (the GPU run saw 1.4e-4 against 5.9e4).
    ref = host @ host.T
    np.testing.assert_allclose(cp.asnumpy(b), ref, rtol=1e-4, atol=1e-6 * np.abs(ref).max())
    with cp.cuda.using_allocator(None):
        n = len(calls)
        cp.asarray(host)
        assert len(calls) == n
    assert cp.cuda.get_allocator() is allocator


@gpu
def test_using_allocator_leaves_other_threads_alone(restore_allocators, rng):
    calls = []
    pool = cp.cuda.MemoryPool()

    def allocator(size):
        calls.append(size)
        return pool.malloc(size)

    host = random_array((256,), np.float64, rng)
    results = []
    with cp.cuda.using_allocator(allocator):
        worker = threading.Thread(target=lambda: results.append(cp.asnumpy(cp.asarray(host) + 1)))
        worker.start()
        worker.join()
        assert calls == []  # the other thread allocated from the global allocator
        a = cp.asarray(host) * 2
        assert host.nbytes in calls
    n = len(calls)
    b = cp.asarray(host)
    assert len(calls) == n
    np.testing.assert_array_equal(results[0], host + 1)
    assert_array_equal_np(a, host * 2)
    del b


@gpu
def test_set_allocator_unowned_result(restore_allocators, rng):
    """An allocator that hands out slices of one big buffer it owns (UnownedMemory over it)."""
    arena = cp.empty(1 << 20, np.uint8)
    offsets = itertools.count(0, 1 << 16)

    def allocator(size):
        assert size <= 1 << 16
        return cp.cuda.MemoryPointer(cp.cuda.UnownedMemory(arena.data.ptr, arena.nbytes, arena), next(offsets))

    host = random_array((100,), np.int16, rng)
    cp.cuda.set_allocator(allocator)
    a = cp.asarray(host) * 3
    cp.cuda.set_allocator(None)
    assert arena.data.ptr <= a.data.ptr < arena.data.ptr + arena.nbytes
    assert_array_equal_np(a, host * 3)


@gpu
@pytest.mark.parametrize("error", [MemoryError, cp.cuda.memory.OutOfMemoryError])
def test_pool_with_python_allocator_retries_after_memory_error(error):
    calls = []

    def allocator(size):
        calls.append(size)
        if len(calls) == 2:
            raise error("full")
        return cp.cuda.MemoryPointer(cp.cuda.Memory(size), 0)

    pool = cp.cuda.MemoryPool(allocator)
    pool.malloc(4096)  # dropped at once: a cached block
    assert pool.n_free_blocks() == 1
    p = pool.malloc(1 << 20)  # the allocator fails once: the cache goes, then it is asked again
    assert len(calls) == 3 and pool.n_free_blocks() == 0 and pool.used_bytes() >= 1 << 20
    del p


@gpu
def test_pool_with_python_allocator_passes_other_errors_on():
    def allocator(size):
        raise RuntimeError("no memory here")

    with pytest.raises(RuntimeError, match="no memory here"):
        cp.cuda.MemoryPool(allocator).malloc(100)


@gpu
def test_managed_memory_pool(restore_allocators, rng):
    pool = cp.cuda.MemoryPool(cp.cuda.malloc_managed)
    p = pool.malloc(1024)
    assert p.ptr and pool.used_bytes() >= 1024
    host = random_array((200,), np.float32, rng)
    cp.cuda.set_allocator(pool.malloc)
    a = cp.asarray(host)
    assert_array_equal_np(cp.sort(a), np.sort(host))
    del a, p


@gpu
def test_pinned_allocators(restore_allocators, rng):
    host = random_array((1 << 19,), np.float32, rng)  # 2 MB: asnumpy returns page-locked memory
    a = cp.asarray(host)
    calls = []

    def allocator(size):
        calls.append(size)
        return cp.get_default_pinned_memory_pool().malloc(size)

    cp.cuda.set_pinned_memory_allocator(allocator)
    np.testing.assert_array_equal(cp.asnumpy(a), host)
    assert calls
    cp.cuda.set_pinned_memory_allocator(None)  # the driver's memory each time
    np.testing.assert_array_equal(cp.asnumpy(a), host)
    p = cp.cuda.alloc_pinned_memory(4096)
    assert p.ptr and p.mem.size == 4096
    cp.cuda.set_pinned_memory_allocator(cp.get_default_pinned_memory_pool().malloc)
    staged = np.frombuffer(cp.cuda.alloc_pinned_memory(host.nbytes), host.dtype, host.size)  # CuPy's idiom
    staged[...] = host
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(staged)), host)


# ---- GPU: array() of nests holding device arrays -----------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_array_of_device_arrays(dtype, rng):
    hosts = [random_array((3, 4), dtype, rng) for _ in range(3)]
    devs = [cp.asarray(h) for h in hosts]
    for got, ref in [(cp.array(devs), np.array(hosts)), (cp.asarray(tuple(devs)), np.asarray(tuple(hosts))),
                     (cp.array([devs, devs[::-1]]), np.array([hosts, hosts[::-1]])),
                     (cp.array(devs, ndmin=4), np.array(hosts, ndmin=4))]:
        assert_array_equal_np(got, ref)


@gpu
def test_array_of_mixed_leaves(rng):
    h = random_array((4,), np.float32, rng)
    g = cp.asarray(h)
    cases = [
        ([g, h, [1, 2, 3, 4]], [h, h, [1, 2, 3, 4]]),
        ([g[::-1], (2.5, 1, True, 7)], [h[::-1], (2.5, 1, True, 7)]),
        ([[g[0], 1], [np.float16(3), g[1]]], [[h[0], 1], [np.float16(3), h[1]]]),
        ([cp.asarray(np.int8(5)), np.uint8(3), np.float16(1.5)], [np.int8(5), np.uint8(3), np.float16(1.5)]),
        ([cp.zeros(0, np.int8), []], [np.zeros(0, np.int8), []]),
        ([cp.arange(3, dtype=np.int8), cp.arange(3, dtype=np.uint8), cp.arange(3, dtype=np.float16)],
         [np.arange(3, dtype=np.int8), np.arange(3, dtype=np.uint8), np.arange(3, dtype=np.float16)]),
    ]
    many = [g[0]] + [float(v) for v in h[1:]] * 50 + [np.float16(2)]  # host siblings move in one copy
    cases.append((many, [h[0]] + [float(v) for v in h[1:]] * 50 + [np.float16(2)]))
    for dev, ref in cases:
        assert_array_equal_np(cp.array(dev), np.array(ref))
    assert_array_equal_np(cp.array([g, h], dtype=np.int16), np.array([h, h], dtype=np.int16))
    assert_array_equal_np(cp.array([g, h], order="F"), np.array([h, h], order="F"))
    assert cp.array([g, h], order="F")._f_contiguous


@gpu
def test_array_of_device_arrays_ragged_raises_like_numpy():
    a, b = np.zeros(2), np.zeros(3)
    expect_error(lambda: np.array([a, b]), lambda: cp.array([cp.asarray(a), cp.asarray(b)]),
                 match="inhomogeneous shape")
    expect_error(lambda: np.array([a, 1.0]), lambda: cp.array([cp.asarray(a), 1.0]), match="inhomogeneous shape")


@gpu
def test_array_of_device_arrays_python_int_overflow_like_numpy():
    expect_error(lambda: np.array([np.zeros(1, np.int8), [300]], dtype=np.int8),
                 lambda: cp.array([cp.zeros(1, np.int8), [300]], dtype=np.int8))


# ---- GPU: n-ary promotion in every function of several operands ---------------------------------

TRIPLES = [(np.int8, np.uint8, np.float16), (np.uint8, np.int8, np.float16), (np.bool_, np.int8, np.uint8, np.float16),
           (np.int16, np.uint16, np.float16), (np.uint32, np.int8, np.float32), (np.float16, np.complex64, np.int16)]


def operands(dtypes, rng, shape=(3, 4)):
    hosts = [random_array(shape, d, rng, low=0, high=5) for d in dtypes]
    return hosts, [cp.asarray(h) for h in hosts]


@gpu
@pytest.mark.parametrize("dtypes", TRIPLES)
def test_joins_promote_all_operands_at_once(dtypes, rng):
    hosts, devs = operands(dtypes, rng)
    for fn in ("concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "block"):
        assert_array_equal_np(getattr(cp, fn)(devs), getattr(np, fn)(hosts))
    assert_array_equal_np(cp.concatenate(devs, axis=None), np.concatenate(hosts, axis=None))
    # NumPy's block promotes level by level for small results and over every leaf at once above
    # list_ndim * size > 2 * 512**2 (its slicing algorithm): both sizes.
    assert_array_equal_np(cp.block([devs[:2], devs[1:3]]), np.block([hosts[:2], hosts[1:3]]))
    big_hosts, big_devs = operands(dtypes, rng, shape=(400, 400))
    assert_array_equal_np(cp.block([big_devs[:2], big_devs[1:3]]), np.block([big_hosts[:2], big_hosts[1:3]]))


@gpu
@pytest.mark.parametrize("dtypes", TRIPLES)
def test_choice_functions_promote_all_operands_at_once(dtypes, rng):
    hosts, devs = operands(dtypes, rng)
    n = len(hosts)
    idx = rng.integers(0, n, size=(3, 4))
    assert_array_equal_np(cp.choose(cp.asarray(idx), devs), np.choose(idx, hosts))
    conds = [rng.random((3, 4)) < 0.4 for _ in range(n)]
    assert_array_equal_np(cp.select([cp.asarray(c) for c in conds], devs), np.select(conds, hosts))
    assert_array_equal_np(cp.where(cp.asarray(conds[0]), devs[1], devs[2]), np.where(conds[0], hosts[1], hosts[2]))
    if np.dtype(dtypes[-1]).kind != "c" and len(dtypes) == 3:
        assert_array_equal_np(cp.clip(*devs), np.clip(*hosts))


@gpu
@given(st.lists(st.sampled_from(ALL_DTYPES), min_size=2, max_size=5))
def test_concatenate_dtype_over_random_dtype_lists(dtypes):
    hosts = [np.arange(3).astype(d) for d in dtypes]
    got = cp.concatenate([cp.asarray(h) for h in hosts])
    assert_array_equal_np(got, np.concatenate(hosts))
    assert cp.stack([cp.asarray(h) for h in hosts]).dtype == np.stack(hosts).dtype


# ---- GPU: cuarray.testing with device arrays ----------------------------------------------------------

@gpu
def test_testing_helpers_accept_any_mix(rng):
    h = random_array((5, 3), np.float32, rng)
    g = cp.asarray(h)
    for x, y in [(g, h), (h, g), (g, g), (g, h.tolist())]:
        cp.testing.assert_allclose(x, y)
        cp.testing.assert_array_equal(x, y)
        cp.testing.assert_array_almost_equal(x, y)
        cp.testing.assert_equal(x, y)
        cp.testing.assert_almost_equal(x, y)
        cp.testing.assert_array_less(x, cp.asarray(h) + 1)
    cp.testing.assert_equal([g, {"k": g}], [h, {"k": h}])
    with pytest.raises(AssertionError):
        cp.testing.assert_allclose(g, h + 1)
    with pytest.raises(AssertionError):
        cp.testing.assert_array_equal(g[::-1], h)
