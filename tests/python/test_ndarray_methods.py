"""ndarray methods: astype (every dtype pair), copy, fill, view, item, tolist, len/iter, Python
conversions, repr/str, get/set and pickling — against NumPy."""
import operator
import pickle
import platform
import warnings

import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, LAYOUTS, assert_array_equal_np, check_like_numpy, layout_pair,
                     numpy_outcome, random_array)

pytestmark = pytest.mark.gpu


def astype_source(src, dst, shape, rng):
    """Random src data whose conversion to dst is defined (NumPy leaves out-of-range and NaN
    float->int conversions platform-specific): in-range values for float->int, small integers for
    int->float16, specials only between inexact types."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src.kind in "fc" and dst.kind in "iu":
        low = 0.0 if dst.kind == "u" else -100.0
        return random_array(shape, src, rng, low=low, high=100.0)
    if src.kind in "iu" and dst == np.float16:
        return random_array(shape, src, rng, low=-1000, high=1000)
    if src.kind in "fc" and dst.kind == "b":
        return random_array(shape, src, rng, zeros=True, special=True)
    return random_array(shape, src, rng, special=dst.kind in "fc")


@pytest.mark.parametrize("dst", ALL_DTYPES)
@pytest.mark.parametrize("src", ALL_DTYPES)
def test_astype_every_pair(src, dst, rng):
    host = astype_source(src, dst, (7, 45), rng)
    g = cp.asarray(host)
    check_like_numpy(lambda: host.astype(dst), lambda: g.astype(dst))
    # non-contiguous source
    check_like_numpy(lambda: host[::2, ::-3].astype(dst), lambda: g[::2, ::-3].astype(dst))


@pytest.mark.skipif(platform.machine() != "x86_64", reason="NumPy's out-of-range float->int casts are x86 results")
@pytest.mark.parametrize("dst", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("src", [np.float16, np.float32, np.float64, np.complex64])
def test_astype_undefined_float_to_int_as_x86(src, dst):
    """NaN, infinities and out-of-range values give what NumPy gives on x86-64 (the integer
    indefinite of cvttsd2si, low bits of a 32-bit conversion for narrow types), not the GPU's
    saturation: NaN -> int64 is INT64_MIN, 300.0 -> int8 is 44."""
    values = [np.nan, np.inf, -np.inf, 3e9, -3e9, 1e19, 2e19, -1.0, 300.0, -129.0, 5e9, 7e4, 0.75, -0.75, 2.0**31,
              2.0**63, -(2.0**31), -(2.0**63), 65535.9, 1e5]
    host = np.array(values).astype(src)
    if dst == np.uint32:
        # NumPy's own uint32 results for NaN and values outside (-2**31, 2**32) differ between its
        # vectorized and scalar loops (so with the array's length, the element's position and the
        # source dtype); cuarray gives the vectorized loop's. Only the wrapping range is defined.
        real = host.real.astype(np.float64)
        host = host[(real > -(2.0**31)) & (real < 2.0**32)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = host.astype(dst)
    assert_array_equal_np(cp.asarray(host).astype(dst), ref)


def test_astype_copy_flag(rng):
    host = random_array((4, 5), np.float32, rng)
    g = cp.asarray(host)
    assert g.astype(np.float32, copy=False) is g
    copied = g.astype(np.float32)
    assert copied is not g and copied.data.ptr != g.data.ptr
    copied[0, 0] = 99.0
    assert_array_equal_np(g, host)
    converted = g.astype(np.float64, copy=False)
    assert converted.dtype == np.float64 and converted.data.ptr != g.data.ptr


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", ["c", "f", "transposed", "stepped", "negative", "0d"])
def test_astype_and_copy_order(layout, order, rng):
    ref_src, cp_src = layout_pair(layout, (3, 4, 5), np.int16, rng)
    for ref, got in [(ref_src.copy(order=order), cp_src.copy(order=order)),
                     (ref_src.astype(np.float32, order=order), cp_src.astype(np.float32, order=order)),
                     (np.copy(ref_src, order=order), cp.copy(cp_src, order=order))]:
        assert_array_equal_np(got, ref)
        assert got.strides == ref.strides
        assert got.flags.c_contiguous == ref.flags.c_contiguous
        assert got.flags.f_contiguous == ref.flags.f_contiguous
        assert got.data.ptr != cp_src.data.ptr


def test_copy_is_independent(rng):
    host = random_array((5,), np.int64, rng)
    g = cp.asarray(host)
    c = g.copy()
    c[...] = 0
    assert_array_equal_np(g, host)


FILL_VALUES = [3, -2, 2.5, 1 + 1j, True, 0, np.float32(-1.25), 300]


@pytest.mark.parametrize("value", FILL_VALUES, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill(dtype, value, rng):
    for layout in ("c", "stepped"):
        ref, got = layout_pair(layout, (4, 5), dtype, rng)
        check_like_numpy(lambda: (ref.fill(value), ref)[1], lambda: (got.fill(value), got)[1])


def test_keyword_names(rng):
    # NumPy's ndarray.swapaxes and fill are positional-only; CuPy's take these keywords, and so do ours.
    ref, got = layout_pair("stepped", (4, 5, 3), np.float32, rng)
    assert_array_equal_np(got.swapaxes(axis1=0, axis2=2), ref.swapaxes(0, 2))
    got.fill(value=2.5)
    ref.fill(2.5)
    assert_array_equal_np(got, ref)
    moved = cp.asanyarray(ref, device=0)
    assert moved.device.id == 0
    assert_array_equal_np(moved, ref)


@pytest.mark.parametrize("layout", ["c", "f", "stepped"])
def test_bytes_files_pickles_and_membership(layout, rng, tmp_path):
    import pickle
    ref, got = layout_pair(layout, (3, 4), np.float32, rng)
    for order in ("C", "F", "A", "K"):
        assert got.tobytes(order) == ref.tobytes(order), order
    got.tofile(tmp_path / "binary")
    np.testing.assert_array_equal(np.fromfile(tmp_path / "binary", np.float32).reshape(3, 4), ref)
    got.tofile(str(tmp_path / "text"), sep=",", format="%.3f")
    ref.tofile(str(tmp_path / "ref"), sep=",", format="%.3f")
    assert (tmp_path / "text").read_text() == (tmp_path / "ref").read_text()
    for back in (pickle.loads(got.dumps()), _dumped_and_loaded(got, tmp_path)):
        assert isinstance(back, cp.ndarray)
        assert_array_equal_np(back, ref)
    assert ref[1, 2] in got and (ref.max() + 1) not in got
    assert (2.5 in cp.zeros(3)) is False


def _dumped_and_loaded(x, tmp_path):
    import pickle
    x.dump(tmp_path / "pickled")
    with open(tmp_path / "pickled", "rb") as f:
        return pickle.load(f)


VIEW_CASES = [
    (np.int32, np.float32, (3, 4)), (np.float64, np.int64, (3, 4)), (np.uint16, np.float16, (5,)),
    (np.complex64, np.float32, (3, 4)), (np.float32, np.complex64, (3, 4)),
    (np.int16, np.int8, (2, 3)), (np.uint8, np.int32, (2, 8)), (np.complex128, np.uint64, (3,)),
    (np.int8, np.bool_, (6,)), (np.float64, np.float32, (0,)),
]


@pytest.mark.parametrize("src, dst, shape", VIEW_CASES, ids=repr)
def test_view_dtype(src, dst, shape, rng):
    host = random_array(shape, src, rng)
    if np.dtype(dst) == np.bool_:
        host = random_array(shape, np.uint8, rng, low=0, high=1).astype(src)
    g = cp.asarray(host)
    got = g.view(dst)
    assert_array_equal_np(got, host.view(dst))
    assert got.data.ptr == g.data.ptr
    # a different itemsize needs a contiguous last axis (ValueError otherwise)
    check_like_numpy(lambda: host[..., ::2].view(np.int8), lambda: g[..., ::2].view(np.int8))


def _same_python_scalar(got, ref):
    assert type(got) is type(ref), f"{type(got)} != {type(ref)}"
    assert got == ref or (got != got and ref != ref)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_item(dtype, rng):
    host = random_array((3, 4), dtype, rng, special=True)
    g = cp.asarray(host)
    _same_python_scalar(g[1, 2].item(), host[1, 2].item())
    _same_python_scalar(g.item(5), host.item(5))
    _same_python_scalar(g.item(2, 3), host.item(2, 3))
    _same_python_scalar(g[1:2, 3:4].item(), host[1:2, 3:4].item())
    check_like_numpy(lambda: host.item(), lambda: g.item())
    check_like_numpy(lambda: host.item(12), lambda: g.item(12))


@pytest.mark.parametrize("layout", ["c", "f", "negative", "0d", "empty"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tolist(dtype, layout, rng):
    ref, got = layout_pair(layout, (2, 3, 2), dtype, rng)
    ref_list, got_list = ref.tolist(), got.tolist()
    assert got_list == ref_list
    flat_ref, flat_got = ref.ravel().tolist(), got.ravel().tolist()
    assert [type(v) for v in flat_got] == [type(v) for v in flat_ref]


def test_len_and_iter(rng):
    for shape in [(4,), (3, 5), (0, 2), (1,)]:
        host = random_array(shape, np.float32, rng)
        g = cp.asarray(host)
        assert len(g) == len(host)
        items = list(iter(g))
        assert len(items) == len(host)
        for got_item, ref_item in zip(items, host):
            assert_array_equal_np(got_item, ref_item)
    zero_d = cp.asarray(np.float32(1.5))
    check_like_numpy(lambda: len(np.ones(())), lambda: len(zero_d))
    check_like_numpy(lambda: list(np.ones(())), lambda: list(zero_d))


CONVERSIONS = [bool, int, float, complex, operator.index]


@pytest.mark.parametrize("convert", CONVERSIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_python_conversions(dtype, convert, rng):
    for shape in [(), (1,), (1, 1), (2,), (0,)]:
        host = random_array(shape, dtype, rng, low=-50, high=50)
        g = cp.asarray(host)
        ref, exc = numpy_outcome(lambda: convert(host))
        if exc is not None:
            check_like_numpy(lambda: convert(host), lambda: convert(g))
        else:
            _same_python_scalar(convert(g), ref)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_bool_of_zero_and_nonzero(dtype):
    assert bool(cp.zeros((), dtype=dtype)) is False
    assert bool(cp.ones((1,), dtype=dtype)) is True


REPR_SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2000,), (40, 40)]


@pytest.mark.parametrize("shape", REPR_SHAPES, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_repr_and_str_equal_numpys(dtype, shape, rng):
    host = random_array(shape, dtype, rng, special=True)
    g = cp.asarray(host)
    assert repr(g) == repr(host)
    assert str(g) == str(host)


def test_repr_of_views(rng):
    host = random_array((6, 7), np.float32, rng)
    g = cp.asarray(host)
    assert repr(g[::2, ::-3]) == repr(host[::2, ::-3])
    assert repr(g.T) == repr(host.T)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_get(layout, rng):
    ref, g = layout_pair(layout, (3, 4, 5), np.complex64, rng)
    host = g.get()
    assert type(host) is np.ndarray
    np.testing.assert_array_equal(host, ref, strict=True)


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float64)])
def test_set(dtype, rng):
    g = cp.empty((3, 4), dtype=dtype)
    host = random_array((3, 4), dtype, rng)
    g.set(host)
    assert_array_equal_np(g, host)
    host_f = np.asfortranarray(random_array((3, 4), dtype, rng))
    g.set(host_f)
    assert_array_equal_np(g, host_f)


@pytest.mark.parametrize("layout", ["c", "f", "stepped", "negative", "0d", "empty"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_pickle_round_trip(dtype, layout, rng):
    ref, g = layout_pair(layout, (3, 4), dtype, rng, special=True)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(g, protocol=protocol))
        assert_array_equal_np(back, ref)
        assert back.flags.f_contiguous == pickle.loads(pickle.dumps(ref, protocol)).flags.f_contiguous
