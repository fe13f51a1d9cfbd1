"""The index functions against NumPy: choose (modes), select, place, putmask, put_along_axis,
piecewise, diag, diagflat, tril, triu, tril/triu_indices(_from), fill_diagonal (wrap), indices
(sparse), ix_, ravel_multi_index (modes, order), unravel_index (order), ndarray.choose; every
dtype where the function takes any, non-contiguous inputs, size 0, and NumPy's errors
(python/cuarray/_indexing/index_functions.py)."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, assert_array_equal_np, assert_raises_like, assert_same_results, check_like_numpy,
                     numpy_outcome, random_array)

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_diag_tril_triu_every_dtype(dtype, rng):
    h = random_array((5, 7), dtype, rng, special=True)
    d = cp.asarray(h)
    for k in (-6, -2, 0, 1, 3, 7):
        for hv, dv in ((h, d), (h.T, d.T), (h[::2, ::-1], d[::2, ::-1])):
            assert_array_equal_np(cp.diag(dv, k), np.diag(hv, k))
            assert_array_equal_np(cp.tril(dv, k), np.tril(hv, k))
            assert_array_equal_np(cp.triu(dv, k), np.triu(hv, k))
        assert_array_equal_np(cp.diag(d[1], k), np.diag(h[1], k))
        assert_array_equal_np(cp.diagflat(d[:2, :3], k), np.diagflat(h[:2, :3], k))
    h3 = random_array((2, 3, 4), dtype, rng)
    assert_array_equal_np(cp.tril(cp.asarray(h3), 1), np.tril(h3, 1))
    assert_array_equal_np(cp.triu(cp.asarray(h3)[..., ::-1], -1), np.triu(h3[..., ::-1], -1))
    assert_array_equal_np(cp.triu(cp.asarray(h[0])), np.triu(h[0]))  # 1-D: NumPy's (n, n) result
    assert_array_equal_np(cp.diag(cp.asarray(h[:0, 0])), np.diag(h[:0, 0]))
    with pytest.raises(ValueError, match="Input must be 1- or 2-d."):
        cp.diag(cp.asarray(h3))


def test_tri_indices():
    for n, k, m in ((4, 0, None), (5, -2, 3), (3, 2, 6), (0, 0, None), (4, 9, 2)):
        assert_same_results(cp.tril_indices(n, k, m), np.tril_indices(n, k, m))
        assert_same_results(cp.triu_indices(n, k, m), np.triu_indices(n, k, m))
    h = np.zeros((3, 5))
    assert_same_results(cp.tril_indices_from(cp.asarray(h), 1), np.tril_indices_from(h, 1))
    assert_same_results(cp.triu_indices_from(cp.asarray(h), -1), np.triu_indices_from(h, -1))
    with pytest.raises(ValueError, match="input array must be 2-d"):
        cp.triu_indices_from(cp.zeros(3))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill_diagonal(dtype, rng):
    for shape, wrap in (((4, 4), False), ((7, 3), False), ((7, 3), True), ((3, 6), False), ((3, 3, 3), False)):
        h = random_array(shape, dtype, rng)
        d = cp.asarray(h)
        val = random_array((2,), dtype, rng)
        np.fill_diagonal(h, val, wrap=wrap)
        cp.fill_diagonal(d, cp.asarray(val), wrap=wrap)
        assert_array_equal_np(d, h)
    h = np.zeros((6, 4))
    d = cp.asarray(h)
    np.fill_diagonal(h.T, 5)
    cp.fill_diagonal(d.T, 5)
    assert_array_equal_np(d, h)
    with pytest.raises(ValueError, match="at least 2-d"):
        cp.fill_diagonal(cp.zeros(3), 1)
    with pytest.raises(ValueError, match="equal length"):
        cp.fill_diagonal(cp.zeros((2, 3, 3)), 1)


def test_indices_and_ix():
    for dims, dtype in (((2, 3), int), ((4,), np.int32), ((2, 0, 3), float), ((), int)):
        assert_array_equal_np(cp.indices(dims, dtype), np.indices(dims, dtype))
        assert_same_results(cp.indices(dims, dtype, sparse=True), np.indices(dims, dtype, sparse=True))
    args = ([0, 2], np.array([True, False, True, True]), [], cp.asarray([3, 1], dtype=cp.int16))
    ref = np.ix_(*[a.get() if isinstance(a, cp.ndarray) else a for a in args])
    assert_same_results(cp.ix_(*args), ref)
    with pytest.raises(ValueError, match="Cross index must be 1 dimensional"):
        cp.ix_([[0, 1]])
    h = np.arange(60).reshape(3, 4, 5)
    assert_array_equal_np(cp.asarray(h)[cp.ix_([2, 0], [1, 1, 3], [4])], h[np.ix_([2, 0], [1, 1, 3], [4])])


def test_ravel_multi_index(rng):
    dims = (4, 5, 3)
    coords = tuple(rng.integers(-3, d + 3, size=(2, 6)) for d in dims)
    for mode in ("wrap", "clip", ("clip", "wrap", "clip")):
        for order in ("C", "F"):
            check_like_numpy(lambda: np.ravel_multi_index(coords, dims, mode=mode, order=order),
                             lambda: cp.ravel_multi_index(tuple(cp.asarray(c) for c in coords), dims, mode=mode,
                                                          order=order))
    good = tuple(rng.integers(0, d, size=7).astype(np.int32) for d in dims)
    for order in ("C", "F"):
        assert_array_equal_np(cp.ravel_multi_index(tuple(cp.asarray(c) for c in good), dims, order=order),
                              np.ravel_multi_index(good, dims, order=order))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        cp.ravel_multi_index(tuple(cp.asarray(c) for c in coords), dims)
    with pytest.raises(ValueError, match="parameter multi_index must be a sequence of length 3"):
        cp.ravel_multi_index((cp.asarray([0]),), dims)
    with pytest.raises(TypeError):
        cp.ravel_multi_index((cp.asarray([0.0]), cp.asarray([0]), cp.asarray([0])), dims)


def test_unravel_index(rng):
    shape = (3, 1, 4, 5)
    flat = rng.integers(0, 60, size=(2, 5))
    for order in ("C", "F"):
        assert_same_results(cp.unravel_index(cp.asarray(flat), shape, order=order), np.unravel_index(flat, shape, order=order))
        assert_same_results(cp.unravel_index(cp.asarray(flat.astype(np.uint16))[:, ::2], shape, order=order),
                    np.unravel_index(flat.astype(np.uint16)[:, ::2], shape, order=order))
    with pytest.raises(ValueError, match="index 60 is out of bounds for array with size 60"):
        cp.unravel_index(cp.asarray([1, 60, 70]), shape)
    with pytest.raises(ValueError, match="index -1 is out of bounds"):
        cp.unravel_index(cp.asarray([-1]), shape)
    with pytest.raises(TypeError):
        cp.unravel_index(cp.asarray([1.0]), shape)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_choose_every_dtype_and_mode(dtype, rng):
    choices = [random_array((3, 4), dtype, rng, special=True) for _ in range(3)]
    a = rng.integers(-4, 7, size=(3, 4))
    for mode in ("wrap", "clip"):
        check_like_numpy(lambda: np.choose(a, choices, mode=mode),
                         lambda: cp.choose(cp.asarray(a), [cp.asarray(c) for c in choices], mode=mode))
    good = rng.integers(0, 3, size=(2, 1, 4))  # broadcasts against the (3, 4) choices
    assert_array_equal_np(cp.choose(cp.asarray(good), [cp.asarray(c) for c in choices]), np.choose(good, choices))
    assert_array_equal_np(cp.asarray(good).choose([cp.asarray(c) for c in choices]), good.choose(choices))
    assert_array_equal_np(cp.choose(cp.asarray(good[0, 0]), cp.asarray(np.stack(choices))[:, 0]),
                          np.choose(good[0, 0], np.stack(choices)[:, 0]))  # an array of choices
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        cp.choose(cp.asarray(a), [cp.asarray(c) for c in choices])


def test_choose_mixed_dtypes_scalars_and_out(rng):
    a = rng.integers(0, 3, size=6)
    ch = [np.arange(6, dtype=np.int8), np.linspace(0, 1, 6).astype(np.float32), 7]
    check_like_numpy(lambda: np.choose(a, ch), lambda: cp.choose(cp.asarray(a), [cp.asarray(ch[0]), cp.asarray(ch[1]), 7]))
    out = cp.zeros(6, cp.float32)
    r = cp.choose(cp.asarray(a), [cp.asarray(ch[0]), cp.asarray(ch[1]), 7], out=out)
    assert r is out
    assert_array_equal_np(out, np.choose(a, ch))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_select(dtype, rng):
    x = random_array((4, 5), dtype, rng)
    c1 = rng.random((4, 5)) < 0.3
    c2 = rng.random((5,)) < 0.5
    ch = [x, random_array((4, 5), dtype, rng)]
    ref = np.select([c1, c2], ch, default=np.zeros((), dtype))
    assert_array_equal_np(cp.select([cp.asarray(c1), cp.asarray(c2)], [cp.asarray(c) for c in ch],
                                    default=cp.zeros((), dtype)), ref)
    check_like_numpy(lambda: np.select([c1, c2], [1, 2.5], 3), lambda: cp.select([cp.asarray(c1), cp.asarray(c2)], [1, 2.5], 3))
    with pytest.raises(ValueError, match="same length"):
        cp.select([cp.asarray(c1)], [])
    with pytest.raises(ValueError, match="empty condition list"):
        cp.select([], [])
    with pytest.raises(TypeError, match="invalid entry 0 in condlist"):
        cp.select([cp.asarray(c1.astype(int))], [cp.asarray(x)])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_place_and_putmask(dtype, rng):
    for shape in ((4, 6), (0, 3)):
        h = random_array(shape, dtype, rng)
        d = cp.asarray(h)
        mask = rng.random(shape) < 0.4
        vals = random_array((3,), dtype, rng)
        np.place(h, mask, vals)
        cp.place(d, cp.asarray(mask), cp.asarray(vals))
        assert_array_equal_np(d, h)
        vals = random_array((5,), dtype, rng)
        np.putmask(h, mask, vals)
        cp.putmask(d, cp.asarray(mask), cp.asarray(vals))
        assert_array_equal_np(d, h)
    h = random_array((6, 4), dtype, rng)
    d = cp.asarray(h)
    mask = rng.random((4, 6)) < 0.5
    np.putmask(h.T, mask, h.T[::-1].copy())
    cp.putmask(d.T, cp.asarray(mask), d.T[::-1].copy())
    assert_array_equal_np(d, h)
    with pytest.raises(ValueError, match="Cannot insert from an empty array"):
        cp.place(cp.zeros(3), cp.asarray([True, False, True]), cp.zeros(0))
    with pytest.raises(ValueError, match="putmask: mask and data must be the same size"):
        cp.putmask(cp.zeros(3), cp.asarray([True]), 1)
    with pytest.raises(TypeError):
        cp.place([1, 2], [True, False], [3])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_put_along_axis(dtype, rng):
    for axis in (0, 1, -1, None):
        h = random_array((4, 5), dtype, rng)
        d = cp.asarray(h)
        idx = rng.integers(-4, 4, size=(2, 5)) if axis == 0 else rng.integers(-5, 5, size=(4, 3))
        if axis is None:
            idx = rng.integers(-20, 20, size=7)
        vals = random_array(idx.shape, dtype, rng)
        np.put_along_axis(h, idx, vals, axis)
        cp.put_along_axis(d, cp.asarray(idx), cp.asarray(vals), axis)
        assert_array_equal_np(d, h)
    d = cp.zeros((3, 4))
    with pytest.raises(ValueError, match="same number of dimensions"):
        cp.put_along_axis(d, cp.asarray([0]), 1.0, 0)
    with pytest.raises(IndexError, match="must be an integer array"):
        cp.put_along_axis(d, cp.asarray([[0.0]]), 1.0, 0)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        cp.put_along_axis(d, cp.asarray([[3]]), 1.0, 0)


def test_piecewise(rng):
    x = rng.standard_normal(11)
    d = cp.asarray(x)
    ref = np.piecewise(x, [x < -0.5, x > 0.5], [lambda v: v * 2, lambda v: v - 1, 0.25])
    got = cp.piecewise(d, [d < -0.5, d > 0.5], [lambda v: v * 2, lambda v: v - 1, 0.25])
    assert_array_equal_np(got, ref)
    assert_array_equal_np(cp.piecewise(d, d > 0, [1.0, -1.0]), np.piecewise(x, x > 0, [1.0, -1.0]))
    with pytest.raises(ValueError, match="with 2 condition"):
        cp.piecewise(d, [d < 0, d > 0], [1.0])
