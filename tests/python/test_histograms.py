"""bincount, digitize, histogram, histogram_bin_edges, histogram2d and histogramdd against NumPy:
integer dtypes and weights, the privatized (few bins) and global (many bins) counting paths,
NumPy's bin-edge rules (values on edges, the closed last bin, NaN, range=, equal-bin rounding
correction across data dtypes), density, decreasing bins, and the exception types of bad input.
"""
import numpy as np
import pytest

import cuarray as cp

from helpers import (FLOAT, INTEGER, assert_allclose_np, assert_array_equal_np, assert_raises_like, numpy_outcome,
                     random_array)

pytestmark = pytest.mark.gpu

INDEX_DTYPES = [np.dtype(np.bool_)] + INTEGER
REAL = [np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float16, np.float32,
                              np.float64)]


# --------------------------------------------------------------------------------------------------
# bincount

@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_bincount_dtypes(dtype, rng):
    x = random_array(300, dtype, rng, low=0, high=40)
    assert_array_equal_np(cp.bincount(cp.asarray(x)), np.bincount(x))
    assert_array_equal_np(cp.bincount(cp.asarray(x), minlength=60), np.bincount(x, minlength=60))
    assert_array_equal_np(cp.bincount(cp.asarray(x)[::3]), np.bincount(x[::3]))


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int32, np.bool_, np.uint8])
def test_bincount_weights(wdtype, rng):
    x = random_array(500, np.int64, rng, low=0, high=30)
    w = random_array(500, wdtype, rng, low=-8, high=8)
    w = np.round(w) if w.dtype.kind == "f" else w  # integer-valued: sums are exact in any order
    assert_array_equal_np(cp.bincount(cp.asarray(x), weights=cp.asarray(w)), np.bincount(x, weights=w))
    assert_array_equal_np(cp.bincount(cp.asarray(x)[::-1], weights=cp.asarray(w)[::-1], minlength=45),
                          np.bincount(x[::-1], weights=w[::-1], minlength=45))


def test_bincount_paths(rng):
    """Few bins (shared-memory bins per block), many bins (global atomics), and one long input."""
    small = rng.integers(0, 7, size=200000).astype(np.int32)
    assert_array_equal_np(cp.bincount(cp.asarray(small)), np.bincount(small))
    many = rng.integers(0, 50000, size=200000)
    assert_array_equal_np(cp.bincount(cp.asarray(many)), np.bincount(many))
    w = rng.standard_normal(200000)
    assert_allclose_np(cp.bincount(cp.asarray(small), cp.asarray(w)), np.bincount(small, w), rtol=1e-9)
    long = rng.integers(0, 1000, size=3_000_000).astype(np.int32)
    assert_array_equal_np(cp.bincount(cp.asarray(long)), np.bincount(long))


def test_bincount_empty():
    e = np.array([], dtype=np.int64)
    assert_array_equal_np(cp.bincount(cp.asarray(e)), np.bincount(e))
    assert_array_equal_np(cp.bincount(cp.asarray(e), minlength=4), np.bincount(e, minlength=4))
    assert_array_equal_np(cp.bincount(cp.asarray(e), weights=cp.asarray(np.array([])), minlength=2),
                          np.bincount(e, weights=np.array([]), minlength=2))


@pytest.mark.parametrize("args,kwargs", [
    ((np.array([1, -2]),), {}),
    ((np.array([1.0, 2.0]),), {}),
    ((np.array([[1, 2]]),), {}),
    ((np.array(3),), {}),
    ((np.array([1, 2]),), {"minlength": -1}),
    ((np.array([1, 2]),), {"minlength": None}),
    ((np.array([1, 2]),), {"weights": np.array([1.0, 2.0, 3.0])}),
    ((np.array([1, 2]),), {"weights": np.array([1 + 1j, 2])}),
    ((np.array([], dtype=np.float32),), {}),
])
def test_bincount_errors(args, kwargs):
    _, exc = numpy_outcome(lambda: np.bincount(*args, **kwargs))
    assert exc is not None
    gpu_kwargs = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    err = assert_raises_like(exc, lambda: cp.bincount(*[cp.asarray(a) for a in args], **gpu_kwargs))
    assert str(err)


# --------------------------------------------------------------------------------------------------
# digitize

@pytest.mark.parametrize("right", [False, True])
def test_digitize(right, rng):
    bins = np.array([-3.0, -1.0, 0.0, 0.0, 2.5, 7.0])
    x = np.concatenate([bins, rng.uniform(-5, 9, 40), [np.nan, np.inf, -np.inf, -0.0]]).reshape(5, 10)
    for b in (bins, bins[::-1]):
        assert_array_equal_np(cp.digitize(cp.asarray(x), cp.asarray(b), right=right), np.digitize(x, b, right=right))
        assert_array_equal_np(cp.digitize(cp.asarray(x).T, cp.asarray(b), right=right),
                              np.digitize(x.T, b, right=right))
    xi = random_array(30, np.int16, rng, low=-5, high=9)
    assert_array_equal_np(cp.digitize(cp.asarray(xi), cp.asarray(bins), right), np.digitize(xi, bins, right))
    ib = np.array([0, 2, 2, 5], dtype=np.uint8)
    assert_array_equal_np(cp.digitize(cp.asarray(xi), cp.asarray(ib), right), np.digitize(xi, ib, right))
    assert_array_equal_np(cp.digitize(cp.asarray(xi), cp.asarray(np.array([])), right),
                          np.digitize(xi, np.array([]), right))
    assert_array_equal_np(cp.digitize(cp.asarray(xi[:0]), cp.asarray(bins), right), np.digitize(xi[:0], bins, right))


@pytest.mark.parametrize("x,bins,exc", [
    (np.array([1.0, 2.0]), np.array([1, 3, 2]), ValueError),
    (np.array([1.0, 2.0]), np.array([[1, 3, 2]]), ValueError),
    (np.array([1.0, 2j]), np.array([1, 3]), TypeError),
    (np.array([1.0, 2.0]), np.array([1, 1, 3, 2]), ValueError),
])
def test_digitize_errors(x, bins, exc):
    with pytest.raises(exc):
        cp.digitize(cp.asarray(x), cp.asarray(bins))


# --------------------------------------------------------------------------------------------------
# histogram

@pytest.mark.parametrize("dtype", REAL)
def test_histogram_equal_bins_every_dtype(dtype, rng):
    a = random_array(2000, dtype, rng, low=-50, high=50, special=False)
    for bins in (1, 7, 10, 64):
        ref_n, ref_e = np.histogram(a, bins)
        n, e = cp.histogram(cp.asarray(a), bins)
        assert_array_equal_np(n, ref_n)
        assert_array_equal_np(e, ref_e)
    for rng_arg in ((-20, 20), (-20.5, 31.25), (0, 1000)):
        ref_n, ref_e = np.histogram(a, 13, range=rng_arg)
        n, e = cp.histogram(cp.asarray(a), 13, range=rng_arg)
        assert_array_equal_np(n, ref_n)
        assert_array_equal_np(e, ref_e)


@pytest.mark.parametrize("dtype", FLOAT)
def test_histogram_values_on_edges(dtype):
    """Every edge value itself (the last one closes the last bin), values 1 ulp around the edges,
    where NumPy's arithmetic needs its correction step, and NaN/inf with a range."""
    for bins, lo, hi in ((10, 0.0, 1.0), (7, -3.3, 8.1), (100, 1e3, 1e3 + 7)):
        ends = np.array([lo, hi], dtype=dtype)
        edges, exc = numpy_outcome(lambda: np.histogram_bin_edges(ends, bins))
        if exc is not None:  # float16: 100 bins over [1000, 1007] are not finite-sized
            assert_raises_like(exc, lambda: cp.histogram(cp.asarray(ends), bins))
            continue
        with np.errstate(over="ignore"):
            near = np.concatenate([edges, np.nextafter(edges, np.inf).astype(dtype),
                                   np.nextafter(edges, -np.inf).astype(dtype)]).astype(dtype)
        for data in (edges.astype(dtype), near):
            ref_n, ref_e = np.histogram(data, bins, range=(lo, hi))
            n, e = cp.histogram(cp.asarray(data), bins, range=(lo, hi))
            assert_array_equal_np(n, ref_n)
            assert_array_equal_np(e, ref_e)
            ref_n, ref_e = np.histogram(data, bins)
            n, e = cp.histogram(cp.asarray(data), bins)
            assert_array_equal_np(n, ref_n)
            assert_array_equal_np(e, ref_e)
    special = np.array([0.5, np.nan, np.inf, -np.inf, 0.25, 1.0], dtype=dtype)
    ref_n, _ = np.histogram(special, 4, range=(0, 1))
    n, _ = cp.histogram(cp.asarray(special), 4, range=(0, 1))
    assert_array_equal_np(n, ref_n)
    with pytest.raises(ValueError, match="not finite"):
        cp.histogram(cp.asarray(special), 4)


def test_histogram_given_edges(rng):
    a = np.concatenate([rng.uniform(-2, 12, 500), [0, 1, 1, 5, 10, 10, np.nan, -np.inf, np.inf]])
    for bins in ([0, 1, 5, 10], [0, 1, 1, 2, 10, 10], np.array([-1.5, 0, 2.25, 11], dtype=np.float32), [3]):
        ref_n, ref_e = np.histogram(a, bins)
        n, e = cp.histogram(cp.asarray(a), bins)
        assert_array_equal_np(n, ref_n)
        assert_array_equal_np(e, ref_e)
    ai = random_array(300, np.int32, rng, low=-4, high=12)
    ref_n, ref_e = np.histogram(ai, [0, 2.5, 3, 11])
    n, e = cp.histogram(cp.asarray(ai), cp.asarray(np.array([0, 2.5, 3, 11])))
    assert_array_equal_np(n, ref_n)
    assert_array_equal_np(e, ref_e)


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int64, np.int8, np.complex128])
def test_histogram_weights_and_density(wdtype, rng):
    a = rng.uniform(0, 10, 400)
    w = random_array(400, wdtype, rng, low=-5, high=5)
    if w.dtype.kind in "fc":
        w = np.round(w).astype(wdtype)
    for bins in (8, [0, 1, 3, 9, 10]):
        ref_n, ref_e = np.histogram(a, bins, weights=w)
        n, e = cp.histogram(cp.asarray(a), bins, weights=cp.asarray(w))
        assert_array_equal_np(n, ref_n)
        assert_array_equal_np(e, ref_e)
    ref_d, _ = np.histogram(a, [0, 1, 3, 9, 10], density=True)
    d, _ = cp.histogram(cp.asarray(a), [0, 1, 3, 9, 10], density=True)
    assert_allclose_np(d, ref_d, rtol=1e-12)
    ref_d, _ = np.histogram(a.reshape(20, 20), 5, density=True, weights=np.abs(np.round(a)).reshape(20, 20))
    d, _ = cp.histogram(cp.asarray(a).reshape(20, 20).T.T, 5, density=True,
                        weights=cp.asarray(np.abs(np.round(a)).reshape(20, 20)))
    assert_allclose_np(d, ref_d, rtol=1e-12)


def test_histogram_small_cases(rng):
    for a in (np.array([]), np.array([3.0]), np.array([2, 2, 2]), np.array([True, False, True]),
              np.arange(10, dtype=np.uint8)[::-2]):
        ref_n, ref_e = numpy_outcome(lambda: np.histogram(a, 3))[0]
        n, e = cp.histogram(cp.asarray(a), 3)
        assert_array_equal_np(n, ref_n)
        assert_array_equal_np(e, ref_e)
    a = rng.standard_normal(1000)
    for estimator in ("auto", "sturges", "fd", "sqrt"):
        ref_n, ref_e = np.histogram(a, estimator)
        n, e = cp.histogram(cp.asarray(a), estimator)
        assert_array_equal_np(n, ref_n)
        assert_array_equal_np(e, ref_e)
    assert_array_equal_np(cp.histogram_bin_edges(cp.asarray(a), 6), np.histogram_bin_edges(a, 6))


@pytest.mark.parametrize("kwargs,exc", [
    ({"bins": 0}, ValueError),
    ({"bins": 2.5}, TypeError),
    ({"bins": [3, 2, 1]}, ValueError),
    ({"bins": [[1, 2]]}, ValueError),
    ({"bins": 3, "range": (3, 1)}, ValueError),
    ({"bins": 3, "range": (0, np.inf)}, ValueError),
    ({"bins": "bogus"}, ValueError),
    ({"bins": 3, "weights": np.ones(4)}, ValueError),
])
def test_histogram_errors(kwargs, exc):
    a = np.array([1.0, 2.0, 3.0])
    _, np_exc = numpy_outcome(lambda: np.histogram(a, **kwargs))
    assert isinstance(np_exc, exc)
    gpu_kwargs = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    assert_raises_like(np_exc, lambda: cp.histogram(cp.asarray(a), **gpu_kwargs))


# --------------------------------------------------------------------------------------------------
# histogram2d / histogramdd

def test_histogram2d(rng):
    x = np.concatenate([rng.uniform(0, 4, 300), [0, 4, 2]])
    y = np.concatenate([rng.standard_normal(300), [0, 1, -1]]).astype(np.float32)
    w = np.round(rng.uniform(0, 3, x.size))
    gx, gy, gw = cp.asarray(x), cp.asarray(y), cp.asarray(w)
    cases = [(5, {}), ((3, 4), {"weights": w}), (5, {"density": True}), (4, {"range": [[0, 4], [-1, 1]]}),
             ([np.array([0, 1, 2, 4.0]), np.array([-2, 0, 2.0])], {}), (np.array([0, 1, 2, 3, 4.0]), {"weights": w})]
    for bins, kwargs in cases:
        ref_h, ref_x, ref_y = np.histogram2d(x, y, bins, **kwargs)
        gb = ([cp.asarray(b) for b in bins] if isinstance(bins, list) else
              cp.asarray(bins) if isinstance(bins, np.ndarray) else bins)
        gk = {k: gw if k == "weights" else v for k, v in kwargs.items()}
        h, ex, ey = cp.histogram2d(gx, gy, gb, **gk)
        assert_allclose_np(h, ref_h, rtol=1e-12)
        assert_array_equal_np(ex, ref_x)
        assert_array_equal_np(ey, ref_y)
    # NaN coordinates fall outside every bin when the range is given.
    xn = np.array([0.5, np.nan, 1.5])
    ref_h, _, _ = np.histogram2d(xn, xn, 2, range=[[0, 2], [0, 2]])
    h, _, _ = cp.histogram2d(cp.asarray(xn), cp.asarray(xn), 2, range=[[0, 2], [0, 2]])
    assert_array_equal_np(h, ref_h)


def test_histogramdd(rng):
    sample = rng.uniform(-1, 1, size=(500, 3))
    sample[:5] = [[-1, -1, -1], [1, 1, 1], [0, 0, 0], [1, -1, 0.5], [0.5, 0.5, 0.5]]
    for bins in (4, (2, 3, 5), [[-1, 0, 1], 3, [-1, -0.5, 0.5, 1]]):
        ref_h, ref_e = np.histogramdd(sample, bins)
        gb = [cp.asarray(np.array(b)) if np.ndim(b) else b for b in bins] if isinstance(bins, list) else bins
        h, e = cp.histogramdd(cp.asarray(sample), gb)
        assert_array_equal_np(h, ref_h)
        for got, ref in zip(e, ref_e):
            assert_array_equal_np(got, ref)
    ref_h, _ = np.histogramdd(sample, 3, density=True)
    h, _ = cp.histogramdd(cp.asarray(sample), 3, density=True)
    assert_allclose_np(h, ref_h, rtol=1e-12)
    ref_h, _ = np.histogramdd([sample[:, 0], sample[:, 1]], 4, range=[(-0.5, 0.5), None])
    h, _ = cp.histogramdd([cp.asarray(sample[:, 0]), cp.asarray(sample[:, 1])], 4, range=[(-0.5, 0.5), None])
    assert_array_equal_np(h, ref_h)
    with pytest.raises(ValueError):
        cp.histogramdd(cp.asarray(sample), [3, 3])
    with pytest.raises(ValueError):
        cp.histogramdd(cp.asarray(sample), 3, range=[(0, 1)])
