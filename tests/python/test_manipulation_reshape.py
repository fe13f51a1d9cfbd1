"""Splitting, tiling, repeating, rolling, flipping and reshaping against NumPy: split, array_split,
hsplit/vsplit/dsplit, unstack (views), tile, repeat (scalar and per-element counts, function and
method), resize and ndarray.resize, roll, flip/fliplr/flipud, rot90, moveaxis, rollaxis,
permute_dims, transpose/squeeze/expand_dims checks, atleast_nd, broadcast_arrays/shapes, reshape
(order, -1, copy=) and ascontiguousarray/asfortranarray of transposed views.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
import hypothesis.extra.numpy as hnp

import cuarray as cp

from helpers import (ALL_DTYPES, SHAPED_LAYOUTS, assert_array_equal_np, check_like_numpy, expect_error, layout_pair,
                    random_array)

pytestmark = pytest.mark.gpu


def same(gpu, ref):
    assert_array_equal_np(gpu, ref, signed_zeros=True)


def same_seq(gpu, ref):
    assert isinstance(gpu, type(ref)), f"{type(gpu)} vs NumPy's {type(ref)}"
    assert len(gpu) == len(ref)
    for g, r in zip(gpu, ref):
        same(g, r)


def check(np_call, cp_call, compare=same):
    return check_like_numpy(np_call, cp_call, compare=compare)


def pair(shape, dtype, rng, layout="c"):
    return layout_pair(layout, shape, dtype, rng, special=True)


def owner(a):
    return a if a.base is None else a.base


# --------------------------------------------------------------------------------------------------
# split family


@pytest.mark.parametrize("layout", SHAPED_LAYOUTS)
def test_split_sections_and_indices(layout, rng):
    h, d = pair((6, 4, 5), np.int32, rng, layout)
    for axis in (0, 1, 2, -1):
        for arg in (1, 2, [1, 3], [-2, 10, 1], [], [0, 0], (2,)):
            check(lambda: np.split(h, arg, axis=axis), lambda: cp.split(d, arg, axis=axis), same_seq)
        for arg in (1, 3, 4, 7, [2, -1], np.array([1, 2])):
            check(lambda: np.array_split(h, arg, axis=axis), lambda: cp.array_split(d, arg, axis=axis), same_seq)
    pieces = cp.array_split(d, 3, axis=2)
    assert all(owner(p) is owner(d) for p in pieces)  # views of the input


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_split_family_every_dtype(dtype, rng):
    h, d = pair((4, 6, 2), dtype, rng, "negative")
    check(lambda: np.hsplit(h, 3), lambda: cp.hsplit(d, 3), same_seq)
    check(lambda: np.vsplit(h, [1, 3]), lambda: cp.vsplit(d, [1, 3]), same_seq)
    check(lambda: np.dsplit(h, 2), lambda: cp.dsplit(d, 2), same_seq)
    check(lambda: np.unstack(h, axis=1), lambda: cp.unstack(d, axis=1))
    h1, d1 = pair((6,), dtype, rng)
    check(lambda: np.hsplit(h1, 2), lambda: cp.hsplit(d1, 2), same_seq)


def test_split_errors(rng):
    h, d = pair((4, 3), np.float32, rng)
    z, dz = np.ones(()), cp.ones(())
    expect_error(lambda: np.split(h, 3), lambda: cp.split(d, 3), "array split does not result in an equal division")
    expect_error(lambda: np.split(h, 0), lambda: cp.split(d, 0))  # ZeroDivisionError
    expect_error(lambda: np.array_split(h, 0), lambda: cp.array_split(d, 0), "number sections must be larger than 0.")
    expect_error(lambda: np.split(h, 2, axis=2), lambda: cp.split(d, 2, axis=2))
    expect_error(lambda: np.array_split(z, 2), lambda: cp.array_split(dz, 2))
    expect_error(lambda: np.split(h, [1.5]), lambda: cp.split(d, [1.5]))
    expect_error(lambda: np.hsplit(z, 1), lambda: cp.hsplit(dz, 1), "hsplit only works on arrays of 1 or more dimensions")
    expect_error(lambda: np.vsplit(h[0], 1), lambda: cp.vsplit(d[0], 1), "vsplit only works on arrays of 2 or more")
    expect_error(lambda: np.dsplit(h, 1), lambda: cp.dsplit(d, 1), "dsplit only works on arrays of 3 or more")
    expect_error(lambda: np.unstack(z), lambda: cp.unstack(dz), "Input array must be at least 1-d.")
    expect_error(lambda: np.unstack(h, axis=2), lambda: cp.unstack(d, axis=2))


# --------------------------------------------------------------------------------------------------
# tile, repeat, resize, roll


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_tile_every_dtype(dtype, rng):
    h, d = pair((2, 3), dtype, rng, "transposed")
    for reps in (2, (2, 1), (1, 3), (2, 2, 2), (0, 2), (1, 1), 1, (3, 1, 1, 1)):
        check(lambda: np.tile(h, reps), lambda: cp.tile(d, reps))
    h0, d0 = pair((), dtype, rng)
    check(lambda: np.tile(h0, (2, 3)), lambda: cp.tile(d0, (2, 3)))


def test_tile_layouts_and_errors(rng):
    for layout in SHAPED_LAYOUTS:
        h, d = pair((3, 2, 2), np.float64, rng, layout)
        check(lambda: np.tile(h, (2, 1, 3)), lambda: cp.tile(d, (2, 1, 3)))
        check(lambda: np.tile(h, 2), lambda: cp.tile(d, 2))
    he, de = pair((0, 3), np.int8, rng)
    check(lambda: np.tile(he, (2, 2)), lambda: cp.tile(de, (2, 2)))
    check(lambda: np.tile([1, 2], 3), lambda: cp.tile([1, 2], 3))
    h, d = pair((2, 3), np.int8, rng)
    expect_error(lambda: np.tile(h, (2, -1)), lambda: cp.tile(d, (2, -1)), "negative dimensions are not allowed")
    expect_error(lambda: np.tile(h, 2.0), lambda: cp.tile(d, 2.0))
    t = cp.tile(d, (1, 1))
    assert t.base is None and owner(t) is not owner(d)  # always a copy


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_repeat_every_dtype(dtype, rng):
    h, d = pair((3, 4), dtype, rng, "negative")
    check(lambda: np.repeat(h, 3), lambda: cp.repeat(d, 3))
    check(lambda: np.repeat(h, 2, axis=0), lambda: cp.repeat(d, 2, axis=0))
    counts = [0, 2, 1, 3]
    check(lambda: np.repeat(h, counts, axis=1), lambda: cp.repeat(d, counts, axis=1))
    check(lambda: h.repeat(counts[:3], axis=0), lambda: d.repeat(counts[:3], axis=0))
    check(lambda: np.repeat(h, cp.asnumpy(cp.asarray(list(range(12))))), lambda: cp.repeat(d, cp.arange(12)))


def test_repeat_counts_forms(rng):
    h, d = pair((5, 2), np.float32, rng, "transposed")
    for repeats in (0, 1, [2], np.array([3]), np.int8(2), True, [True, False, True, True, False], 1.7,
                    np.array([1, 0, 4, 2, 2], np.uint8), np.float64(2), "2"):
        for axis in (None, 0, -1):
            check(lambda: np.repeat(h, repeats, axis=axis), lambda: cp.repeat(d, repeats, axis=axis))
    dev_counts = cp.asarray(np.array([4, 0, 1, 1, 2], np.int16))
    check(lambda: np.repeat(h, np.array([4, 0, 1, 1, 2], np.int16), axis=0), lambda: cp.repeat(d, dev_counts, axis=0))
    check(lambda: np.repeat(np.float64(3.5), 4), lambda: cp.repeat(cp.asarray(np.float64(3.5)), 4))
    he, de = pair((0, 3), np.int64, rng)
    check(lambda: np.repeat(he, [], axis=0), lambda: cp.repeat(de, [], axis=0))
    check(lambda: np.repeat(he, 5, axis=1), lambda: cp.repeat(de, 5, axis=1))
    # one long row with random counts (the scan + search path over many elements)
    long_h = random_array((200_000,), np.int32, rng)
    counts = rng.integers(0, 4, size=long_h.size)
    check(lambda: np.repeat(long_h, counts), lambda: cp.repeat(cp.asarray(long_h), cp.asarray(counts)))


def test_repeat_errors(rng):
    h, d = pair((2, 3), np.int32, rng)
    expect_error(lambda: np.repeat(h, -1), lambda: cp.repeat(d, -1), "negative dimensions are not allowed")
    expect_error(lambda: np.repeat(h, [-1]), lambda: cp.repeat(d, [-1]), "negative dimensions are not allowed")
    expect_error(lambda: np.repeat(h, [1, -2], axis=0), lambda: cp.repeat(d, [1, -2], axis=0),
                 "repeats may not contain negative values.")
    expect_error(lambda: np.repeat(h, cp.asnumpy(cp.asarray([1, -2])), axis=0),
                 lambda: cp.repeat(d, cp.asarray([1, -2]), axis=0), "repeats may not contain negative values.")
    expect_error(lambda: np.repeat(h, [1, 2], axis=1), lambda: cp.repeat(d, [1, 2], axis=1),
                 "operands could not be broadcast together with shape (3,) (2,)")
    expect_error(lambda: np.repeat(h, np.array([1.0, 2.0]), axis=0), lambda: cp.repeat(d, np.array([1.0, 2.0]), axis=0),
                 "according to the rule 'safe'")
    expect_error(lambda: np.repeat(h, np.array([1, 2], np.uint64), axis=0),
                 lambda: cp.repeat(d, cp.asarray(np.array([1, 2], np.uint64)), axis=0), "according to the rule 'safe'")
    expect_error(lambda: np.repeat(h, 2, axis=2), lambda: cp.repeat(d, 2, axis=2), "axis 2 is out of bounds")
    expect_error(lambda: np.repeat(h, 2**63), lambda: cp.repeat(d, 2**63))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float16", "complex64"])
def test_resize_function(dtype, rng):
    h, d = pair((2, 3), dtype, rng, "transposed")
    for shape in ((2, 3), 4, (7,), (3, 5), (0,), (2, 0), (), (13, 1)):
        check(lambda: np.resize(h, shape), lambda: cp.resize(d, shape))
    he, de = pair((0,), dtype, rng)
    check(lambda: np.resize(he, (2, 2)), lambda: cp.resize(de, (2, 2)))
    expect_error(lambda: np.resize(h, (-1, 2)), lambda: cp.resize(d, (-1, 2)), "must be non-negative")


def test_ndarray_resize_in_place(rng):
    for shape, args in (((3,), ((2, 2),)), ((2, 3), (7,)), ((2, 3), (2, 3)), ((4,), (2, 1)), ((1,), ((),)),
                        ((3,), ()), ((3,), (None,)), ((2, 2), ([1, 3],))):
        h = random_array(shape, np.float64, rng, special=True)
        d = cp.asarray(h)
        assert d.resize(*args, refcheck=False) is None
        h.resize(*args, refcheck=False)
        same(d, h)
    f_h = np.asfortranarray(random_array((2, 3), np.int32, rng))
    f_d = cp.asfortranarray(cp.asarray(f_h))
    f_h.resize((4, 2), refcheck=False)
    f_d.resize((4, 2), refcheck=False)
    same(f_d, f_h)  # kept elements in memory order
    d = cp.arange(6.0)
    with pytest.raises(ValueError, match="resize only works on single-segment arrays"):
        d[::2].resize(2, refcheck=False)
    with pytest.raises(ValueError, match="does not own its data"):
        d[1:].resize(2, refcheck=False)
    with pytest.raises(ValueError, match="negative"):
        d.resize(-1, refcheck=False)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_roll_every_dtype(dtype, rng):
    h, d = pair((4, 5), dtype, rng, "transposed")
    for shift, axis in ((1, None), (-7, None), (2, 0), (-1, 1), (13, -1), ((1, 2), (0, 1)), ((1, 1), (1, 1)),
                        (3, (0, 1)), ((2, -3), 0), (0, None), ([[1]], None)):
        check(lambda: np.roll(h, shift, axis), lambda: cp.roll(d, shift, axis))


def test_roll_shapes_and_errors(rng):
    for layout in SHAPED_LAYOUTS:
        h, d = pair((3, 2, 4), np.float32, rng, layout)
        check(lambda: np.roll(h, (1, -1, 2), (0, 1, 2)), lambda: cp.roll(d, (1, -1, 2), (0, 1, 2)))
    h0, d0 = pair((), np.int16, rng)
    check(lambda: np.roll(h0, 3), lambda: cp.roll(d0, 3))
    he, de = pair((0, 3), np.int16, rng)
    check(lambda: np.roll(he, 1, 1), lambda: cp.roll(de, 1, 1))
    h, d = pair((3, 4), np.int64, rng)
    expect_error(lambda: np.roll(h, 1, 2), lambda: cp.roll(d, 1, 2), "axis 2 is out of bounds")
    expect_error(lambda: np.roll(h, (1, 2), (0, 1, 1)), lambda: cp.roll(d, (1, 2), (0, 1, 1)), "shape mismatch")
    expect_error(lambda: np.roll(h, [[1]], 0), lambda: cp.roll(d, [[1]], 0))
    long_h = random_array((3_000_001,), np.float64, rng)
    check(lambda: np.roll(long_h, 1_234_567), lambda: cp.roll(cp.asarray(long_h), 1_234_567))


# --------------------------------------------------------------------------------------------------
# flips, rotations and axis permutations (views)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_flip_rot90_every_dtype(dtype, rng):
    h, d = pair((3, 4, 2), dtype, rng, "stepped")
    for axis in (None, 0, -1, (0, 2), (), [1]):
        check(lambda: np.flip(h, axis), lambda: cp.flip(d, axis))
    check(lambda: np.fliplr(h), lambda: cp.fliplr(d))
    check(lambda: np.flipud(h), lambda: cp.flipud(d))
    for k in (-5, -1, 0, 1, 2, 3, 4, 6):
        for axes in ((0, 1), (1, 0), (2, 0), (-1, -2)):
            check(lambda: np.rot90(h, k, axes), lambda: cp.rot90(d, k, axes))
    for view in (cp.flip(d), cp.rot90(d), cp.rot90(d, 0), cp.fliplr(d)):
        assert owner(view) is owner(d)


def test_flip_rot90_errors(rng):
    h, d = pair((3, 4), np.float32, rng)
    h0, d0 = pair((), np.float32, rng)
    same(cp.flip(d0), h0)  # (NumPy returns the 0-d array's element as a NumPy scalar: m[()])
    expect_error(lambda: np.flip(h, 2), lambda: cp.flip(d, 2), "axis 2 is out of bounds")
    expect_error(lambda: np.flip(h, (0, 0)), lambda: cp.flip(d, (0, 0)), "repeated axis")
    expect_error(lambda: np.fliplr(h[0]), lambda: cp.fliplr(d[0]), "Input must be >= 2-d.")
    expect_error(lambda: np.flipud(h0), lambda: cp.flipud(d0), "Input must be >= 1-d.")
    expect_error(lambda: np.rot90(h[0]), lambda: cp.rot90(d[0]), "Axes must be different.")
    expect_error(lambda: np.rot90(h, 1, (0, 0)), lambda: cp.rot90(d, 1, (0, 0)), "Axes must be different.")
    # NumPy's first check also rejects axes ndim apart (0 and 2 of a 2-d array: "the same axis")
    expect_error(lambda: np.rot90(h, 1, (0, 2)), lambda: cp.rot90(d, 1, (0, 2)), "Axes must be different.")
    expect_error(lambda: np.rot90(h, 1, (0, 3)), lambda: cp.rot90(d, 1, (0, 3)), "out of range for array of ndim=2")
    expect_error(lambda: np.rot90(h, 1, (-3, 1)), lambda: cp.rot90(d, 1, (-3, 1)), "out of range for array of ndim=2")
    expect_error(lambda: np.rot90(h, 1, (0, 1, 2)), lambda: cp.rot90(d, 1, (0, 1, 2)), "len(axes) must be 2.")


def test_axis_permutations(rng):
    h, d = pair((2, 3, 4, 5), np.complex64, rng, "transposed")
    for src, dst in ((0, -1), (-1, 0), ((0, 1), (2, 3)), ((3, 0), (0, 3)), ([], [])):
        check(lambda: np.moveaxis(h, src, dst), lambda: cp.moveaxis(d, src, dst))
    for axis in range(-4, 4):
        for start in range(-4, 5):
            check(lambda: np.rollaxis(h, axis, start), lambda: cp.rollaxis(d, axis, start))
    for axes in (None, (3, 1, 0, 2), (-1, -2, -3, -4)):
        check(lambda: np.permute_dims(h, axes), lambda: cp.permute_dims(d, axes))
        check(lambda: np.transpose(h, axes), lambda: cp.transpose(d, axes))
    assert owner(cp.moveaxis(d, 0, 2)) is owner(d)
    expect_error(lambda: np.moveaxis(h, (0, 1), (0,)), lambda: cp.moveaxis(d, (0, 1), (0,)), "same number of elements")
    expect_error(lambda: np.moveaxis(h, (0, 0), (0, 1)), lambda: cp.moveaxis(d, (0, 0), (0, 1)), "repeated axis in `source`")
    expect_error(lambda: np.moveaxis(h, 4, 0), lambda: cp.moveaxis(d, 4, 0), "source: axis 4 is out of bounds")
    expect_error(lambda: np.rollaxis(h, 0, 6), lambda: cp.rollaxis(d, 0, 6), "'start' arg requires -4 <= start < 5")
    expect_error(lambda: np.rollaxis(h, 5), lambda: cp.rollaxis(d, 5))
    expect_error(lambda: np.transpose(h, (0, 0, 1, 2)), lambda: cp.transpose(d, (0, 0, 1, 2)), "repeated axis in transpose")
    expect_error(lambda: np.transpose(h, (0, 1)), lambda: cp.transpose(d, (0, 1)), "axes don't match array")
    expect_error(lambda: np.transpose(h, (0, 1, 2, 4)), lambda: cp.transpose(d, (0, 1, 2, 4)))


def test_squeeze_expand_dims_atleast(rng):
    h, d = pair((1, 3, 1, 2), np.int8, rng, "negative")
    for axis in (None, 0, -2, (0, 2)):
        check(lambda: np.squeeze(h, axis), lambda: cp.squeeze(d, axis))
    expect_error(lambda: np.squeeze(h, 1), lambda: cp.squeeze(d, 1), "cannot select an axis to squeeze out")
    expect_error(lambda: np.squeeze(h, 4), lambda: cp.squeeze(d, 4))
    for axis in (0, -1, (0, 2), (1, -1), (0, 1, 2)):
        check(lambda: np.expand_dims(h, axis), lambda: cp.expand_dims(d, axis))
    expect_error(lambda: np.expand_dims(h, (0, 0)), lambda: cp.expand_dims(d, (0, 0)), "repeated axis")
    expect_error(lambda: np.expand_dims(h, 6), lambda: cp.expand_dims(d, 6))
    for shape in ((), (3,), (2, 3), (2, 3, 4), (0,)):
        hs, ds = pair(shape, np.uint16, rng)
        for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
            check(lambda: getattr(np, name)(hs), lambda: getattr(cp, name)(ds))
            check(lambda: getattr(np, name)(hs, 5), lambda: getattr(cp, name)(ds, 5))
        assert cp.atleast_1d(ds) is ds or ds.ndim == 0
    assert cp.atleast_2d() == () and np.atleast_2d() == ()


def test_broadcast_arrays_and_shapes(rng):
    h1, d1 = pair((3, 1), np.float16, rng)
    h2, d2 = pair((4,), np.int32, rng, "negative")
    h3, d3 = pair((), np.bool_, rng)
    check(lambda: np.broadcast_arrays(h1, h2, h3), lambda: cp.broadcast_arrays(d1, d2, d3))
    got = cp.broadcast_arrays(d1, d1)
    assert got[0] is d1  # NumPy returns the inputs when nothing broadcasts
    assert owner(cp.broadcast_arrays(d1, d2)[0]) is owner(d1)
    expect_error(lambda: np.broadcast_arrays(h1, np.ones((2, 2))), lambda: cp.broadcast_arrays(d1, cp.ones((2, 2))),
                 "shape mismatch")
    assert cp.broadcast_shapes((3, 1), (4,), ()) == np.broadcast_shapes((3, 1), (4,), ())
    expect_error(lambda: np.broadcast_shapes((2,), (3,)), lambda: cp.broadcast_shapes((2,), (3,)))


@given(shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4), data=st.data())
def test_reshape_hypothesis(shape, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    layout = data.draw(st.sampled_from(SHAPED_LAYOUTS if shape else ("c",)))
    h, d = pair(shape, data.draw(st.sampled_from(ALL_DTYPES)), rng, layout)
    size = h.size
    target = data.draw(st.sampled_from([(size,), (-1,), (1, size, 1), (size, -1) if size else (0, 3)]))
    order = data.draw(st.sampled_from(["C", "F", "A"]))
    check(lambda: np.reshape(h, target, order=order), lambda: cp.reshape(d, target, order=order))
    check(lambda: h.reshape(target, order=order), lambda: d.reshape(target, order=order))


def test_reshape_copy_and_errors(rng):
    h, d = pair((4, 6), np.float64, rng)
    check(lambda: np.reshape(h, (3, 8), copy=True), lambda: cp.reshape(d, (3, 8), copy=True))
    assert owner(cp.reshape(d, (3, 8), copy=True)) is not owner(d)
    assert owner(cp.reshape(d, (3, 8), copy=False)) is owner(d)
    expect_error(lambda: np.reshape(h.T, 24, copy=False), lambda: cp.reshape(d.T, 24, copy=False),
                 "Unable to avoid creating a copy while reshaping.")
    check(lambda: np.reshape(h.T, (2, -1), order="F"), lambda: cp.reshape(d.T, (2, -1), order="F"))
    expect_error(lambda: np.reshape(h, (5, -1)), lambda: cp.reshape(d, (5, -1)))
    expect_error(lambda: np.reshape(h, (-1, -1)), lambda: cp.reshape(d, (-1, -1)))


def test_contiguous_copies_of_transposed_views(rng):
    h, d = pair((3, 4, 5), np.complex128, rng, "transposed")
    for name in ("ascontiguousarray", "asfortranarray"):
        got = getattr(cp, name)(d)
        same(got, getattr(np, name)(h))
        assert got.flags["C_CONTIGUOUS" if name == "ascontiguousarray" else "F_CONTIGUOUS"]
    c = cp.ascontiguousarray(cp.ascontiguousarray(d))
    assert cp.ascontiguousarray(c) is c
    h0, d0 = pair((), np.float32, rng)
    check(lambda: np.ascontiguousarray(h0), lambda: cp.ascontiguousarray(d0))
