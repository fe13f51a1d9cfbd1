"""insert, delete, trim_zeros, meshgrid, require and asarray_chkfinite against NumPy: every index
form (int, negative, slice with steps, lists, bool masks, empty), axis=None and every axis, every
dtype, non-contiguous inputs, and NumPy's exception types and messages."""
import inspect

import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, SHAPED_LAYOUTS, assert_array_equal_np, check_like_numpy, expect_error, layout_pair,
                    random_array)

pytestmark = pytest.mark.gpu


def same(gpu, ref):
    if isinstance(ref, list):  # (tuples are compared item by item by check_like_numpy)
        assert isinstance(gpu, list) and len(gpu) == len(ref), f"{type(gpu)} vs NumPy's list of {len(ref)}"
        for g, r in zip(gpu, ref):
            same(g, r)
        return
    assert_array_equal_np(gpu, ref, signed_zeros=True)


def check(np_call, cp_call):
    return check_like_numpy(np_call, cp_call, compare=same)


def pair(shape, dtype, rng, layout="c"):
    return layout_pair(layout, shape, dtype, rng, special=True)


DELETE_OBJS = [0, -1, 2, np.int64(1), slice(1, 3), slice(None, None, 2), slice(None, None, -1), slice(3, 0, -2),
               slice(4, 1), [0, 2], [3, 3, -1], [], np.array([1]), np.array([], np.int64),
               [True, False, True, False, False]]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_delete_every_dtype(dtype, rng):
    h, d = pair((5, 5), dtype, rng, "transposed")
    for obj in DELETE_OBJS:
        for axis in (0, 1, -1):
            check(lambda: np.delete(h, obj, axis), lambda: cp.delete(d, obj, axis))
    check(lambda: np.delete(h, [0, 7, 24]), lambda: cp.delete(d, [0, 7, 24]))  # axis=None: the flattened array
    check(lambda: np.delete(h, slice(2, 20, 3)), lambda: cp.delete(d, slice(2, 20, 3)))


def test_delete_layouts_device_obj_and_errors(rng):
    for layout in SHAPED_LAYOUTS:
        h, d = pair((4, 3, 2), np.float32, rng, layout)
        check(lambda: np.delete(h, 1, axis=1), lambda: cp.delete(d, 1, axis=1))
        check(lambda: np.delete(h, [0, 3], axis=0), lambda: cp.delete(d, cp.asarray([0, 3]), axis=0))
    h, d = pair((4, 3), np.int32, rng)
    expect_error(lambda: np.delete(h, 4, 0), lambda: cp.delete(d, 4, 0), "index 4 is out of bounds for axis 0 with size 4")
    expect_error(lambda: np.delete(h, -5, 0), lambda: cp.delete(d, -5, 0))
    expect_error(lambda: np.delete(h, [0, 9], 0), lambda: cp.delete(d, [0, 9], 0))
    expect_error(lambda: np.delete(h, [True, False], 0), lambda: cp.delete(d, [True, False], 0),
                 "boolean array argument obj to delete must be one dimensional and match the axis length of 4")
    expect_error(lambda: np.delete(h, [1.5], 0), lambda: cp.delete(d, [1.5], 0))
    expect_error(lambda: np.delete(h, 0, 2), lambda: cp.delete(d, 0, 2), "axis 2 is out of bounds")


INSERT_CASES = [  # (obj, values)
    (0, 7), (-1, [1, 2, 3]), (4, 5), (2, [[1], [2], [3]]), ([1], 9), ([1], [[1, 2, 3]]), ([0, 2, 2], 3),
    ([3, 0], [[4, 5, 6], [7, 8, 9]]), (slice(1, 3), 0), (slice(None, None, -1), 1), ([], []), (np.array(1), 5),
    (np.array([True, False, True, False]), 2),  # (a boolean *list* hits a NumPy bug: AttributeError)
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_insert_every_dtype(dtype, rng):
    h, d = pair((4, 3), dtype, rng, "negative")
    for obj, values in INSERT_CASES:
        check(lambda: np.insert(h, obj, values, axis=0), lambda: cp.insert(d, obj, values, axis=0))
    for obj, values in ((1, 5), ([0, 3], [1, 2]), (slice(None, 2), 0), (3, [[1], [2], [3], [4]])):
        check(lambda: np.insert(h, obj, values, axis=1), lambda: cp.insert(d, obj, values, axis=1))
    for obj, values in ((0, 1), (12, [1, 2]), ([5, 1, 5], [7, 8, 9]), (-3, 4)):
        check(lambda: np.insert(h, obj, values), lambda: cp.insert(d, obj, values))


def test_insert_device_values_and_errors(rng):
    h, d = pair((3, 4, 2), np.float64, rng, "transposed")
    hv, dv = pair((3, 2), np.float32, rng)
    check(lambda: np.insert(h, 2, hv, axis=1), lambda: cp.insert(d, 2, dv, axis=1))
    check(lambda: np.insert(h, [2], hv[:, None, :], axis=1), lambda: cp.insert(d, [2], dv[:, None, :], axis=1))
    # a boolean list works as the boolean array does (NumPy itself fails on it: 'list' has no .ndim)
    check(lambda: np.insert(h, np.array([True, False, True]), 0.5, axis=0),
          lambda: cp.insert(d, [True, False, True], 0.5, axis=0))
    check(lambda: np.insert(h, [0, 4], 2.5, axis=1), lambda: cp.insert(d, cp.asarray([0, 4]), 2.5, axis=1))
    hi, di = pair((5,), np.int16, rng)
    check(lambda: np.insert(hi, 1, 2.9), lambda: cp.insert(di, 1, 2.9))  # cast as NumPy's setitem
    expect_error(lambda: np.insert(hi, 6, 1), lambda: cp.insert(di, 6, 1), "index 6 is out of bounds for axis 0 with size 5")
    expect_error(lambda: np.insert(hi, [0, 7], 1), lambda: cp.insert(di, [0, 7], 1))
    expect_error(lambda: np.insert(hi, [[1]], 1), lambda: cp.insert(di, [[1]], 1),
                 "index array argument obj to insert must be one dimensional or scalar")
    expect_error(lambda: np.insert(hi, [1.0, 2.0], 1), lambda: cp.insert(di, [1.0, 2.0], 1))
    expect_error(lambda: np.insert(h, 0, 1, axis=3), lambda: cp.insert(d, 0, 1, axis=3), "axis 3 is out of bounds")
    expect_error(lambda: np.insert(h, [0, 1], [1, 2, 3], axis=0), lambda: cp.insert(d, [0, 1], [1, 2, 3], axis=0))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_trim_zeros(dtype, rng):
    base = random_array((9,), dtype, rng, zeros=True, nonzero=True)
    base[:2] = 0
    base[-3:] = 0
    for layout_view in (lambda a: a, lambda a: a[::-1]):
        h = layout_view(base)
        d = layout_view(cp.asarray(base))
        for trim in ("fb", "f", "b", "BF"):
            check(lambda: np.trim_zeros(h, trim), lambda: cp.trim_zeros(d, trim))
    z = np.zeros(4, dtype)
    check(lambda: np.trim_zeros(z), lambda: cp.trim_zeros(cp.asarray(z)))
    assert cp.trim_zeros([0, 1, 2, 0]) == np.trim_zeros([0, 1, 2, 0])  # a list in, a list out
    assert cp.trim_zeros((0, 1, 0)) == np.trim_zeros((0, 1, 0))


def test_trim_zeros_nd_and_errors(rng):
    if "axis" not in inspect.signature(np.trim_zeros).parameters:
        pytest.skip("this NumPy's trim_zeros has no axis= (NumPy < 2.2)")
    h = np.zeros((5, 6), np.int32)
    h[1:3, 2:5] = random_array((2, 3), np.int32, rng, nonzero=True)
    d = cp.asarray(h)
    for axis in (None, 0, 1, -1, (0, 1), ()):
        for trim in ("fb", "f", "b"):
            check(lambda: np.trim_zeros(h, trim, axis), lambda: cp.trim_zeros(d, trim, axis))
    check(lambda: np.trim_zeros(h.T), lambda: cp.trim_zeros(d.T))
    check(lambda: np.trim_zeros(np.zeros((2, 3))), lambda: cp.trim_zeros(cp.zeros((2, 3))))
    expect_error(lambda: np.trim_zeros(h, "x"), lambda: cp.trim_zeros(d, "x"), "unexpected character(s) in `trim`")
    expect_error(lambda: np.trim_zeros(h, axis=2), lambda: cp.trim_zeros(d, axis=2))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [False, True])
def test_meshgrid(indexing, sparse, copy, rng):
    hx, dx = pair((3,), np.float32, rng, "negative")
    hy, dy = pair((4,), np.int64, rng)
    hz, dz = pair((2, 1), np.complex64, rng)
    for args in ((), (0,), (0, 1), (0, 1, 2)):
        hs = [(hx, hy, hz)[i] for i in args]
        ds = [(dx, dy, dz)[i] for i in args]
        # (NumPy 2 documents a tuple; before 2.5, sparse=True, copy=False returned a list)
        check(lambda: tuple(np.meshgrid(*hs, indexing=indexing, sparse=sparse, copy=copy)),
              lambda: cp.meshgrid(*ds, indexing=indexing, sparse=sparse, copy=copy))
    expect_error(lambda: np.meshgrid(hx, indexing="x"), lambda: cp.meshgrid(dx, indexing="x"),
                 "Valid values for `indexing` are 'xy' and 'ij'.")


def test_require(rng):
    h, d = pair((3, 4), np.int32, rng, "transposed")
    for dtype in (None, np.float64):
        for req in (None, "C", "F", ["A", "W"], ["O"], ["C", "O"], ["CONTIGUOUS"], ["FORTRAN", "ALIGNED"], ["E"]):
            got = cp.require(d, dtype, req)
            ref = np.require(h, dtype, req)
            same(got, ref)
            for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS"):
                if ref.flags[flag]:
                    assert got.flags[flag], (req, flag)
            if req is not None and "O" in req:
                assert got.flags["OWNDATA"]
    c = cp.ascontiguousarray(d)
    assert cp.require(c, None, "C") is c
    expect_error(lambda: np.require(h, None, "CF"), lambda: cp.require(d, None, "CF"), 'Cannot specify both "C" and "F" order')
    expect_error(lambda: np.require(h, None, "X"), lambda: cp.require(d, None, "X"))


def test_asarray_chkfinite(rng):
    for dtype in ALL_DTYPES:
        h = random_array((5,), dtype, rng)
        check(lambda: np.asarray_chkfinite(h), lambda: cp.asarray_chkfinite(cp.asarray(h)))
    for bad in (np.nan, np.inf, -np.inf, complex(0, np.nan)):
        h = np.array([1.0, bad, 2.0])
        expect_error(lambda: np.asarray_chkfinite(h), lambda: cp.asarray_chkfinite(cp.asarray(h)),
                     "array must not contain infs or NaNs")
    check(lambda: np.asarray_chkfinite([1, 2], dtype=np.float32), lambda: cp.asarray_chkfinite([1, 2], dtype=np.float32))
    expect_error(lambda: np.asarray_chkfinite([1, np.nan]), lambda: cp.asarray_chkfinite([1, np.nan]))
