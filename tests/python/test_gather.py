"""take, put and take_along_axis (functions and ndarray methods) against NumPy: every dtype, every
index dtype, every axis, every layout of the array and of the indices, modes raise/wrap/clip with
negative and out-of-range indices, duplicate indices in put (the last one wins), size-0 inputs and
NumPy's errors. The engine is src/ops/engines/gather/gather.cpp (docs/select.md)."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp

from helpers import (ALL_DTYPES, INTEGER, LAYOUTS, assert_array_equal_np, check_like_numpy, layout_pair,
                     random_array)

pytestmark = pytest.mark.gpu

MODES = ("raise", "wrap", "clip")
INDEX_DTYPES = INTEGER + [np.dtype(np.bool_)]


def indices_for(n, shape, rng, dtype=np.int64, out_of_range=False):
    """Random indices into an axis of length n, negative ones included; out_of_range adds some
    beyond [-n, n)."""
    lo, hi = (-3 * n - 2, 3 * n + 2) if out_of_range else (-n, n - 1)
    idx = rng.integers(lo, hi, size=shape, endpoint=True)
    dtype = np.dtype(dtype)
    if dtype.kind == "u":
        idx = np.abs(idx)
        if not out_of_range:
            idx = idx % max(n, 1)
    if dtype.kind == "b":
        return (idx % 2).astype(bool)
    info = np.iinfo(dtype)
    return np.clip(idx, info.min, info.max).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_take_every_dtype_axis_and_layout(dtype, rng):
    for layout in LAYOUTS:
        h, d = layout_pair(layout, (4, 3, 5), dtype, rng, special=True)
        for axis in [None] + list(range(-h.ndim, h.ndim)):
            n = h.size if axis is None else h.shape[axis]
            for ishape in ((), (6,), (2, 3)):
                hi = indices_for(n, ishape, rng) if n else np.zeros(ishape, np.int64)
                if n == 0 and hi.size:
                    continue
                assert_array_equal_np(cp.take(d, cp.asarray(hi), axis=axis), np.take(h, hi, axis=axis))
                assert_array_equal_np(d.take(cp.asarray(hi), axis), h.take(hi, axis))


@pytest.mark.parametrize("idtype", INDEX_DTYPES)
def test_take_every_index_dtype_and_mode(idtype, rng):
    h = random_array((5, 7), np.float32, rng)
    d = cp.asarray(h)
    for mode in MODES:
        for axis in (None, 0, 1):
            n = h.size if axis is None else h.shape[axis]
            hi = indices_for(n, (3, 4), rng, idtype, out_of_range=mode != "raise")
            check_like_numpy(lambda: np.take(h, hi, axis=axis, mode=mode),
                             lambda: cp.take(d, cp.asarray(hi), axis=axis, mode=mode))
            # non-contiguous index arrays
            check_like_numpy(lambda: np.take(h, hi.T[::-1], axis=axis, mode=mode),
                             lambda: cp.take(d, cp.asarray(hi).T[::-1], axis=axis, mode=mode))


def test_take_errors(rng):
    h = random_array((3, 4), np.int32, rng)
    d = cp.asarray(h)
    cases = [
        (lambda xp, a: xp.take(a, xp.asarray([0, 3]), axis=0)),
        (lambda xp, a: xp.take(a, xp.asarray([-4]), axis=0)),
        (lambda xp, a: xp.take(a, xp.asarray([12]))),
        (lambda xp, a: xp.take(a, xp.asarray([1.0]), axis=0)),
        (lambda xp, a: xp.take(a, xp.asarray([0]), axis=2)),
        (lambda xp, a: xp.take(a, xp.asarray([0]), mode="foo")),
        (lambda xp, a: xp.take(a[:0], xp.asarray([0]), axis=0, mode="wrap")),
        (lambda xp, a: xp.take(a[:0], xp.asarray([0]), axis=0, mode="clip")),
        (lambda xp, a: xp.take(a[:0], xp.asarray([0]), axis=0)),
        (lambda xp, a: xp.take(a[:0], xp.asarray([], dtype=xp.int64), axis=0)),
    ]
    for case in cases:
        check_like_numpy(lambda: case(np, h), lambda: case(cp, d))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 4"):
        cp.take(d, cp.asarray([1, 7, -9]), axis=1)
    # Nothing to copy (empty dims after the axis), yet NumPy checks the index once per row before it.
    e = np.empty((1, 1, 0, 0), np.float32)
    for ax, idx in ((2, 0), (1, 1), (2, np.array([[0]]))):
        check_like_numpy(lambda: np.take(e, idx, axis=ax), lambda: cp.take(cp.asarray(e), cp.asarray(idx), axis=ax))


def test_take_out_and_scalar_index(rng):
    h = random_array((4, 6), np.float64, rng)
    d = cp.asarray(h)
    out = cp.empty((4, 2))
    assert cp.take(d, [5, -1], axis=1, out=out) is out
    assert_array_equal_np(out, np.take(h, [5, -1], axis=1))
    assert_array_equal_np(cp.take(d, 7), np.asarray(np.take(h, 7)))
    assert_array_equal_np(cp.take(d, 2, axis=0), np.take(h, 2, axis=0))


def test_take_rows_wide_words(rng):
    # contiguous rows move as 16-byte words; odd widths and offsets fall back to narrower ones
    for cols, start in ((64, 0), (63, 0), (64, 1), (2, 0)):
        base = random_array((50, cols + start), np.float32, rng)
        h, d = base[:, start:], cp.asarray(base)[:, start:]
        hi = indices_for(50, (30,), rng)
        assert_array_equal_np(d[cp.asarray(hi)], h[hi])
        assert_array_equal_np(cp.take(d, cp.asarray(hi), axis=0), np.take(h, hi, axis=0))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_put_every_dtype(dtype, rng):
    for mode in MODES:
        for layout in ("c", "f", "transposed", "stepped", "negative"):
            h, d = layout_pair(layout, (4, 5), dtype, rng)
            hi = indices_for(h.size, (9,), rng, out_of_range=mode != "raise")  # duplicates likely
            hv = random_array((9,), dtype, rng)
            np.put(h, hi, hv, mode=mode)
            cp.put(d, cp.asarray(hi), cp.asarray(hv), mode=mode)
            assert_array_equal_np(d, h)


def test_put_repeats_values_and_duplicates(rng):
    h = np.zeros(10, np.int32)
    d = cp.asarray(h)
    for ind, v in (([0, 1, 2, 3, 4], [7, 8]), ([1, 1, 1, 2], [5, 6, 7, 8]), ([3, 3], 9), ([4, 5], [1, 2, 3, 4]),
                   ([6, 7, 6], [1.7, 2.2, -3.9]), ([], [1])):
        np.put(h, ind, v)
        cp.put(d, cp.asarray(np.array(ind, np.int64)), cp.asarray(v))
        assert_array_equal_np(d, h)
    d.put(cp.asarray([0, -1]), cp.asarray([11, 12]))
    h.put([0, -1], [11, 12])
    assert_array_equal_np(d, h)


def test_put_errors(rng):
    h = np.arange(6.0)
    d = cp.asarray(h)
    for ind in ([6], [-7], [0, 10**6]):
        check_like_numpy(lambda: np.put(h, ind, 1.0), lambda: cp.put(d, cp.asarray(ind), 1.0))
    # Nothing written by a failing put (the claim pass checks every index first). NumPy's put is
    # not atomic: it writes the entries before the bad one (h[0] = 1 above), so compare with the
    # original, not with h.
    assert_array_equal_np(d, np.arange(6.0))
    check_like_numpy(lambda: np.put(np.zeros(0), [0], 1.0), lambda: cp.put(cp.zeros(0), cp.asarray([0]), 1.0))
    with pytest.raises(TypeError):
        cp.put([1, 2], [0], [1])
    with pytest.raises(ValueError, match="clipmode"):
        cp.put(d, [0], 1.0, mode="bad")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_scatter_many_positions_last_wins(dtype, rng):
    # One element per position goes through the pairs sort (several Onesweep tiles here): the
    # writes land in target order and the last of each run of duplicates wins, as in NumPy.
    h = random_array((3000,), dtype, rng)
    d = cp.asarray(h)
    hi = indices_for(h.size, (70000,), rng)  # every target about 23 times
    hv = random_array((70000,), dtype, rng)
    h[hi] = hv
    d[cp.asarray(hi)] = cp.asarray(hv)
    assert_array_equal_np(d, h)
    # A 2-D index over a transposed, strided value array; positions still count in C order.
    hi2 = indices_for(h.size, (300, 200), rng, dtype=np.int32)
    hv2 = random_array((200, 600), dtype, rng)[:, ::2].T
    h[hi2] = hv2
    d[cp.asarray(hi2)] = cp.asarray(hv2)
    assert_array_equal_np(d, h)


def test_scatter_sorted_edge_cases(rng):
    h = random_array((5000,), np.float64, rng)
    d = cp.asarray(h)
    # Every position at one target: no radix pass runs, the last value stays.
    same = np.full(20000, -7)
    values = rng.standard_normal(20000)
    h[same] = values
    d[cp.asarray(same)] = cp.asarray(values)
    assert_array_equal_np(d, h)
    # Targets already in order; uint64 and int8 indices; a non-contiguous 2-D target (flat put).
    ordered = np.sort(rng.integers(0, 5000, size=30000)).astype(np.uint64)
    h[ordered] = values[:30000 // 2].repeat(2)
    d[cp.asarray(ordered)] = cp.asarray(values[:30000 // 2].repeat(2))
    assert_array_equal_np(d, h)
    small = rng.integers(-100, 100, size=9000).astype(np.int8)
    h[small] = values[:9000]
    d[cp.asarray(small)] = cp.asarray(values[:9000])
    assert_array_equal_np(d, h)
    for mode in MODES:
        h2, d2 = layout_pair("transposed", (60, 70), np.complex64, rng)
        hi = indices_for(h2.size, (20000,), rng, out_of_range=mode != "raise")
        hv = random_array((20000,), np.complex64, rng)
        np.put(h2, hi, hv, mode=mode)
        cp.put(d2, cp.asarray(hi), cp.asarray(hv), mode=mode)
        assert_array_equal_np(d2, h2)
    # A bad index anywhere (here the very last position) writes nothing and names the index.
    before = d.get()
    bad = rng.integers(0, 5000, size=40000)
    bad[-1] = 5000
    with pytest.raises(IndexError, match="index 5000 is out of bounds for axis 0 with size 5000"):
        d[cp.asarray(bad)] = cp.asarray(rng.standard_normal(40000))
    assert_array_equal_np(d, before)


@pytest.mark.parametrize("size", [2**24 + 5, 50_000_000, 100_000_000, 140_000_000], ids=str)
def test_scatter_into_targets_past_2_24_last_wins(size, rng):
    """Targets past 2**24 need the sort's fourth key byte: duplicates interleaved with their
    neighbours (alternating, clustered, spread, the first and last target) still resolve to the
    last position, wrapped indices land where NumPy's do, and a bad index writes nothing."""
    h = np.zeros(size, np.uint8)
    d = cp.zeros(size, np.uint8)
    alternating = (size // 2) // 8 * 8 + np.arange(60_000) % 8  # one bucket's targets in turn
    clustered = rng.integers(0, 64, 60_000) + rng.choice([0, 8 * 1_000_003, size - 64], 60_000)
    spread = rng.integers(0, size, 60_000)
    idx = np.concatenate([alternating, clustered, spread, [0, size - 1, 0]])
    rng.shuffle(idx[:-3])
    values = rng.integers(0, 256, idx.size, dtype=np.uint8)
    h[idx] = values
    d[cp.asarray(idx)] = cp.asarray(values)
    assert_array_equal_np(d, h)
    wrapped = np.concatenate([-idx[:5000] - 1, idx[:5000] + size])
    np.put(h, wrapped, values[:10_000], mode="wrap")
    cp.put(d, cp.asarray(wrapped), cp.asarray(values[:10_000]), mode="wrap")
    assert_array_equal_np(d, h)
    bad = idx.copy()
    bad[len(bad) // 2] = size
    with pytest.raises(IndexError, match=f"index {size} is out of bounds for axis 0 with size {size}"):
        d[cp.asarray(bad)] = cp.asarray(values)
    assert_array_equal_np(d, h)


def test_few_positions_into_a_huge_target_sort(rng):
    """A handful of positions into 2**24 or more targets sort too (the bitmaps and claims would take
    O(targets) memory): duplicates still resolve to the last, a bad index still writes nothing."""
    size = 2**24 + 3
    h = np.zeros(size, np.int8)
    d = cp.zeros(size, np.int8)
    idx = np.array([size - 1, 5, 2**23, 5, size - 1, 0, 5])
    values = np.arange(1, 8, dtype=np.int8)
    h[idx] = values
    d[cp.asarray(idx)] = cp.asarray(values)
    assert_array_equal_np(d, h)
    np.put(h, [-1, 7, size + 7], [9, 10, 11], mode="wrap")
    cp.put(d, cp.asarray([-1, 7, size + 7]), cp.asarray([9, 10, 11], np.int8), mode="wrap")
    assert_array_equal_np(d, h)
    with pytest.raises(IndexError, match=f"index {size} is out of bounds for axis 0 with size {size}"):
        d[cp.asarray([1, size])] = cp.asarray([1, 2], np.int8)
    assert_array_equal_np(d, h)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_take_along_axis_every_dtype(dtype, rng):
    h = random_array((3, 4, 5), dtype, rng, special=True)
    d = cp.asarray(h)
    for axis in range(-3, 3):
        n = h.shape[axis]
        for ishape in ((3, 4, 5), (1, 4, 5), (3, 1, 1), (1, 1, 1)):
            ishape = list(ishape)
            ishape[axis] = 6
            hi = indices_for(n, tuple(ishape), rng)
            assert_array_equal_np(cp.take_along_axis(d, cp.asarray(hi), axis), np.take_along_axis(h, hi, axis))
    hi = indices_for(h.size, (7,), rng)
    assert_array_equal_np(cp.take_along_axis(d, cp.asarray(hi), None), np.take_along_axis(h, hi, None))
    # argsort-like use on a transposed input
    ht, dt = h.transpose(2, 0, 1), d.transpose(2, 0, 1)
    hi = indices_for(ht.shape[1], ht.shape, rng)
    assert_array_equal_np(cp.take_along_axis(dt, cp.asarray(hi), 1), np.take_along_axis(ht, hi, 1))


def test_take_along_axis_errors(rng):
    h = random_array((3, 4), np.int64, rng)
    d = cp.asarray(h)
    cases = [
        (np.array([[5]]), 1), (np.array([[-5]]), 1), (np.array([[1]]), None), (np.array([1.0]), None),
        (np.array([1]), 0), (np.array([[1]]), 2), (np.ones((2, 4), np.int64), 1),
    ]
    for hi, axis in cases:
        check_like_numpy(lambda: np.take_along_axis(h, hi, axis), lambda: cp.take_along_axis(d, cp.asarray(hi), axis))


@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=4), ishape=st.lists(st.integers(0, 3), max_size=3),
       seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_hypothesis_take_shapes(shape, ishape, seed, mode):
    rng = np.random.default_rng(seed)
    h = random_array(tuple(shape), np.int16, rng)
    d = cp.asarray(h)
    axis = int(rng.integers(-len(shape), len(shape)))
    n = h.shape[axis]
    hi = indices_for(max(n, 1), tuple(ishape), rng, out_of_range=mode != "raise")
    check_like_numpy(lambda: np.take(h, hi, axis=axis, mode=mode), lambda: cp.take(d, cp.asarray(hi), axis=axis, mode=mode))
