"""a[key] and a[key] = v for every NumPy 2 key against NumPy: several integer index arrays
(cuarray, NumPy, lists, tuples inside the key) broadcasting together, boolean arrays of any rank,
0-d booleans, ints, slices, None and Ellipsis mixed; NumPy's placement rule (adjacent advanced
indices in place, separated ones first); negative, empty and out-of-range indices; every dtype;
non-contiguous sources and destinations; writes through views; duplicates (last wins); NumPy's
errors and messages; and ndarray.flat. Engine: src/ops/indexing/index_key.cpp (docs/indexing.md)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuarray as cp

from helpers import (ALL_DTYPES, assert_array_equal_np, assert_raises_like, check_like_numpy, layout_pair,
                     numpy_outcome, random_array)

pytestmark = pytest.mark.gpu


def device_key(key, as_list=False):
    """The same key with NumPy arrays moved to the device (or turned into lists)."""
    def conv(k):
        if isinstance(k, np.ndarray) and k.ndim > 0:
            return k.tolist() if as_list else cp.asarray(k)
        return k
    return tuple(conv(k) for k in key) if isinstance(key, tuple) else conv(key)


def check_getitem(h, d, key, as_list=False):
    check_like_numpy(lambda: h[key], lambda: d[device_key(key, as_list)])


def check_setitem(h, d, key, value_h, value_d=None):
    value_d = value_h if value_d is None else value_d

    def host():
        h[key] = value_h
    _, exc = numpy_outcome(host)
    if exc is not None:
        assert_raises_like(exc, lambda: d.__setitem__(device_key(key), value_d))
    else:
        d[device_key(key)] = value_d
    assert_array_equal_np(d, h)


A = np.arange(3 * 4 * 5 * 6).reshape(3, 4, 5, 6)
PLACEMENT_KEYS = [
    ([0, 2], [1, 3]),
    ([0, 2], slice(None), [1, 3]),                   # separated: broadcast dims first
    (slice(None), [0, 2], [1, 3]),                   # adjacent: in place
    (0, slice(None), [1, 2]),                        # the int counts as advanced: dims first
    (slice(None), 0, [1, 2]),                        # adjacent int + array: in place
    ([[0], [2]], slice(1, 3), [[1, 3, 4]]),
    (Ellipsis, [1, 0]),
    ([1, 2], Ellipsis, [1, 2]),
    (None, [0, 1], [0, 1]),
    ([0, 1], None, [0, 1]),
    ([[0, 1]], Ellipsis, None),
    (np.array(1), slice(None), [1, 2]),              # a 0-d NumPy array is an int
    (True, slice(None), True),
    (slice(None), True, True),
    (0, True),
    (0, slice(None), True),
    ([0, 1], True),
    (False, [0, 1]),                                 # (0,) against (2,): shape mismatch
    (np.ones((3, 4), bool), [1, 2]),
    (slice(None), np.array([True, False, True, True]), slice(None), [0, 5]),
    (np.array([True, False, True]), slice(None), np.array([1, 4])),
    ((0, 1), (2, 3)),                                # tuples inside the key are arrays
    ([-1, -3], slice(None, None, -1), [-6]),
    ([], slice(None)),
    ([[]], [[]]),
    ([0, 1], []),
    (slice(None), [0, 1], slice(0, 0)),
    ([2], [3], [4], [5]),
    (np.array([1, 2], np.uint8), np.array([[3], [0]], np.int16), np.array([1], np.uint64)),
]


@pytest.mark.parametrize("key", PLACEMENT_KEYS, ids=range(len(PLACEMENT_KEYS)))
def test_placement_and_broadcast_like_numpy(key):
    h = A.astype(np.float32)
    d = cp.asarray(h)
    check_getitem(h, d, key)
    check_getitem(h, d, key, as_list=True)
    value = np.float32(-7.5)
    check_setitem(h.copy(), cp.asarray(h), key, value)


ERROR_KEYS = [
    (([0, 1], [0, 1, 2]), IndexError, r"shape mismatch: indexing arrays could not be broadcast together with "
                                      r"shapes \(2,\) \(3,\) "),
    (([0, 1], True, [0, 1, 2]), IndexError, r"shapes \(2,\) \(1,\) \(3,\) "),
    (([[0, 1]], [[0], [1], [2]], [[0, 1, 2, 3]]), IndexError, r"shapes \(1,2\) \(3,1\) \(1,4\) "),
    ((slice(None), None, [7]), IndexError, "index 7 is out of bounds for axis 1 with size 4"),
    (([0, 3], [5, 0]), IndexError, "index 3 is out of bounds for axis 0 with size 3"),
    (([[0, 1]], [5, 0]), IndexError, "index 5 is out of bounds for axis 1 with size 4"),
    (([0], 9), IndexError, "index 9 is out of bounds for axis 1 with size 4"),
    (([-4],), IndexError, "index -4 is out of bounds for axis 0 with size 3"),
    ((slice(None), [1], [9]), IndexError, "index 9 is out of bounds for axis 2 with size 5"),
    ((np.ones((3, 5), bool),), IndexError, "boolean index did not match indexed array along axis 1; size of axis "
                                           "is 4 but size of corresponding boolean axis is 5"),
    ((0, np.ones(5, bool)), IndexError, "along axis 1; size of axis is 4 but size of corresponding boolean axis is 5"),
    (([1.0],), IndexError, "only integers, slices"),
    ((np.array([1.0]),), IndexError, "arrays used as indices must be of integer"),
    (([0], [0], [0], [0], [0]), IndexError, "too many indices for array: array is 3-dimensional, but 5 were indexed"),
    ((Ellipsis, [0], Ellipsis), IndexError, "an index can only have a single ellipsis"),
]


@pytest.mark.parametrize("key, exc, match", ERROR_KEYS, ids=range(len(ERROR_KEYS)))
def test_errors_like_numpy(key, exc, match):
    h = A[:, :, :, 0]
    d = cp.asarray(h)
    with pytest.raises(exc):
        h[key]
    with pytest.raises(exc, match=match):
        d[device_key(key)]
    before = h.copy()
    with pytest.raises(exc, match=match):
        d[device_key(key)] = 1
    assert_array_equal_np(d, before)  # nothing written


def test_uint64_indices_are_cast_like_numpy():
    h = np.arange(12).reshape(3, 4)
    d = cp.asarray(h)
    for key in ((np.array([2**64 - 1, 0], np.uint64), [1, 2]), (np.array([2**63], np.uint64), [0])):
        check_getitem(h, d, key)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_and_layout(dtype, rng):
    for layout in ("c", "f", "transposed", "stepped", "negative", "broadcast"):
        h, d = layout_pair(layout, (4, 5, 6), dtype, rng, special=True)
        i0 = rng.integers(-4, 4, size=(2, 3))
        i2 = rng.integers(-6, 6, size=(3,))
        m1 = rng.random(5) < 0.5
        for key in ((i0, slice(None), i2), (slice(1, None), i0[:, :1], i2), (i0, m1), (Ellipsis, i2[:2], None),
                    (m1[None].repeat(4, 0), i2[:1])):
            check_getitem(h, d, key)
        if layout != "broadcast":
            value = random_array((2, 3, 5), dtype, rng)
            check_setitem(h, d, (i0, slice(None), i2), value, cp.asarray(value))
            check_setitem(h, d, (slice(None), m1, i2[:1]), value[0, 0, 0])


def test_non_contiguous_index_arrays(rng):
    h = random_array((6, 7, 8), np.float64, rng)
    d = cp.asarray(h)
    ih = rng.integers(-6, 6, size=(5, 4))
    jh = rng.integers(0, 8, size=(10, 4))          # jh[::2].T is (4, 5), like ih.T
    key_h = (ih.T, slice(None), jh[::2].T)
    key_d = (cp.asarray(ih).T, slice(None), cp.asarray(jh)[::2].T)
    assert_array_equal_np(d[key_d], h[key_h])


def test_setitem_duplicates_last_wins_and_broadcast_values(rng):
    h = np.zeros((4, 5), np.int32)
    d = cp.asarray(h)
    rows = np.array([1, 1, 3, 1, 0, 3])
    cols = np.array([2, 2, 0, 2, 4, 0])
    values = np.arange(1, 7, dtype=np.int32)
    check_setitem(h, d, (rows, cols), values, cp.asarray(values))
    check_setitem(h, d, (rows[:, None], cols[None, :]), values[None, :] * 10 + values[:, None], None)
    check_setitem(h, d, ([[0, 0]], slice(None)), np.arange(10).reshape(2, 5))
    check_setitem(h, d, ([0, 1],), np.ones((1, 1, 5)))          # extra leading ones are dropped
    check_setitem(h, d, ([0, 1], [0, 1]), np.ones(3))           # shape mismatch: ValueError
    check_setitem(h, d, ([0, 1], [0, 1]), 2.7)                  # cast to the array's dtype
    check_setitem(h, d, (True, [0]), np.ones((2, 1)))


def test_setitem_many_duplicates_across_warps(rng):
    # Thousands of positions over few targets: the duplicate list spans many warps and blocks.
    h = random_array((700,), np.float32, rng)
    d = cp.asarray(h)
    idx = rng.integers(-700, 700, size=5000)
    values = rng.standard_normal(5000).astype(np.float32)
    check_setitem(h, d, (idx,), values, cp.asarray(values))
    h2 = random_array((50, 3, 40), np.int16, rng)
    d2 = cp.asarray(h2)
    rows = rng.integers(0, 50, size=(30, 1))
    cols = rng.integers(0, 40, size=(1, 90))
    values2 = rng.integers(-999, 999, size=(30, 3, 90)).astype(np.int16)   # (30, 90) broadcast, axis 1 sliced
    check_setitem(h2, d2, (rows, slice(None), cols), values2.transpose(0, 2, 1), cp.asarray(values2).transpose(0, 2, 1))


def test_setitem_into_views_reaches_the_base(rng):
    hb = random_array((6, 8), np.float32, rng)
    db = cp.asarray(hb)
    hv, dv = hb[1::2, ::-1], db[1::2, ::-1]
    key = ([0, 2, 1], [[1], [7]])
    hv[key] = -1.0
    dv[device_key(key)] = -1.0
    assert_array_equal_np(db, hb)
    hv.T[[0, 3], [1, 2]] = [5.0, 6.0]
    dv.T[cp.asarray([0, 3]), [1, 2]] = cp.asarray([5.0, 6.0], dtype=cp.float32)
    assert_array_equal_np(db, hb)


def test_setitem_with_aliased_index_and_values():
    h = np.array([3, 0, 2, 1, 1])
    d = cp.asarray(h)
    h[h] = h[::-1].copy()
    d[d] = d[::-1]
    assert_array_equal_np(d, h)


def test_size_zero_axes_and_empty_results():
    h = np.zeros((0, 3, 4))
    d = cp.asarray(h)
    for key in ((slice(None), [5]), ([0],), ([],), (slice(None), [], [0]), ([[]], [[0]]), (slice(None), [1], [2])):
        check_getitem(h, d, key)
        check_setitem(h.copy(), cp.asarray(h), key, 1.0)


# ---- hypothesis: random shapes and keys ---------------------------------------------------------

@st.composite
def shapes_and_keys(draw):
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=1, max_size=4)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    key, dim, used_ellipsis = [], 0, False
    bshape = draw(st.sampled_from([(), (1,), (3,), (2, 1), (2, 3)]))
    # "slice" first and a bounded number of draws: Hypothesis's smallest example draws the first choice each time
    # (an "int" on a size-0 axis draws again), so it must end the key quickly.
    for _ in range(8):
        if dim >= len(shape) or len(key) >= 6:
            break
        kind = draw(st.sampled_from(["slice", "int", "none", "ellipsis", "array", "mask", "bool"]))
        n = shape[dim]
        if kind == "int":
            if n == 0:
                continue
            key.append(int(rng.integers(-n, n)))
            dim += 1
        elif kind == "slice":
            key.append(slice(draw(st.sampled_from([None, 0, 1, -1])), draw(st.sampled_from([None, 2, -1])),
                             draw(st.sampled_from([None, 1, 2, -1]))))
            dim += 1
        elif kind == "none":
            key.append(None)
        elif kind == "ellipsis" and not used_ellipsis:
            used_ellipsis = True
            key.append(Ellipsis)  # the remaining dims
            break
        elif kind == "array":
            hi = max(n, 1) + (1 if draw(st.integers(0, 9)) == 0 else 0)   # now and then out of range
            key.append(rng.integers(-max(n, 1), hi, size=bshape).astype(draw(st.sampled_from(["i8", "i4", "u2"]))))
            dim += 1
        elif kind == "mask":
            k = draw(st.integers(1, len(shape) - dim))
            key.append(rng.random(shape[dim:dim + k]) < 0.5)
            dim += k
        elif kind == "bool":
            key.append(bool(draw(st.booleans())))
    return shape, tuple(key), seed


@settings(max_examples=60, deadline=None)
@given(shapes_and_keys(), st.sampled_from(["f4", "i2", "c8", "?"]))
def test_hypothesis_getitem_and_setitem(case, dtype):
    shape, key, seed = case
    rng = np.random.default_rng(seed)
    h = random_array(shape, np.dtype(dtype), rng)
    d = cp.asarray(h)
    check_getitem(h, d, key)
    ref, exc = numpy_outcome(lambda: h[key])
    if exc is None:
        value = random_array(ref.shape, np.dtype(dtype), rng)
        check_setitem(h, d, key, value, cp.asarray(value))


# ---- ndarray.flat --------------------------------------------------------------------------------

def test_flat_reads(rng):
    h = random_array((4, 6), np.float64, rng, special=True)
    for hv, dv in ((h, cp.asarray(h)), (h.T, cp.asarray(h).T), (h[::2, ::-3], cp.asarray(h)[::2, ::-3])):
        for key in (3, -1, slice(None), slice(2, None, 3), slice(None, None, -2), [0, 3, 3, 1], np.array([[2], [0]]),
                    Ellipsis, ()):
            assert_array_equal_np(dv.flat[device_key(key)], hv.flat[key])
        mask = rng.random(hv.size) < 0.5
        assert_array_equal_np(dv.flat[cp.asarray(mask)], hv.flat[mask])
        assert len(dv.flat) == len(hv.flat)
        assert [float(x) for x in dv.flat] == pytest.approx(list(hv.flat), nan_ok=True)
        assert dv.flat.base is dv
    d = cp.asarray(h)
    for key, match in ((24, "index 24 is out of bounds for size 24"), ([1, -25], "index -25 is out of bounds for size 24"),
                       ((1, 2), "too many indices for flat iterator"), (None, "only integers")):
        with pytest.raises(IndexError, match=match):
            d.flat[key]


def test_flat_writes(rng):
    for make in (lambda a: a, lambda a: a.T, lambda a: a[::2, ::-1]):
        h = random_array((6, 8), np.int32, rng)
        d = cp.asarray(h)
        hv, dv = make(h), make(d)
        hv.flat[[0, 3, 3, 7]] = [10, 20, 30, 40]
        dv.flat[cp.asarray([0, 3, 3, 7])] = cp.asarray([10, 20, 30, 40], dtype=cp.int32)
        hv.flat[2:11:3] = [-1, -2]            # values repeat over the positions
        dv.flat[2:11:3] = [-1, -2]
        hv.flat[5] = 99
        dv.flat[5] = 99
        assert_array_equal_np(d, h)
        hv.flat = [7, 8, 9]
        dv.flat = [7, 8, 9]
        assert_array_equal_np(d, h)
