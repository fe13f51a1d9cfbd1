"""Set operations against NumPy (python/cuarray/_sorting/sets.py, docs/sets.md): unique with every
return_* combination, equal_nan and axis forms, the unique_* namedtuples, isin, intersect1d,
union1d, setdiff1d, setxor1d. Data has many duplicates; floats carry NaN and both zeros, complex
values NaN in either part; every dtype, non-contiguous inputs, size 0, ranks 0-3."""
import itertools

import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, assert_array_equal_np, assert_raises_like, numpy_outcome

pytestmark = pytest.mark.gpu

RETURNS = list(itertools.product([False, True], repeat=3))  # return_index, return_inverse, return_counts


def dup_data(shape, dtype, rng, values=7):
    """Values from a small set (so most repeat); floats with NaN and both signs of zero."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        low = -values // 2 if dtype.kind == "i" else 0
        return rng.integers(low, low + values, shape).astype(dtype)
    x = rng.integers(-3, 4, shape) / 2.0
    x = np.where(rng.random(shape) < 0.2, np.nan, x)
    x = np.where(x == 0, np.where(rng.random(shape) < 0.5, -0.0, 0.0), x)
    if dtype.kind == "c":
        y = np.where(rng.random(shape) < 0.2, np.nan, rng.integers(-2, 3, shape) / 2.0)
        x = x + 1j * y
    return np.asarray(x).astype(dtype)


def has_several_nans(a):
    return a.dtype.kind in "fc" and int(np.isnan(a).sum()) > 1


def check_unique(a, ri, rv, rc, **kwargs):
    ref = np.unique(a, ri, rv, rc, **kwargs)
    got = cp.unique(cp.asarray(a), ri, rv, rc, **kwargs)
    ref = ref if isinstance(ref, tuple) else (ref,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(ref)
    inverse_at = 1 + ri if rv else None
    # NumPy numbers separate NaNs (equal_nan=False) in the order of its unstable sort when no
    # index is asked for: the inverse is checked by reconstructing the input instead.
    loose = (rv and not ri and not kwargs.get("equal_nan", True) and kwargs.get("axis") is None
             and has_several_nans(a))
    for k, (g, r) in enumerate(zip(got, ref)):
        if loose and k == inverse_at:
            assert g.dtype == r.dtype and g.shape == r.shape
            np.testing.assert_array_equal(cp.asnumpy(got[0])[cp.asnumpy(g)], a)
        else:
            assert_array_equal_np(g, r)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (1,), (300,), (6, 7), (2, 3, 4)], ids=str)
def test_unique_flat_every_return(dtype, shape, rng):
    a = dup_data(shape, dtype, rng)
    for ri, rv, rc in RETURNS:
        for equal_nan in (True, False):
            check_unique(a, ri, rv, rc, equal_nan=equal_nan)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(8,), (9, 3), (3, 9), (4, 2, 3), (0, 3), (3, 0)], ids=str)
def test_unique_axis(dtype, shape, rng):
    # few distinct values so that whole rows repeat
    a = dup_data(shape, dtype, rng, values=2)
    if a.ndim >= 2 and a.shape[0] >= 4:
        a[1] = a[0]
        a[-1] = a[0]
    for axis in range(-a.ndim, a.ndim):
        for ri, rv, rc in RETURNS:
            check_unique(a, ri, rv, rc, axis=axis)


def test_unique_float_specials():
    a = np.array([0.0, -0.0, np.nan, 1.0, np.nan, -0.0, np.inf, -np.inf, np.nan], np.float32)
    for ri, rv, rc in RETURNS:
        check_unique(a, ri, rv, rc)
        check_unique(a, ri, rv, rc, equal_nan=False)
    c = np.array([complex(1, np.nan), complex(np.nan, 0), complex(np.nan, 1), 1 + 1j, 1 + 1j, complex(np.nan, np.nan)])
    for ri, rv, rc in RETURNS:
        check_unique(c, ri, rv, rc)
    rows = np.array([[1, np.nan], [1, np.nan], [0, -0.0], [-0.0, 0.0], [np.nan, 1]])
    for ri, rv, rc in RETURNS:
        check_unique(rows, ri, rv, rc, axis=0)
        check_unique(rows.astype(np.float16), ri, rv, rc, axis=0)  # NumPy's float16 rows: NaN first


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_unique_non_contiguous(dtype, rng):
    base = dup_data((12, 10), dtype, rng)
    gbase = cp.asarray(base)
    views = [(gbase.T, base.T), (gbase[::2, ::-3], base[::2, ::-3]), (gbase[:, 1], base[:, 1])]
    for gview, view in views:
        for ri, rv, rc in RETURNS:
            ref = np.unique(view, ri, rv, rc)
            got = cp.unique(gview, ri, rv, rc)
            for g, r in zip(got if isinstance(got, tuple) else (got,), ref if isinstance(ref, tuple) else (ref,)):
                assert_array_equal_np(g, r)
        if view.ndim == 2:
            for g, r in zip(cp.unique(gview, True, True, True, axis=1), np.unique(view, True, True, True, axis=1)):
                assert_array_equal_np(g, r)


def test_unique_long_int32(rng):
    a = rng.integers(0, 1000, 200_000).astype(np.int32)
    for ri, rv, rc in RETURNS:
        check_unique(a, ri, rv, rc)


def test_unique_namedtuples(rng):
    a = dup_data((5, 8), "int16", rng)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        ref = getattr(np, name)(a)
        got = getattr(cp, name)(cp.asarray(a))
        assert type(got).__name__ == type(ref).__name__ and got._fields == ref._fields
        for g, r in zip(got, ref):
            assert_array_equal_np(g, r)
    f = dup_data((40,), "float64", rng)
    got = cp.unique_all(cp.asarray(f))
    ref = np.unique_all(f)
    for g, r in zip(got, ref):
        assert_array_equal_np(g, r)  # NaNs kept apart, indices from the stable sort
    # unique_values promises no order in NumPy: compare as sorted sets, NaNs kept apart
    assert_array_equal_np(cp.sort(cp.unique_values(cp.asarray(f))), np.sort(np.unique_values(f)))
    assert cp.unique_counts(cp.asarray(f)).counts.dtype == np.int64


def test_unique_errors():
    for call in (lambda xp: xp.unique(xp.zeros((2, 3)), axis=2), lambda xp: xp.unique(xp.zeros(3), axis=-2),
                 lambda xp: xp.unique(xp.asarray(1.0), axis=0), lambda xp: xp.unique(xp.zeros(3), axis=1.5)):
        _, exc = numpy_outcome(lambda: call(np))
        assert exc is not None
        assert_raises_like(exc, lambda: call(cp))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_isin(dtype, rng):
    for other in ("int64", "float32", dtype):
        for s1, s2 in [((30,), (12,)), ((0,), (5,)), ((4, 5), (0,)), ((), (3,)), ((3, 2, 2), ())]:
            a, b = dup_data(s1, dtype, rng), dup_data(s2, other, rng)
            for invert in (False, True):
                for kind in (None, "sort"):
                    assert_array_equal_np(cp.isin(cp.asarray(a), cp.asarray(b), invert=invert, kind=kind),
                                          np.isin(a, b, invert=invert, kind=kind))


def test_isin_table_and_kinds(rng):
    a, b = rng.integers(-50, 50, (7, 9)), rng.integers(-20, 20, 30)
    assert_array_equal_np(cp.isin(cp.asarray(a), cp.asarray(b), kind="table"), np.isin(a, b, kind="table"))
    assert_array_equal_np(cp.isin(a.T, list(b.tolist())), np.isin(a.T, b))  # host inputs and lists
    nan_in = np.array([np.nan, 0.0, -0.0, 1.0])
    assert_array_equal_np(cp.isin(cp.asarray(nan_in), cp.asarray([np.nan, 0.0])), np.isin(nan_in, [np.nan, 0.0]))
    for call in (lambda xp: xp.isin(xp.asarray([1]), xp.asarray([2]), kind="hash"),
                 lambda xp: xp.isin(xp.asarray([1.0]), xp.asarray([2.0]), kind="table"),
                 lambda xp: xp.isin(xp.asarray([1], dtype=xp.int8), xp.asarray([-128, 127], dtype=xp.int8),
                                    kind="table")):
        _, exc = numpy_outcome(lambda: call(np))
        assert exc is not None
        assert_raises_like(exc, lambda: call(cp))


SET_SHAPES = [((25,), (17,)), ((0,), (6,)), ((4, 5), (0,)), ((), (3,)), ((6,), ()), ((0,), (0,))]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_binary_set_operations(dtype, rng):
    for other in ("int64", dtype):
        for s1, s2 in SET_SHAPES:
            a, b = dup_data(s1, dtype, rng), dup_data(s2, other, rng)
            ga, gb = cp.asarray(a), cp.asarray(b)
            assert_array_equal_np(cp.union1d(ga, gb), np.union1d(a, b))
            assert_array_equal_np(cp.setxor1d(ga, gb), np.setxor1d(a, b))
            assert_array_equal_np(cp.setdiff1d(ga, gb), np.setdiff1d(a, b))
            assert_array_equal_np(cp.intersect1d(ga, gb), np.intersect1d(a, b))
            for g, r in zip(cp.intersect1d(ga, gb, return_indices=True), np.intersect1d(a, b, return_indices=True)):
                assert_array_equal_np(g, r)
            # assume_unique forms on unique inputs without NaN (NaN never equals itself)
            ua, ub = np.unique(a), np.unique(b)
            if ua.dtype.kind in "fc":
                ua = ua[~np.isnan(ua)]
            if ub.dtype.kind in "fc":
                ub = ub[~np.isnan(ub)]
            gua, gub = cp.asarray(ua), cp.asarray(ub)
            for g, r in zip(cp.intersect1d(gua, gub, True, True), np.intersect1d(ua, ub, True, True)):
                assert_array_equal_np(g, r)
            assert_array_equal_np(cp.setxor1d(gua, gub, True), np.setxor1d(ua, ub, True))
            assert_array_equal_np(cp.setdiff1d(gua, gub, True), np.setdiff1d(ua, ub, True))
            assert_array_equal_np(cp.isin(gua, gub, assume_unique=True), np.isin(ua, ub, assume_unique=True))


def test_set_operations_non_contiguous(rng):
    a = dup_data((10, 8), "float32", rng)
    b = dup_data((9, 6), "int16", rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    pairs = [(ga.T, a.T), (ga[::2, ::-1], a[::2, ::-1]), (ga[:, 3], a[:, 3])]
    for (g1, n1), (g2, n2) in itertools.product(pairs, [(gb.T, b.T), (gb[1::3], b[1::3])]):
        assert_array_equal_np(cp.union1d(g1, g2), np.union1d(n1, n2))
        assert_array_equal_np(cp.setdiff1d(g1, g2), np.setdiff1d(n1, n2))
        assert_array_equal_np(cp.isin(g1, g2), np.isin(n1, n2))
        for g, r in zip(cp.intersect1d(g1, g2, return_indices=True), np.intersect1d(n1, n2, return_indices=True)):
            assert_array_equal_np(g, r)
