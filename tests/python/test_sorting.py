"""sort, argsort, lexsort, partition/argpartition, sort_complex and searchsorted (functions and
ndarray methods) against NumPy: every dtype, every axis of ranks 1-4, many duplicates (argsort
must equal NumPy's kind='stable' exactly), NaN/inf/-0.0 placement (signed zeros kept in input
order), non-contiguous inputs, size 0, rows of length 1, row lengths around the block-sort limit
(2048), many short rows, one long sort, and NumPy's exceptions.
"""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, INEXACT, assert_array_equal_np, assert_raises_like, numpy_outcome, random_array

pytestmark = pytest.mark.gpu

SHAPES = [(7,), (5, 6), (3, 4, 5), (2, 3, 2, 3)]


def sort_data(shape, dtype, rng):
    """Random data with many duplicates: small integer ranges, floats rounded to halves with NaN,
    +-inf, -0.0 and 0.0 mixed in (complex: in either part)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        return random_array(shape, dtype, rng, low=-6, high=6)
    if dtype.kind == "u":
        return random_array(shape, dtype, rng, low=0, high=9)
    if dtype.kind in "fc":
        x = random_array(shape, dtype, rng, low=-3, high=3, ties=True, special=True)
        return np.where(rng.random(x.shape) < 0.3, np.round(x), x).astype(dtype)
    return random_array(shape, dtype, rng)


def wide_data(shape, dtype, rng):
    """Data over the dtype's whole range (every radix digit varies)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        return random_array(shape, dtype, rng, special=True)
    return random_array(shape, dtype, rng)


def check_sort(x, axis=-1, *, data_kind="dups"):
    d = cp.asarray(x)
    assert_array_equal_np(cp.sort(d, axis=axis), np.sort(x, axis=axis, kind="stable"), signed_zeros=True)
    assert_array_equal_np(cp.argsort(d, axis=axis), np.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"rank{len(s)}")
def test_sort_every_axis(dtype, shape, rng):
    x = sort_data(shape, dtype, rng)
    for axis in [None] + list(range(-len(shape), len(shape))):
        check_sort(x, axis)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_wide_values(dtype, rng):
    check_sort(wide_data((3, 301), dtype, rng))
    check_sort(wide_data((5000,), dtype, rng))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("length", [1, 2, 31, 32, 33, 255, 1000, 2047, 2048, 2049, 4500])
def test_row_lengths_around_block_limit(dtype, length, rng):
    """Rows up to 2048 sort one block per row; longer rows use the device-wide passes with the row
    number as the top digits."""
    check_sort(sort_data((3, length), dtype, rng))
    check_sort(wide_data((2, length), dtype, rng), 1)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_non_contiguous(dtype, rng):
    x = sort_data((6, 9, 8), dtype, rng)
    for view in (lambda a: a.T, lambda a: a[::2, 1::3, ::-1], lambda a: a.transpose(1, 0, 2)[:, ::-2]):
        for axis in (0, 1, -1, None):
            check_sort(view(x), axis)
            got = cp.sort(view(cp.asarray(x)), axis=axis)
            assert got.flags.c_contiguous


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_empty_and_size_one(dtype, rng):
    for shape in [(0,), (0, 5), (4, 0), (2, 0, 3), (1,), (6, 1), (1, 1, 1)]:
        x = sort_data(shape, dtype, rng)
        for axis in [None] + list(range(-len(shape), len(shape))):
            check_sort(x, axis)


def test_special_float_placement():
    x = np.array([np.nan, 1.0, -0.0, np.inf, 0.0, -np.inf, -np.nan, -0.0, 0.0, 2.0], np.float64)
    for dtype in (np.float16, np.float32, np.float64):
        check_sort(x.astype(dtype))
    n = np.nan
    z = np.array([2 + 1j, complex(1, n), complex(n, 0), complex(n, -1), complex(0, n), 1 + 5j, complex(n, n), 1 + 1j,
                  complex(-0.0, 1), complex(0.0, 1), complex(1, -0.0), complex(n, n), complex(-np.inf, n)])
    for dtype in (np.complex64, np.complex128):
        check_sort(z.astype(dtype))


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "uint8", "bool"])
def test_many_short_rows(dtype, rng):
    check_sort(sort_data((20000, 3), dtype, rng))
    check_sort(sort_data((3, 20000), dtype, rng), 0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_one_long_sort(dtype, rng):
    n = 10_000_000 if dtype == "float32" else 1_000_000
    x = wide_data((n,), dtype, rng)
    check_sort(x)


def test_small_range_ints_skip_passes(rng):
    """Constant high bytes (and an all-equal array) skip their passes; the result must not care."""
    for x in (rng.integers(0, 4, 100_000).astype(np.int64), np.full(70_000, 5, np.int32),
              np.full((2, 3000), -1, np.int16), rng.integers(-2, 2, 5000).astype(np.int8)):
        check_sort(x)


def test_kind_and_stable_arguments(rng):
    x = sort_data((50,), np.float32, rng)
    d = cp.asarray(x)
    for kind in (None, "quicksort", "mergesort", "heapsort", "stable"):
        assert_array_equal_np(cp.argsort(d, kind=kind), np.argsort(x, kind="stable"))
    assert_array_equal_np(cp.sort(d, stable=True), np.sort(x, stable=True))
    for call in (lambda m, a: m.sort(a, kind="bogus"), lambda m, a: m.sort(a, kind="stable", stable=True),
                 lambda m, a: m.argsort(a, axis=1), lambda m, a: m.sort(a, axis=(0,)),
                 lambda m, a: m.sort(a, order="f"), lambda m, a: m.sort(a[0], axis=-1)):
        _, exc = numpy_outcome(lambda: call(np, x))
        assert exc is not None
        assert_raises_like(exc, lambda: call(cp, d))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_ndarray_sort_in_place(dtype, rng):
    x = sort_data((4, 7, 5), dtype, rng)
    for axis in (0, 1, -1):
        h, d = x.copy(), cp.asarray(x)
        h.sort(axis=axis, kind="stable")
        assert d.sort(axis=axis) is None
        assert_array_equal_np(d, h, signed_zeros=True)
    h, d = x.copy(), cp.asarray(x)
    view_h, view_d = h[:, ::2], d[:, ::2]  # a strided view sorts into its base
    view_h.sort(axis=1, kind="stable")
    view_d.sort(axis=1)
    assert_array_equal_np(d, h, signed_zeros=True)
    assert_array_equal_np(cp.asarray(x).argsort(axis=0), x.argsort(axis=0, kind="stable"))


@pytest.mark.parametrize("dtype", ["int8", "uint32", "float16", "float64", "complex128", "bool"])
def test_lexsort(dtype, rng):
    keys = [sort_data((40,), dtype, rng) for _ in range(3)]
    assert_array_equal_np(cp.lexsort([cp.asarray(k) for k in keys]), np.lexsort(keys))
    two = [sort_data((6, 9), dtype, rng) for _ in range(2)]
    for axis in (0, 1, -1):
        assert_array_equal_np(cp.lexsort(tuple(cp.asarray(k) for k in two), axis=axis), np.lexsort(two, axis=axis))
    stacked = np.stack(keys)
    assert_array_equal_np(cp.lexsort(cp.asarray(stacked)), np.lexsort(stacked))
    assert_array_equal_np(cp.lexsort([cp.asarray(keys[0][:0])]), np.lexsort([keys[0][:0]]))


def test_lexsort_errors(rng):
    a, b = sort_data((5,), np.int32, rng), sort_data((6,), np.int32, rng)
    for call in (lambda m, k: m.lexsort([]), lambda m, k: m.lexsort(k)):
        _, exc = numpy_outcome(lambda: call(np, [a, b]))
        assert exc is not None
        assert_raises_like(exc, lambda: call(cp, [cp.asarray(a), cp.asarray(b)]))


def check_partition(x, kth, axis=-1):
    d = cp.asarray(x)
    ref = np.partition(x, kth, axis=axis)
    got = cp.partition(d, kth, axis=axis)
    host = cp.asnumpy(got)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    ax = -1 if axis is None else axis
    flat_ref = ref if axis is not None else ref
    for k in np.atleast_1d(kth):
        np.testing.assert_array_equal(np.take(host, [k], axis=ax), np.take(flat_ref, [k], axis=ax))
        below = np.take(host, np.arange(host.shape[ax])[:k % host.shape[ax]], axis=ax)
        above = np.take(host, np.arange(host.shape[ax])[k % host.shape[ax]:], axis=ax)
        kv = np.take(host, [k], axis=ax)
        if x.dtype.kind not in "fc":  # with NaNs the comparison needs NumPy's order; sorted() covers it
            assert (below <= kv).all() and (above >= kv).all()
    idx = cp.asnumpy(cp.argpartition(d, kth, axis=axis))
    src = x.ravel() if axis is None else x
    taken = np.take_along_axis(src, idx, axis=ax)
    for k in np.atleast_1d(kth):
        np.testing.assert_array_equal(np.take(taken, [k], axis=ax), np.take(ref, [k], axis=ax))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_partition(dtype, rng):
    x = sort_data((5, 11), dtype, rng)
    for kth, axis in [(0, -1), (10, 1), (-1, -1), ([1, 4, -2], -1), (2, 0), ((0, -5), 0), (17, None)]:
        check_partition(x, kth, axis)
    h, d = x.copy(), cp.asarray(x)
    h.partition(3)
    d.partition(3)
    np.testing.assert_array_equal(cp.asnumpy(d)[:, 3], h[:, 3])


def test_partition_errors(rng):
    x = sort_data((4, 5), np.float32, rng)
    d = cp.asarray(x)
    for kth, axis in [(5, -1), (-6, -1), ([1, 7], -1), (4, 0), (2, 2), (1.5, -1), (20, None)]:
        for fn in ("partition", "argpartition"):
            _, exc = numpy_outcome(lambda: getattr(np, fn)(x, kth, axis=axis))
            assert exc is not None, (fn, kth, axis)
            assert_raises_like(exc, lambda: getattr(cp, fn)(d, kth, axis=axis))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_complex(dtype, rng):
    x = sort_data((9,), dtype, rng)
    assert_array_equal_np(cp.sort_complex(cp.asarray(x)), np.sort_complex(x))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side, rng):
    a = np.sort(sort_data((40,), dtype, rng), kind="stable")
    for v in (sort_data((3, 5), dtype, rng), sort_data((0,), dtype, rng), a[::3], a):
        assert_array_equal_np(cp.searchsorted(cp.asarray(a), cp.asarray(v), side=side), np.searchsorted(a, v, side))
    scalar = a[len(a) // 2].item()
    assert_array_equal_np(cp.searchsorted(cp.asarray(a), scalar, side), np.asarray(np.searchsorted(a, scalar, side)))
    perm = rng.permutation(len(a))
    unsorted = a[perm]
    sorter = np.argsort(unsorted, kind="stable")
    v = sort_data((7,), dtype, rng)
    assert_array_equal_np(cp.asarray(unsorted).searchsorted(cp.asarray(v), side, cp.asarray(sorter)),
                          unsorted.searchsorted(v, side, sorter))
    empty = a[:0]
    assert_array_equal_np(cp.searchsorted(cp.asarray(empty), cp.asarray(v), side), np.searchsorted(empty, v, side))


def test_searchsorted_nan_and_mixed_dtypes():
    a = np.array([-np.inf, -1.0, -0.0, 0.0, 2.0, np.inf, np.nan, np.nan])
    v = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 5.0])
    for side in ("left", "right"):
        assert_array_equal_np(cp.searchsorted(cp.asarray(a), cp.asarray(v), side), np.searchsorted(a, v, side))
    ints = np.arange(10, dtype=np.int8)
    for v in (300, 2.5, -1, np.array([2.5, -0.5]), np.array([1, 200], np.int16)):
        expect = np.asarray(np.searchsorted(ints, v))
        got = cp.searchsorted(cp.asarray(ints), cp.asarray(v) if isinstance(v, np.ndarray) else v)
        assert_array_equal_np(got, expect)


def test_searchsorted_errors(rng):
    a = np.arange(6.0)
    for call in (lambda m, x: m.searchsorted(x, 2, side="middle"), lambda m, x: m.searchsorted(x.reshape(2, 3), 2),
                 lambda m, x: m.searchsorted(x, 2, sorter=m.asarray(np.array([0, 1, 2, 3, 4, 9]))),
                 lambda m, x: m.searchsorted(x, 2, sorter=m.asarray(np.arange(5)))):
        _, exc = numpy_outcome(lambda: call(np, a))
        if exc is None:
            continue
        assert_raises_like(exc, lambda: call(cp, cp.asarray(a)))
