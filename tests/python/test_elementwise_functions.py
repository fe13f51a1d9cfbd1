"""Elementwise functions that are not ufuncs: around/round, clip, where, nan_to_num, angle, real,
imag — against NumPy, across dtypes and layouts."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, COMPLEX, FLOAT, NUMERIC, assert_allclose_np, assert_array_equal_np,
                     check_like_numpy, layout_pair, random_array)

pytestmark = pytest.mark.gpu

SHAPE = (6, 35)


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2])
@pytest.mark.parametrize("dtype", NUMERIC + [np.dtype(np.bool_)])
def test_around_and_round(dtype, decimals, rng):
    # |x| <= 50 keeps x * 10**3 finite in float16 (NumPy scales in the input dtype)
    host = random_array(SHAPE, dtype, rng, low=-50, high=50, ties=True)
    g = cp.asarray(host)
    for np_f, cp_f in ((np.around, cp.around), (np.round, cp.round)):
        check_like_numpy(lambda: np_f(host, decimals), lambda: cp_f(g, decimals),
                         compare=assert_allclose_np)
    check_like_numpy(lambda: host.round(decimals), lambda: g.round(decimals),
                     compare=assert_allclose_np)


@pytest.mark.parametrize("dtype", FLOAT)
def test_round_half_to_even(dtype):
    host = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.25, 0.35, 1.45, 125.0, 135.0], dtype=dtype)
    for decimals in (0, 1, -1):
        assert_allclose_np(cp.round(cp.asarray(host), decimals), np.round(host, decimals))


CLIP_BOUNDS = [(-1, 1), (0, None), (None, 2.5), (5, -5), (np.float32(-0.5), 0.5), (-1000, 1000)]


@pytest.mark.parametrize("bounds", CLIP_BOUNDS, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_clip_scalar_bounds(dtype, bounds, rng):
    lo, hi = bounds
    host = random_array(SHAPE, dtype, rng, low=-3, high=3)
    g = cp.asarray(host)
    check_like_numpy(lambda: np.clip(host, lo, hi), lambda: cp.clip(g, lo, hi))
    check_like_numpy(lambda: host.clip(lo, hi), lambda: g.clip(lo, hi))


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int16, np.uint8, np.float32, np.float64)])
def test_clip_array_bounds_and_out(dtype, rng):
    host = random_array(SHAPE, dtype, rng, low=0, high=100)
    lo = random_array(SHAPE[1:], dtype, rng, low=0, high=40)
    hi = random_array((SHAPE[0], 1), dtype, rng, low=50, high=100)
    g = cp.asarray(host)
    assert_array_equal_np(cp.clip(g, cp.asarray(lo), cp.asarray(hi)), np.clip(host, lo, hi))
    out_np = np.empty(SHAPE, dtype)
    out_cp = cp.empty(SHAPE, dtype=dtype)
    np.clip(host, lo, hi, out=out_np)
    assert cp.clip(g, cp.asarray(lo), cp.asarray(hi), out=out_cp) is out_cp
    assert_array_equal_np(out_cp, out_np)


@pytest.mark.parametrize("dtype", FLOAT)
def test_clip_nan(dtype, rng):
    host = random_array(SHAPE, dtype, rng, special=True)
    g = cp.asarray(host)
    assert_array_equal_np(cp.clip(g, -1, 1), np.clip(host, -1, 1))
    assert_array_equal_np(cp.clip(g, np.nan, 1), np.clip(host, np.nan, 1))


@pytest.mark.parametrize("y_dtype", [np.dtype(d) for d in (np.bool_, np.int8, np.uint32, np.float32,
                                                            np.complex64)])
@pytest.mark.parametrize("x_dtype", [np.dtype(d) for d in (np.bool_, np.int64, np.float16,
                                                            np.float64)])
def test_where_three_arguments(x_dtype, y_dtype, rng):
    cond = random_array(SHAPE, np.bool_, rng)
    x = random_array(SHAPE, x_dtype, rng)
    y = random_array(SHAPE[1:], y_dtype, rng)  # broadcast
    assert_array_equal_np(cp.where(cp.asarray(cond), cp.asarray(x), cp.asarray(y)),
                          np.where(cond, x, y))


def test_where_scalars_and_broadcasting(rng):
    cond = random_array((4, 1), np.bool_, rng)
    x = random_array((1, 5), np.float32, rng)
    gc, gx = cp.asarray(cond), cp.asarray(x)
    assert_array_equal_np(cp.where(gc, gx, 0), np.where(cond, x, 0))
    assert_array_equal_np(cp.where(gc, 2.5, gx), np.where(cond, 2.5, x))
    assert_array_equal_np(cp.where(gc, 1, 2), np.where(cond, 1, 2))
    int_cond = random_array((4, 5), np.int32, rng, low=-1, high=1)
    assert_array_equal_np(cp.where(cp.asarray(int_cond), gx, -gx), np.where(int_cond, x, -x))
    check_like_numpy(lambda: np.where(cond, x, np.ones(3)),
                     lambda: cp.where(gc, gx, cp.ones(3)))


@pytest.mark.parametrize("layout", ["f", "stepped", "negative", "broadcast", "0d", "empty"])
def test_where_layouts(layout, rng):
    c_np, c_cp = layout_pair(layout, (3, 4, 5), np.bool_, rng)
    x_np, x_cp = layout_pair(layout, (3, 4, 5), np.int32, rng)
    y_np, y_cp = layout_pair(layout, (3, 4, 5), np.int32, rng)
    assert_array_equal_np(cp.where(c_cp, x_cp, y_cp), np.where(c_np, x_np, y_np))


NAN_TO_NUM_KW = [{}, dict(nan=-1.0), dict(posinf=1e3, neginf=-1e3), dict(nan=7, posinf=8, neginf=9),
                 dict(copy=False)]


@pytest.mark.parametrize("kw", NAN_TO_NUM_KW, ids=repr)
@pytest.mark.parametrize("dtype", FLOAT + COMPLEX + [np.dtype(np.int32), np.dtype(np.bool_)])
def test_nan_to_num(dtype, kw, rng):
    host = random_array(SHAPE, dtype, rng, special=True)
    g = cp.asarray(host)
    ref = np.nan_to_num(host.copy(), **kw)
    got = cp.nan_to_num(g, **kw)
    assert_array_equal_np(got, ref)
    if kw.get("copy") is False and dtype.kind in "fc":
        assert got is g or got.data.ptr == g.data.ptr
        assert_array_equal_np(g, ref)


@pytest.mark.parametrize("deg", [False, True])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_angle(dtype, deg, rng):
    host = random_array(SHAPE, dtype, rng, zeros=True)
    check_like_numpy(lambda: np.angle(host, deg=deg), lambda: cp.angle(cp.asarray(host), deg=deg),
                     compare=assert_allclose_np)


@pytest.mark.parametrize("layout", ["c", "stepped", "negative", "0d"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_real_and_imag_functions(dtype, layout, rng):
    ref, g = layout_pair(layout, (3, 4), dtype, rng)
    assert_array_equal_np(cp.real(g), np.real(ref))
    assert_array_equal_np(cp.imag(g), np.imag(ref))
    if dtype.kind == "c":
        assert cp.real(g).data.ptr == g.data.ptr
