"""a[mask], a[indices] and their assignments against NumPy: boolean masks of a's shape or of a
prefix of it (and 0-d), integer index arrays along the first axis (cuarray, NumPy and list
indices, negative, out of range, duplicates), every dtype, non-contiguous arrays and masks, size-0,
values that broadcast, Python scalars, and NumPy's errors. Keys mixing several index arrays,
slices, None and Ellipsis: test_advanced_indexing.py."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp

from helpers import (ALL_DTYPES, LAYOUTS, SHAPED_LAYOUTS, assert_array_equal_np, assert_raises_like,
                     check_like_numpy, layout_pair, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu

DENSITIES = (0.0, 0.03, 0.5, 1.0)


def random_mask(shape, rng, density):
    return rng.random(shape) < density


def writable_pair(layout, shape, dtype, rng):
    """layout_pair with special floats; callers pass only writable layouts (not 'broadcast')."""
    return layout_pair(layout, shape, dtype, rng, special=True)


def check_setitem(h, d, key_h, key_d, value_h, value_d):
    """Assign on both sides (or check that both raise alike) and compare the arrays."""
    def host():
        h[key_h] = value_h
    ref, exc = numpy_outcome(host)
    if exc is not None:
        assert_raises_like(exc, lambda: d.__setitem__(key_d, value_d))
    else:
        d[key_d] = value_d
    assert_array_equal_np(d, h)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_mask_getitem_every_dtype_layout_and_density(dtype, rng):
    for layout in LAYOUTS:
        h, d = layout_pair(layout, (4, 3, 5), dtype, rng, special=True)
        for density in DENSITIES:
            for k in range(h.ndim + 1):  # a mask of a's whole shape, or of its first k dims
                hm = random_mask(h.shape[:k], rng, density)
                assert_array_equal_np(d[cp.asarray(hm)], h[hm])
                assert_array_equal_np(d[hm], h[hm])  # a NumPy mask
            hm = random_mask(h.shape, rng, density)
            dm = cp.asarray(hm)
            assert_array_equal_np(d[dm.T.T], h[hm])
    # non-contiguous masks
    h = random_array((6, 8), dtype, rng)
    d = cp.asarray(h)
    hm = random_mask((8, 6), rng, 0.5)
    assert_array_equal_np(d[cp.asarray(hm).T], h[hm.T])
    hm = random_mask((12, 16), rng, 0.5)
    assert_array_equal_np(d[cp.asarray(hm)[::2, ::2]], h[hm[::2, ::2]])


def test_mask_getitem_0d_and_errors(rng):
    h = random_array((3, 4), np.int32, rng)
    d = cp.asarray(h)
    for m in (np.array(True), np.array(False)):
        assert_array_equal_np(d[cp.asarray(m)], h[m])
        assert_array_equal_np(d[m], h[m])  # a 0-d NumPy mask
    for m in (np.True_, np.False_, True, False):  # NumPy and Python bool scalars (not std::bad_cast)
        assert_array_equal_np(d[m], h[m])
        assert_array_equal_np(d[m, 1], h[m, 1])
    hc, dc = h.copy(), d.copy()
    hc[np.True_] = 7
    dc[np.True_] = 7
    assert_array_equal_np(dc, hc)
    s = cp.asarray(np.array(2.5))
    assert_array_equal_np(s[cp.asarray(np.array(True))], np.array(2.5)[np.array(True)])
    for m in (np.ones(2, bool), np.ones((3, 3), bool), np.ones((3, 4, 1), bool)):
        check_like_numpy(lambda: h[m], lambda: d[cp.asarray(m)])
    check_like_numpy(lambda: h[np.array([1.5])], lambda: d[cp.asarray([1.5])])


def test_comparison_mask_of_long_array(rng):
    h = rng.random(1_000_003).astype(np.float32)
    d = cp.asarray(h)
    assert_array_equal_np(d[d > 0.5], h[h > 0.5])
    assert_array_equal_np(d[d > 2.0], h[h > 2.0])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_mask_setitem_every_dtype(dtype, rng):
    for layout in ("c", "f", "transposed", "stepped", "negative"):
        for density in DENSITIES:
            h, d = writable_pair(layout, (4, 3, 5), dtype, rng)
            hm = random_mask(h.shape, rng, density)
            value = random_array((), dtype, rng)[()]
            check_setitem(h, d, hm, cp.asarray(hm), value, cp.asarray(np.asarray(value)))
            n = int(hm.sum())
            hv = random_array((n,), dtype, rng)
            check_setitem(h, d, hm, cp.asarray(hm), hv, cp.asarray(hv))
            hm = random_mask(h.shape[:1], rng, density)  # prefix mask: rows
            n = int(hm.sum())
            for vshape in ((), (5,), (1, 5), (3, 5), (n, 3, 5), (n, 1, 5), (1, 3, 5)):
                hv = random_array(vshape, dtype, rng)
                check_setitem(h, d, hm, cp.asarray(hm), hv, cp.asarray(hv))


def test_mask_setitem_scalars_and_errors(rng):
    h = random_array((5, 4), np.int16, rng)
    d = cp.asarray(h)
    hm = random_mask(h.shape, rng, 0.5)
    for value in (7, -3, True, 2.75, np.float32(1.5)):
        check_setitem(h, d, hm, cp.asarray(hm), value, value)
    for value in (70000, 1j):
        check_setitem(h, d, hm, cp.asarray(hm), value, value)  # OverflowError / TypeError
    hm = np.array([True, False, True, False, True])
    check_setitem(h, d, hm, cp.asarray(hm), [[1, 2, 3, 4]], [[1, 2, 3, 4]])
    check_setitem(h, d, hm, cp.asarray(hm), np.arange(2), cp.arange(2))  # shape mismatch
    check_setitem(h, d, hm, cp.asarray(hm), np.arange(12).reshape(3, 4), cp.arange(12).reshape(3, 4))
    check_setitem(h, d, np.ones(3, bool), cp.ones(3, bool), 1, 1)  # mask shape mismatch
    check_setitem(h, d, np.array(True), cp.asarray(np.array(True)), 4, 4)
    check_setitem(h, d, np.array(False), cp.asarray(np.array(False)), 5, 5)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_index_array_getitem_every_dtype(dtype, rng):
    for layout in LAYOUTS:
        h, d = layout_pair(layout, (6, 3, 4), dtype, rng, special=True)
        if h.ndim == 0:
            check_like_numpy(lambda: h[np.array([0])], lambda: d[cp.asarray([0])])
            continue
        n = h.shape[0]
        for ishape in ((), (5,), (2, 3), (0,)):
            hi = rng.integers(-n, n, size=ishape) if n else np.zeros(ishape, np.int64)
            if n == 0 and hi.size:
                continue
            assert_array_equal_np(d[cp.asarray(hi)], h[hi])
            assert_array_equal_np(d[hi], h[hi])
            if hi.ndim:
                assert_array_equal_np(d[hi.tolist()], h[hi.tolist()])


def test_index_array_getitem_dtypes_and_errors(rng):
    h = random_array((7, 3), np.float64, rng)
    d = cp.asarray(h)
    for idt in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        hi = rng.integers(0, 7, size=9).astype(idt)
        assert_array_equal_np(d[cp.asarray(hi)], h[hi])
    for key in ([7], [-8], [0, 1, 100], np.array([3.0]), [], [[0, 1], [2, 3]]):
        check_like_numpy(lambda: h[key], lambda: d[key])
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 7"):
        d[cp.asarray([1, 9, -20])]
    # several index arrays and mixed keys: tests/python/test_advanced_indexing.py
    assert_array_equal_np(d[cp.asarray([0, 1]), cp.asarray([0, 1])], h[[0, 1], [0, 1]])
    assert_array_equal_np(d[:, cp.asarray([0, 1])], h[:, [0, 1]])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_index_array_setitem_every_dtype(dtype, rng):
    for layout in ("c", "f", "transposed", "stepped", "negative"):
        h, d = writable_pair(layout, (6, 3, 4), dtype, rng)
        n = h.shape[0]
        hi = rng.integers(-n, n, size=8)  # duplicates: the last one wins, as in NumPy
        for vshape in ((), (4,), (3, 4), (8, 3, 4), (8, 1, 4)):
            hv = random_array(vshape, dtype, rng)
            check_setitem(h, d, hi, cp.asarray(hi), hv, cp.asarray(hv))
        check_setitem(h, d, hi, hi, 1, 1)  # NumPy index, Python scalar
        hv = random_array((8, 3, 4), dtype, rng)
        check_setitem(h, d, hi.tolist(), hi.tolist(), hv, cp.asarray(hv))  # list index


def test_index_array_setitem_errors_write_nothing(rng):
    h = random_array((5, 2), np.int32, rng)
    d = cp.asarray(h)
    for key in ([5], [-6], [0, 1, 7]):
        check_setitem(h, d, key, cp.asarray(key), 3, 3)
    check_setitem(h, d, [0, 1], cp.asarray([0, 1]), np.arange(3), cp.arange(3))  # shape mismatch
    check_setitem(h, d, [0, 0, 0], cp.asarray([0, 0, 0]), np.array([[1, 2], [3, 4], [5, 6]]),
                  cp.asarray(np.array([[1, 2], [3, 4], [5, 6]])))


@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=4), k=st.integers(0, 4),
       seed=st.integers(0, 2**32 - 1), density=st.sampled_from(DENSITIES))
def test_hypothesis_mask_shapes(shape, k, seed, density):
    rng = np.random.default_rng(seed)
    h = random_array(tuple(shape), np.float32, rng)
    d = cp.asarray(h)
    hm = random_mask(tuple(shape[:k]), rng, density)
    assert_array_equal_np(d[cp.asarray(hm)], h[hm])
    h[hm] = 1.5
    d[cp.asarray(hm)] = 1.5
    assert_array_equal_np(d, h)
