"""Views: reshape/ravel/flatten/transpose/swapaxes/squeeze/expand_dims, basic slicing (hypothesis),
__setitem__, and IndexError.  "Is it a view?" is checked the strict way: write through the result on
both sides and compare the source arrays, so a copy where NumPy makes a view (or the reverse) fails."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as cp

from helpers import (ALL_DTYPES, assert_array_equal_np, byte_offset, check_like_numpy,
                     layout_pair, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu


def assert_view_semantics(np_src, cp_src, np_res, cp_res, rng):
    """np_res/cp_res came from the same operation on np_src/cp_src: same values, same strides, and
    writing through both results changes the sources identically (a view iff NumPy's is a view)."""
    assert_array_equal_np(cp_res, np_res)
    if np_res.size:
        assert cp_res.strides == np_res.strides
    if np.shares_memory(np_res, np_src):
        assert cp_res.base is not None, "NumPy returns a view here; cuarray's result has no base"
    new = random_array(np_res.shape, np_res.dtype, rng)
    np_res[...] = new
    cp_res[...] = cp.asarray(new)
    assert_array_equal_np(cp_src, np_src)
    assert_array_equal_np(cp_res, np_res)


# (source layout, source shape, reshape target, order)
RESHAPES = [
    ("c", (3, 4, 5), (12, 5), "C"), ("c", (3, 4, 5), (-1,), "C"), ("c", (3, 4, 5), (5, -1), "C"),
    ("c", (3, 4, 5), (2, 30), "C"), ("c", (3, 4, 5), (60,), "F"), ("c", (3, 4, 5), (3, 1, 20, 1), "C"),
    ("f", (3, 4, 5), (60,), "C"), ("f", (3, 4, 5), (60,), "F"), ("f", (3, 4, 5), (12, 5), "F"),
    ("f", (3, 4, 5), (3, 20), "A"), ("transposed", (3, 4, 5), (60,), "C"),
    ("transposed", (3, 4, 5), (3, 2, 2, 5), "C"), ("stepped", (4, 6), (2, 2, 6), "C"),
    ("stepped", (4, 6), (24,), "C"), ("stepped", (4, 6), (4, 3, 2), "C"),
    ("negative", (12,), (3, 4), "C"), ("negative", (4, 6), (24,), "C"),
    ("negative", (4, 6), (2, 2, 6), "C"), ("0d", (), (1, 1), "C"), ("empty", (3, 4), (0, 5), "C"),
    ("empty", (3, 4), (2, -1, 3), "C"), ("c", (6,), (2, 3), "F"),
]


@pytest.mark.parametrize("layout, shape, target, order", RESHAPES, ids=repr)
def test_reshape_is_view_exactly_when_numpys_is(layout, shape, target, order, rng):
    np_src, cp_src = layout_pair(layout, shape, np.float32, rng)
    assert_view_semantics(np_src, cp_src, np_src.reshape(target, order=order),
                          cp_src.reshape(target, order=order), rng)
    assert_array_equal_np(cp.reshape(cp_src, target, order=order),
                          np.reshape(np_src, target, order=order))


def test_reshape_spellings(rng):
    np_src, cp_src = layout_pair("c", (4, 6), np.int32, rng)
    assert_array_equal_np(cp_src.reshape(3, 8), np_src.reshape(3, 8))
    assert_array_equal_np(cp_src.reshape((3, 8)), np_src.reshape((3, 8)))
    assert_array_equal_np(cp_src.reshape(-1, 2), np_src.reshape(-1, 2))
    assert_array_equal_np(cp_src.reshape(24), np_src.reshape(24))
    assert_array_equal_np(cp.reshape(cp_src, 24), np.reshape(np_src, 24))


@pytest.mark.parametrize("target", [(5, 5), (-1, -1), (7, -1), (0, -1), (25,)], ids=repr)
def test_reshape_errors(target, rng):
    np_src, cp_src = layout_pair("c", (4, 6), np.int32, rng)
    check_like_numpy(lambda: np_src.reshape(target), lambda: cp_src.reshape(target))


@pytest.mark.parametrize("layout", ["c", "f", "transposed", "stepped", "negative", "0d", "empty"])
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_and_flatten(layout, order, rng):
    np_src, cp_src = layout_pair(layout, (3, 4, 5), np.int16, rng)
    assert_view_semantics(np_src, cp_src, np_src.ravel(order), cp_src.ravel(order), rng)
    assert_view_semantics(np_src, cp_src, np.ravel(np_src, order), cp.ravel(cp_src, order), rng)
    flat_np, flat_cp = np_src.flatten(order), cp_src.flatten(order)
    assert_view_semantics(np_src, cp_src, flat_np, flat_cp, rng)  # a copy: sources stay equal


@pytest.mark.parametrize("axes", [None, (0, 1, 2), (2, 0, 1), (1, 2, 0), (-1, 0, 1), (0, 0, 1),
                                  (0, 1), (0, 1, 3)], ids=repr)
def test_transpose(axes, rng):
    np_src, cp_src = layout_pair("stepped", (2, 3, 4), np.float64, rng)
    res = numpy_outcome(lambda: np_src.transpose(axes))
    if res[1] is not None:
        check_like_numpy(lambda: np_src.transpose(axes), lambda: cp_src.transpose(axes))
        return
    assert_view_semantics(np_src, cp_src, np_src.transpose(axes), cp_src.transpose(axes), rng)
    assert_array_equal_np(cp.transpose(cp_src, axes), np.transpose(np_src, axes))


@pytest.mark.parametrize("a1, a2", [(0, 1), (0, 2), (-1, 0), (1, 1), (0, 3)])
def test_swapaxes(a1, a2, rng):
    np_src, cp_src = layout_pair("c", (2, 3, 4), np.complex64, rng)
    if numpy_outcome(lambda: np_src.swapaxes(a1, a2))[1] is not None:
        check_like_numpy(lambda: np_src.swapaxes(a1, a2), lambda: cp_src.swapaxes(a1, a2))
        return
    assert_view_semantics(np_src, cp_src, np_src.swapaxes(a1, a2), cp_src.swapaxes(a1, a2), rng)
    assert_array_equal_np(cp.swapaxes(cp_src, a1, a2), np.swapaxes(np_src, a1, a2))


@pytest.mark.parametrize("axis", [None, 0, 2, -1, (0, 3), 1, (0, 1), 5])
def test_squeeze(axis, rng):
    np_src, cp_src = layout_pair("stepped", (1, 3, 1, 1), np.uint8, rng)
    if numpy_outcome(lambda: np_src.squeeze(axis))[1] is not None:
        check_like_numpy(lambda: np_src.squeeze(axis), lambda: cp_src.squeeze(axis))
        check_like_numpy(lambda: np.squeeze(np_src, axis), lambda: cp.squeeze(cp_src, axis))
        return
    assert_view_semantics(np_src, cp_src, np_src.squeeze(axis), cp_src.squeeze(axis), rng)
    assert_array_equal_np(cp.squeeze(cp_src, axis), np.squeeze(np_src, axis))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, (0, 2), (0, -1), 4, (1, 1)], ids=repr)
def test_expand_dims(axis, rng):
    np_src, cp_src = layout_pair("negative", (3, 4), np.int64, rng)
    if numpy_outcome(lambda: np.expand_dims(np_src, axis))[1] is not None:
        check_like_numpy(lambda: np.expand_dims(np_src, axis), lambda: cp.expand_dims(cp_src, axis))
        return
    assert_view_semantics(np_src, cp_src, np.expand_dims(np_src, axis),
                          cp.expand_dims(cp_src, axis), rng)


# --- basic indexing, property-based ---------------------------------------------------------------------

@st.composite
def indexed_arrays(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6))
    index = draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    dtype = draw(st.sampled_from(ALL_DTYPES))
    seed = draw(st.integers(0, 2**32 - 1))
    return shape, index, dtype, seed


@given(indexed_arrays())
def test_basic_indexing_matches_numpy(case):
    shape, index, dtype, seed = case
    host = random_array(shape, dtype, np.random.default_rng(seed))
    g = cp.asarray(host)
    ref = host[index]
    got = g[index]
    assert_array_equal_np(got, ref)
    if isinstance(ref, np.ndarray) and ref.size:
        assert got.strides == ref.strides
        assert got.data.ptr - g.data.ptr == byte_offset(ref, host)


@given(indexed_arrays(), st.booleans())
def test_basic_index_assignment_matches_numpy(case, scalar_value):
    shape, index, dtype, seed = case
    rng = np.random.default_rng(seed)
    host = random_array(shape, dtype, rng)
    g = cp.asarray(host)
    target_shape = np.shape(host[index])
    if scalar_value:
        value = 1 if dtype == np.bool_ else 7
        host[index] = value
        g[index] = value
    else:
        value = random_array(target_shape, dtype, rng)
        host[index] = value
        g[index] = cp.asarray(value)
    assert_array_equal_np(g, host)


# --- __setitem__ with every kind of value -------------------------------------------------------------------

SETITEM_CASES = [
    (np.s_[1], 5), (np.s_[:, 2], -1.75), (np.s_[::2, 1:3], 3 + 4j), (np.s_[...], True),
    (np.s_[0], [1, 2, 3, 4, 5, 6]), (np.s_[1:3], [[1], [2]]), (np.s_[:, ::-1], [9, 8, 7, 6, 5, 4]),
    (np.s_[2, 3], np.float32(2.5)), (np.s_[:2, :3], np.arange(6).reshape(2, 3)),
    (np.s_[None, 1, :], np.arange(6)), (np.s_[-1], 300), (np.s_[1], [1, 2]),
]


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.bool_, np.uint8, np.int32,
                                                         np.float16, np.float64, np.complex64)])
@pytest.mark.parametrize("index, value", SETITEM_CASES, ids=repr)
def test_setitem_values(index, value, dtype, rng):
    host = random_array((4, 6), dtype, rng)
    g = cp.asarray(host)

    def np_set():
        host[index] = value
        return host

    def cp_set():
        g[index] = value
        return g

    check_like_numpy(np_set, cp_set)


@pytest.mark.parametrize("src_dtype", [np.dtype(np.int64), np.dtype(np.float32),
                                       np.dtype(np.bool_)])
def test_setitem_from_cuarray_and_numpy_arrays(src_dtype, rng):
    host = random_array((4, 6), np.float64, rng)
    g = cp.asarray(host)
    row = random_array((6,), src_dtype, rng)
    col = random_array((4, 1), src_dtype, rng)
    host[1:3] = row          # broadcast a row
    g[1:3] = cp.asarray(row)
    host[:, ::3] = col       # broadcast a column into a strided target
    g[:, ::3] = cp.asarray(col)
    host[3] = row            # a NumPy array value is copied to the device
    g[3] = row
    assert_array_equal_np(g, host)


def test_setitem_with_overlapping_self(rng):
    host = random_array((10,), np.int32, rng)
    g = cp.asarray(host)
    host[1:] = host[:-1].copy()
    g[1:] = g[:-1]
    assert_array_equal_np(g, host)
    host[::-1] = host.copy()
    g[::-1] = g
    assert_array_equal_np(g, host)


def test_setitem_broadcast_mismatch(rng):
    host = random_array((4, 6), np.float32, rng)
    g = cp.asarray(host)
    check_like_numpy(lambda: host.__setitem__(np.s_[:2], np.ones(4)),
                     lambda: g.__setitem__(np.s_[:2], cp.ones(4)))


BAD_INDICES = [(4,), (-5,), (0, 6), (0, -7), (1, 2, 3), (0, 0, 0, 0), (1.5,), ("a",),
               (Ellipsis, Ellipsis), (0, Ellipsis, 0, 0)]


@pytest.mark.parametrize("index", BAD_INDICES, ids=repr)
def test_bad_indices_raise_like_numpy(index, rng):
    host = random_array((4, 6), np.int32, rng)
    g = cp.asarray(host)
    check_like_numpy(lambda: host[index], lambda: g[index])
    check_like_numpy(lambda: host.__setitem__(index, 1), lambda: g.__setitem__(index, 1))
