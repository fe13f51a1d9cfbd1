"""Array creation: empty/zeros/ones/full (+ _like), ranges, eye/identity/tri, array/asarray from every
kind of input, contiguity conversions, asnumpy and get_array_module — all against NumPy."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, LAYOUTS, all_layouts, assert_allclose_np, assert_array_equal_np,
                     check_like_numpy, layout_pair, random_array)

pytestmark = pytest.mark.gpu

SHAPES = [5, (2, 3), (), (0,), (2, 0, 3), (3, 1, 4)]


def _check_layout(gpu, ref):
    """Same flags and strides as NumPy's result (strides only matter when elements exist)."""
    assert gpu.flags.c_contiguous == ref.flags.c_contiguous
    assert gpu.flags.f_contiguous == ref.flags.f_contiguous
    if ref.size:
        assert gpu.strides == ref.strides


# --- empty / zeros / ones / full ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("func", ["zeros", "ones", "empty"])
def test_zeros_ones_empty(func, shape, dtype):
    for order in ("C", "F"):
        ref = getattr(np, func)(shape, dtype=dtype, order=order)
        got = getattr(cp, func)(shape, dtype=dtype, order=order)
        _check_layout(got, ref)
        if func == "empty":
            assert type(got) is cp.ndarray and got.dtype == ref.dtype and got.shape == ref.shape
        else:
            assert_array_equal_np(got, ref)


@pytest.mark.parametrize("func", ["zeros", "ones", "empty"])
def test_default_dtype_is_float64(func):
    assert getattr(cp, func)((2, 2)).dtype == np.float64
    assert cp.full((2, 2), 1.5).dtype == np.float64


FILL_VALUES = [7, -2, 2.5, 1 + 2j, True, np.float32(1.5), np.int8(-3), np.uint16(9), 300]


@pytest.mark.parametrize("fill", FILL_VALUES, ids=repr)
@pytest.mark.parametrize("dtype", [None] + ALL_DTYPES)
def test_full(fill, dtype):
    check_like_numpy(lambda: np.full((3, 4), fill, dtype=dtype),
                     lambda: cp.full((3, 4), fill, dtype=dtype))


@pytest.mark.parametrize("dtype", [None, np.dtype(np.int16), np.dtype(np.complex64)])
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@pytest.mark.parametrize("layout", ["c", "f", "transposed", "stepped"])
@pytest.mark.parametrize("func", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like(func, layout, order, dtype, rng):
    proto_np, proto_cp = layout_pair(layout, (3, 4, 5), np.float32, rng)
    extra = (2.5,) if func == "full_like" else ()
    ref = getattr(np, func)(proto_np, *extra, dtype=dtype, order=order)
    got = getattr(cp, func)(proto_cp, *extra, dtype=dtype, order=order)
    assert type(got) is cp.ndarray and got.dtype == ref.dtype and got.shape == ref.shape
    _check_layout(got, ref)
    if func != "empty_like":
        assert_array_equal_np(got, ref)
    assert got.data.ptr != proto_cp.data.ptr


@pytest.mark.parametrize("func", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like_with_shape(func, rng):
    proto_np, proto_cp = layout_pair("c", (3, 4), np.int32, rng)
    extra = (7,) if func == "full_like" else ()
    for shape in [(5,), (2, 0), (), (2, 3, 4)]:
        ref = getattr(np, func)(proto_np, *extra, shape=shape)
        got = getattr(cp, func)(proto_cp, *extra, shape=shape)
        assert got.shape == ref.shape and got.dtype == ref.dtype
        if func != "empty_like":
            assert_array_equal_np(got, ref)


# --- arange, linspace, logspace, geomspace ---------------------------------------------------------

_INT_ARGS = [(10,), (0,), (-3,), (2, 10), (2, 10, 3), (10, 2, -2), (10, 2), (3, 3), (-5, 5, 1),
             (0, 10, 0), (np.int32(5),), (np.int8(2), 20, np.int8(3))]
_FLOAT_ARGS = [(0, 1, 0.1), (1, 2, 0.3), (-1.5, 1.5, 0.5), (10.0,), (0.5, 5), (5, 0, -0.75),
               (np.float32(1), 3), (np.float32(0.5), 4, 0.25)]
_BIG_ARGS = [(0, 2**40, 2**37), (2**62, 2**62 + 5)]
_INT_DTYPES = [None, np.dtype(np.int16), np.dtype(np.uint8), np.dtype(np.int64),
               np.dtype(np.float32), np.dtype(np.float64)]
_FLOAT_DTYPES = [None, np.dtype(np.float32), np.dtype(np.float64)]
# Non-integer arguments with an integer dtype are left out: NumPy's result there is a documented
# quirk of its fill algorithm (step computed from the first two cast values), not a rule.
ARANGE_CASES = ([(a, d) for a in _INT_ARGS for d in _INT_DTYPES]
                + [(a, d) for a in _FLOAT_ARGS for d in _FLOAT_DTYPES]
                + [(a, d) for a in _BIG_ARGS for d in (None, np.dtype(np.int64), np.dtype(np.float64))])


@pytest.mark.parametrize("args, dtype", ARANGE_CASES, ids=repr)
def test_arange(args, dtype):
    check_like_numpy(lambda: np.arange(*args, dtype=dtype), lambda: cp.arange(*args, dtype=dtype),
                     compare=assert_allclose_np)


def test_arange_keywords():
    assert_array_equal_np(cp.arange(start=2, stop=9, step=2), np.arange(start=2, stop=9, step=2))
    assert_array_equal_np(cp.arange(stop=4), np.arange(stop=4))


def test_arange_long_float_steps():
    # length is ceil((stop - start) / step): a classic off-by-one source
    for start, stop, step in [(0, 1, 1 / 3), (0, 0.3, 0.1), (1, 1.3, 0.1), (0, 10, 0.7), (-2, 2, 0.4)]:
        assert_allclose_np(cp.arange(start, stop, step), np.arange(start, stop, step))


LINSPACE_CASES = [
    dict(start=0, stop=1, num=5), dict(start=0, stop=1, num=5, endpoint=False),
    dict(start=-3.5, stop=7, num=50), dict(start=2, stop=-2, num=7), dict(start=0, stop=1, num=0),
    dict(start=3, stop=9, num=1), dict(start=3, stop=9, num=1, endpoint=False),
    dict(start=0, stop=10, num=4, dtype=np.int64), dict(start=-10, stop=0, num=4, dtype=np.int32),
    dict(start=0, stop=1, num=11, dtype=np.float32), dict(start=1j, stop=2 + 3j, num=6),
    dict(start=0, stop=1, num=-1), dict(start=0, stop=1e10, num=1000),
]


@pytest.mark.parametrize("kw", LINSPACE_CASES, ids=repr)
def test_linspace(kw):
    check_like_numpy(lambda: np.linspace(**kw), lambda: cp.linspace(**kw), compare=assert_allclose_np)


@pytest.mark.parametrize("num, endpoint", [(5, True), (5, False), (1, True), (1, False), (0, True)])
def test_linspace_retstep(num, endpoint):
    ref, ref_step = np.linspace(-2, 6, num, endpoint=endpoint, retstep=True)
    got, got_step = cp.linspace(-2, 6, num, endpoint=endpoint, retstep=True)
    assert_allclose_np(got, ref)
    if np.isnan(ref_step):
        assert np.isnan(float(got_step))
    else:
        assert float(got_step) == pytest.approx(float(ref_step), rel=1e-15)


LOGSPACE_CASES = [
    dict(start=0, stop=3, num=4), dict(start=0, stop=3, num=4, base=2),
    dict(start=-2, stop=2, num=9, endpoint=False), dict(start=1, stop=2, num=5, dtype=np.float32),
    dict(start=0, stop=1, num=0), dict(start=2, stop=2, num=3, base=np.e),
]


@pytest.mark.parametrize("kw", LOGSPACE_CASES, ids=repr)
def test_logspace(kw):
    check_like_numpy(lambda: np.logspace(**kw), lambda: cp.logspace(**kw), compare=assert_allclose_np)


GEOMSPACE_CASES = [
    dict(start=1, stop=1000, num=4), dict(start=-1, stop=-1000, num=4),
    dict(start=1, stop=1000, num=5, endpoint=False), dict(start=2, stop=0.5, num=7),
    dict(start=1, stop=256, num=9, dtype=np.float32), dict(start=0, stop=10, num=3),
    dict(start=-1, stop=10, num=3), dict(start=5, stop=5, num=3),
]


@pytest.mark.parametrize("kw", GEOMSPACE_CASES, ids=repr)
def test_geomspace(kw):
    check_like_numpy(lambda: np.geomspace(**kw), lambda: cp.geomspace(**kw), compare=assert_allclose_np)


# --- eye, identity, tri ------------------------------------------------------------------------------

@pytest.mark.parametrize("N, M, k", [(3, None, 0), (4, 6, 1), (6, 4, -2), (5, 5, 7), (5, 3, -9),
                                     (0, None, 0), (1, 1, 0), (4, 4, -1)])
@pytest.mark.parametrize("dtype", [None, np.dtype(np.bool_), np.dtype(np.int8),
                                   np.dtype(np.float32), np.dtype(np.complex128)])
def test_eye_and_tri(N, M, k, dtype):
    assert_array_equal_np(cp.eye(N, M, k, dtype=dtype), np.eye(N, M, k, dtype=dtype))
    assert_array_equal_np(cp.eye(N, M, k=k, dtype=dtype), np.eye(N, M, k=k, dtype=dtype))
    assert_array_equal_np(cp.tri(N, M, k, dtype=dtype), np.tri(N, M, k, dtype=dtype))


def test_eye_order_f():
    ref = np.eye(3, 5, 1, order="F")
    got = cp.eye(3, 5, 1, order="F")
    assert_array_equal_np(got, ref)
    _check_layout(got, ref)


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("dtype", [None, np.dtype(np.int64), np.dtype(np.float16)])
def test_identity(n, dtype):
    assert_array_equal_np(cp.identity(n, dtype=dtype), np.identity(n, dtype=dtype))


# --- array / asarray / asanyarray ---------------------------------------------------------------------

SCALARS = [3, -7, 3.5, 1 + 2j, True, 2**63, np.float32(1.5), np.int8(-3), np.uint64(2**63 + 1),
           np.complex64(1 - 1j), np.float16(0.1), np.bool_(False)]


@pytest.mark.parametrize("value", SCALARS, ids=repr)
@pytest.mark.parametrize("func", ["array", "asarray", "asanyarray"])
def test_from_scalar(func, value):
    assert_array_equal_np(getattr(cp, func)(value), getattr(np, func)(value))


NESTED = [
    [1, 2, 3], [[1, 2], [3, 4]], [[1, 2.5], [3, 4]], [1, 2j], [True, False], [[True, 2]],
    [], [[]], [[[1], [2]], [[3], [4]]], [np.float32(1), np.float32(2)], [2**63, 1],
    [[1, 2], [3]], [1.5, np.int8(3)], [np.int8(1), np.uint8(2)], [-1, 2**63],
]


@pytest.mark.parametrize("data", NESTED, ids=repr)
@pytest.mark.parametrize("dtype", [None, np.dtype(np.int16), np.dtype(np.float32),
                                   np.dtype(np.complex128), np.dtype(np.uint8)])
def test_from_nested_list(data, dtype):
    check_like_numpy(lambda: np.array(data, dtype=dtype), lambda: cp.array(data, dtype=dtype))
    check_like_numpy(lambda: np.asarray(data, dtype=dtype), lambda: cp.asarray(data, dtype=dtype))


def test_from_list_ndmin_and_order():
    assert_array_equal_np(cp.array([1, 2], ndmin=3), np.array([1, 2], ndmin=3))
    ref = np.array([[1, 2, 3], [4, 5, 6]], order="F")
    got = cp.array([[1, 2, 3], [4, 5, 6]], order="F")
    assert_array_equal_np(got, ref)
    _check_layout(got, ref)


def test_host_data_in_every_order_and_case(rng):
    host = rng.standard_normal((3, 4))
    for source in (host, np.asfortranarray(host), host[:, ::2]):
        for order in ("C", "F", "A", "K", "c", "f", "a", "k", None):
            ref = np.array(source, order=order)  # a copy's layout (np.asarray may return a strided view)
            for ours in (cp.asarray, cp.array):
                got = ours(source, order=order)
                assert_array_equal_np(got, ref)
                _check_layout(got, ref)
    for func in (cp.asarray, cp.array):
        with pytest.raises(ValueError, match=r"order must be one of 'C', 'F', 'A', or 'K' \(got 'X'\)"):
            func(host, order="X")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_from_numpy_array(dtype, layout, rng):
    host, _ = layout_pair(layout, (3, 4, 5), dtype, rng, special=True)
    for func in (cp.array, cp.asarray, cp.asanyarray):
        got = func(host)
        assert_array_equal_np(got, host)
    got = cp.asarray(host)
    snapshot = host.copy()
    if host.flags.writeable and host.size:  # later host writes must not reach the GPU copy
        host[...] = ~snapshot if dtype == np.bool_ else 1
    assert_array_equal_np(got, snapshot)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int64)])
def test_from_numpy_array_with_dtype(dtype, rng):
    host = random_array((4, 6), np.float64, rng, low=-50, high=50)[:, ::2]
    check_like_numpy(lambda: np.asarray(host, dtype=dtype), lambda: cp.asarray(host, dtype=dtype))


def test_from_cuarray_asarray_is_identity(rng):
    g = cp.asarray(random_array((3, 4), np.float32, rng))
    assert cp.asarray(g) is g
    assert cp.asanyarray(g) is g
    assert cp.asarray(g, dtype=np.float32) is g


def test_from_cuarray_with_new_dtype(rng):
    host = random_array((3, 4), np.float64, rng, low=-100, high=100)
    g = cp.asarray(host)
    got = cp.asarray(g, dtype=np.int32)
    assert_array_equal_np(got, host.astype(np.int32))
    assert_array_equal_np(g, host)


def test_from_cuarray_copy_semantics(rng):
    host = random_array((3, 4), np.int32, rng)
    g = cp.asarray(host)
    copied = cp.array(g)
    assert copied is not g and copied.data.ptr != g.data.ptr
    copied[0, 0] = 12345
    assert_array_equal_np(g, host)
    copied_too = cp.array(g, copy=True)
    assert copied_too.data.ptr != g.data.ptr
    shared = cp.array(g, copy=False)
    assert shared.data.ptr == g.data.ptr
    shared[1, 1] = -7
    host[1, 1] = -7
    assert_array_equal_np(g, host)


@pytest.mark.parametrize("make", [cp.asarray, cp.array])
def test_copy_false_never_copies(make, rng):
    """NumPy 2's copy=False (CuPy's too): a call that would need a copy raises ValueError, as NumPy's."""
    host = rng.standard_normal((3, 4)).astype(np.float32)
    g = cp.asarray(host)
    assert make(g, copy=False) is g
    assert make(g, dtype=np.float32, copy=False) is g
    for kwargs in ({"dtype": np.float64}, {"order": "F"}):
        with pytest.raises(ValueError):
            getattr(np, make.__name__)(host, copy=False, **kwargs)  # NumPy refuses the same calls
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            make(g, copy=False, **kwargs)
    with pytest.raises(ValueError, match="Unable to avoid copy while creating an array from host data"):
        make(host, copy=False)
    assert make(g, dtype=np.float64).dtype == np.float64  # copy=None (asarray) / True (array) convert


def test_from_cuarray_view_and_order(rng):
    host = random_array((4, 6), np.float32, rng)
    g = cp.asarray(host)
    assert_array_equal_np(cp.array(g[::2, ::-3]), host[::2, ::-3])
    ref = np.array(host, order="F")
    got = cp.array(g, order="F")
    assert_array_equal_np(got, ref)
    _check_layout(got, ref)


# --- contiguity conversions -----------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("func", ["ascontiguousarray", "asfortranarray"])
def test_contiguity_conversion(func, layout, rng):
    ref_in, got_in = layout_pair(layout, (3, 4, 5), np.complex64, rng)
    ref = getattr(np, func)(ref_in)
    got = getattr(cp, func)(got_in)
    assert_array_equal_np(got, ref)
    _check_layout(got, ref)
    ref = getattr(np, func)(ref_in, dtype=np.complex128)
    assert_array_equal_np(getattr(cp, func)(got_in, dtype=np.complex128), ref)


def test_ascontiguousarray_keeps_contiguous_input(rng):
    g = cp.asarray(random_array((3, 4), np.int16, rng))
    assert cp.ascontiguousarray(g).data.ptr == g.data.ptr


# --- asnumpy, get_array_module ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asnumpy(dtype, rng):
    for layout, ref, g in all_layouts((3, 4, 5), dtype, rng, special=True):
        host = cp.asnumpy(g)
        assert type(host) is np.ndarray, layout
        np.testing.assert_array_equal(host, ref, strict=True, err_msg=f"layout {layout}")


def test_asnumpy_out(rng):
    ref, g = layout_pair("stepped", (3, 4), np.int32, rng)
    out = np.empty((3, 4), dtype=np.int32)
    result = cp.asnumpy(g, out=out)
    assert result is out
    np.testing.assert_array_equal(out, ref, strict=True)


def test_asnumpy_passes_numpy_through(rng):
    host = random_array((5,), np.float32, rng)
    np.testing.assert_array_equal(cp.asnumpy(host), host, strict=True)


def test_get_array_module(rng):
    host = random_array((3,), np.float32, rng)
    g = cp.asarray(host)
    assert cp.get_array_module(g) is cp
    assert cp.get_array_module(host) is np
    assert cp.get_array_module(host, g) is cp
    assert cp.get_array_module(1.5, host) is np
