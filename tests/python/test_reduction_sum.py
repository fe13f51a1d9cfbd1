"""sum (function and method) against NumPy: axes, keepdims, dtype=, NumPy's accumulator and result
dtypes, every layout, empty reductions, and sizes that exercise each reduction plan."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, LAYOUTS, assert_allclose_np, assert_array_equal_np,
                     check_like_numpy, layout_pair, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu

AXES = [None, 0, 1, 2, -1, -3, (0, 2), (1, 2), (0, 1, 2), (), (2, 0)]


def sum_tolerance(host, axis, keepdims, result_dtype):
    """Pairwise/tree summation error bound: a few ulps of the accumulator times log2(n) times
    sum(|x|) along the reduced axes."""
    result_dtype = np.dtype(result_dtype)
    if result_dtype.kind not in "fc":
        return 0.0
    acc = np.float32 if result_dtype.itemsize <= 4 and result_dtype.kind == "f" else result_dtype
    eps = np.finfo(np.dtype(acc).type(0).real.dtype).eps
    magnitude = np.sum(np.abs(host.astype(np.complex128 if host.dtype.kind == "c" else np.float64)),
                       axis=axis, keepdims=keepdims)
    n = max(host.size // max(np.size(magnitude), 1), 1)
    if result_dtype == np.float16:
        # cuarray accumulates float16 in float32 (one rounding); NumPy's reduction along an outer
        # axis rounds to float16 after every addition, so the reference itself is off by ~n ulp.
        return np.finfo(np.float16).eps * (n + 1) * magnitude
    return 4 * eps * (np.log2(n) + 2) * magnitude


def assert_sum_close(got, ref, host, axis=None, keepdims=False):
    ref_arr = np.asarray(ref)
    atol = sum_tolerance(host, axis, keepdims, ref_arr.dtype)
    assert_allclose_np(got, ref, atol=atol)


@pytest.mark.parametrize("axis", AXES, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sum_axes(dtype, axis, rng):
    host = random_array((4, 5, 6), dtype, rng)
    g = cp.asarray(host)
    for keepdims in (False, True):
        ref, exc = numpy_outcome(lambda: np.sum(host, axis=axis, keepdims=keepdims))
        if exc is not None:
            check_like_numpy(lambda: np.sum(host, axis=axis), lambda: cp.sum(g, axis=axis))
            continue
        assert_sum_close(cp.sum(g, axis=axis, keepdims=keepdims), ref, host, axis, keepdims)
        assert_sum_close(g.sum(axis=axis, keepdims=keepdims), ref, host, axis, keepdims)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sum_result_dtype(dtype, rng):
    """bool and small ints accumulate to int64, unsigned to uint64, float16 stays float16."""
    host = random_array((7, 9), dtype, rng)
    expected = np.sum(host).dtype
    assert cp.sum(cp.asarray(host)).dtype == expected
    assert cp.asarray(host).sum(axis=0).dtype == expected
    want = {"b": np.int64, "i": np.int64, "u": np.uint64}.get(np.dtype(dtype).kind, dtype)
    assert expected == want  # guards the oracle itself: these are NumPy's documented rules


@pytest.mark.parametrize("out_dtype", [np.dtype(d) for d in (np.int8, np.int32, np.uint16,
                                                             np.float32, np.float64, np.complex64,
                                                             np.bool_)])
@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.bool_, np.int8, np.uint32, np.int64,
                                                         np.float16, np.float32, np.complex128)])
def test_sum_dtype_argument(dtype, out_dtype, rng):
    host = random_array((6, 50), dtype, rng, low=-100, high=100)
    g = cp.asarray(host)
    for axis in (None, 1, 0):
        ref, exc = numpy_outcome(lambda: np.sum(host, axis=axis, dtype=out_dtype))
        if exc is not None:
            check_like_numpy(lambda: np.sum(host, axis=axis, dtype=out_dtype),
                             lambda: cp.sum(g, axis=axis, dtype=out_dtype))
            continue
        assert_sum_close(cp.sum(g, axis=axis, dtype=out_dtype), ref, host.astype(out_dtype), axis)


def test_sum_int8_wraps_with_dtype_int8(rng):
    host = random_array((1000,), np.int8, rng)
    g = cp.asarray(host)
    assert_array_equal_np(g.sum(dtype=np.int8), np.sum(host, dtype=np.int8))
    assert_array_equal_np(g.sum(), np.sum(host))  # int64: no wrap


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int64, np.uint64, np.int32)])
def test_sum_full_range_integers_wrap_like_numpy(dtype, rng):
    host = random_array((3, 1000), dtype, rng)
    g = cp.asarray(host)
    for axis in (None, 0, 1):
        assert_array_equal_np(g.sum(axis=axis), host.sum(axis=axis))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int16, np.float32, np.float64,
                                                         np.complex64, np.bool_)])
def test_sum_layouts(dtype, layout, rng):
    ref_in, g = layout_pair(layout, (5, 6, 7), dtype, rng)
    for axis in (None, 0, -1, (0, 1)):
        ref, exc = numpy_outcome(lambda: np.sum(ref_in, axis=axis))
        if exc is not None:
            check_like_numpy(lambda: np.sum(ref_in, axis=axis), lambda: cp.sum(g, axis=axis))
            continue
        assert_sum_close(cp.sum(g, axis=axis), ref, ref_in, axis)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sum_of_empty(dtype):
    for shape, axis in [((0,), None), ((3, 0), 1), ((3, 0), 0), ((0, 4), None), ((2, 0, 3), (0, 2))]:
        host = np.zeros(shape, dtype)
        got = cp.sum(cp.zeros(shape, dtype=dtype), axis=axis)
        assert_array_equal_np(got, np.sum(host, axis=axis))


@pytest.mark.parametrize("shape, axis", [((2, 100003), 1), ((100003, 3), 0), ((1000, 1000), 0),
                                         ((1000, 1000), 1), ((1000, 1000), None), ((1 << 22,), None),
                                         ((257, 33, 65), (0, 2)), ((7, 1 << 17), 0)], ids=repr)
@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int32, np.float32, np.float64)])
def test_sum_large_plans(dtype, shape, axis, rng):
    """Inner-contiguous rows, tall columns, everything at once; sizes not powers of two."""
    host = random_array(shape, dtype, rng, low=-1000, high=1000)
    ref = np.sum(host, axis=axis)
    assert_sum_close(cp.sum(cp.asarray(host), axis=axis), ref, host, axis)


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(np.float32)])
def test_sum_accumulates_wider_than_float16(dtype):
    """1 + 4096 * 2**-11 ... is lost with a float16 accumulator but not with float32."""
    host = np.full(4096, 2.0**-11, dtype=dtype)
    host[0] = 1.0
    assert_allclose_np(cp.sum(cp.asarray(host)), np.sum(host))
    assert float(cp.sum(cp.asarray(host))) == pytest.approx(float(np.sum(host)), rel=1e-3)


@pytest.mark.parametrize("axis", [3, -4, (0, 0), (0, 5)], ids=repr)
def test_sum_bad_axis(axis, rng):
    host = random_array((2, 3, 4), np.float32, rng)
    check_like_numpy(lambda: np.sum(host, axis=axis), lambda: cp.sum(cp.asarray(host), axis=axis))


def test_sum_out(rng):
    host = random_array((4, 6), np.float64, rng)
    g = cp.asarray(host)
    out = cp.empty((6,), dtype=np.float64)
    assert cp.sum(g, axis=0, out=out) is out
    assert_sum_close(out, np.sum(host, axis=0), host, 0)


def test_sum_of_0d(rng):
    host = random_array((), np.float32, rng)
    assert_array_equal_np(cp.sum(cp.asarray(host)), np.sum(host))
    assert_array_equal_np(cp.sum(cp.asarray(host), axis=()), np.sum(host, axis=()))
