"""median, nanmedian, quantile, percentile, nanquantile and nanpercentile against NumPy: every
method, q as a Python float (weak), a NumPy float64 scalar, a list and a 2-D array, axis as None,
an int or a tuple, keepdims, out=, NaN in the data (NaN results, or skipped by the nan-forms,
all-NaN slices), result dtypes (float64 for integers, float16 stays float16 with a weak q,
discrete methods keep the dtype), non-contiguous inputs, empty inputs and NumPy's errors.
"""
import warnings

import numpy as np
import pytest

import cuarray as cp

from helpers import assert_allclose_np, assert_raises_like, numpy_outcome, random_array

pytestmark = pytest.mark.gpu

REAL_DTYPES = [np.dtype(t) for t in ("int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float16",
                                     "float32", "float64")]
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
AXES_RANK3 = [None, 0, 1, -1, (0, 2), (2, 0), (0, 1, 2), ()]


def stat_data(shape, dtype, rng, nan=False):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return random_array(shape, dtype, rng, low=0 if dtype.kind == "u" else -50, high=50)
    x = random_array(shape, dtype, rng, low=-20, high=20, ties=True)
    if nan and x.size:
        x = np.where(rng.random(shape) < 0.15, np.nan, x).astype(dtype)
    return x


def check(np_call, cp_call, data, rtol=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref, exc = numpy_outcome(lambda: np_call(np, data))
    d = cp.asarray(data)
    if exc is not None:
        assert_raises_like(exc, lambda: cp_call(cp, d))
        return
    got = cp_call(cp, d)
    ref = np.asarray(ref)
    assert_allclose_np(got, ref, rtol=rtol)


@pytest.mark.parametrize("dtype", REAL_DTYPES + [np.dtype("bool"), np.dtype("complex64"), np.dtype("complex128")])
def test_median_every_axis(dtype, rng):
    x = stat_data((4, 5, 6), dtype, rng) if dtype.kind != "c" else random_array((4, 5, 6), dtype, rng, ties=True)
    for axis in AXES_RANK3:
        for keepdims in (False, True):
            check(lambda m, a: m.median(a, axis=axis, keepdims=keepdims),
                  lambda m, a: m.median(a, axis=axis, keepdims=keepdims), x)
    check(lambda m, a: m.median(a.T[::2]), lambda m, a: m.median(a.T[::2]), x)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_median_nan(dtype, rng):
    x = stat_data((6, 9), dtype, rng, nan=True)
    x[2] = np.nan  # an all-NaN row
    for fn in ("median", "nanmedian"):
        for axis in (None, 0, 1, (0, 1)):
            check(lambda m, a: getattr(m, fn)(a, axis=axis), lambda m, a: getattr(m, fn)(a, axis=axis), x)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods(dtype, method, rng):
    x = stat_data((5, 7), dtype, rng)
    qs = [0.0, 0.1, 0.25, 0.5, 0.7, 0.999, 1.0]
    for q in (0.3, np.float64(0.3), qs, np.array([[0.2, 0.9], [1.0, 0.0]])):
        for axis in (None, 0, -1):
            check(lambda m, a: m.quantile(a, q, axis=axis, method=method),
                  lambda m, a: m.quantile(a, q, axis=axis, method=method), x)
    for n in range(1, 6):  # short rows: every boundary of every method
        check(lambda m, a: m.quantile(a[:n], qs, axis=0, method=method),
              lambda m, a: m.quantile(a[:n], qs, axis=0, method=method), x)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_percentile_axes_keepdims_out(dtype, rng):
    x = stat_data((3, 4, 5), dtype, rng)
    for axis in AXES_RANK3:
        for q in (50, [10, 90.5], np.float32(25.0)):
            check(lambda m, a: m.percentile(a, q, axis=axis, keepdims=True),
                  lambda m, a: m.percentile(a, q, axis=axis, keepdims=True), x)
    ref = np.percentile(x, [20, 80], axis=1)
    out = cp.empty(ref.shape, ref.dtype)
    got = cp.percentile(cp.asarray(x), [20, 80], axis=1, out=out)
    assert got is out
    assert_allclose_np(out, ref)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("method", ["linear", "lower", "nearest", "hazen", "midpoint", "inverted_cdf"])
def test_nan_quantiles(dtype, method, rng):
    x = stat_data((6, 10), dtype, rng, nan=True)
    x[1] = np.nan
    x[4, :9] = np.nan  # one valid element
    for fn in ("quantile", "nanquantile"):
        for axis in (None, 0, 1):
            check(lambda m, a: getattr(m, fn)(a, [0.0, 0.4, 1.0], axis=axis, method=method),
                  lambda m, a: getattr(m, fn)(a, [0.0, 0.4, 1.0], axis=axis, method=method), x)
    check(lambda m, a: m.nanpercentile(a, 35, axis=1), lambda m, a: m.nanpercentile(a, 35, axis=1), x)
    check(lambda m, a: m.percentile(a, 35, axis=1), lambda m, a: m.percentile(a, 35, axis=1), x)


def test_infinities_and_integer_wrap():
    # NumPy's lerp: inf - inf is NaN between two infinities; integer differences wrap in the dtype.
    x = np.array([-np.inf, -np.inf, 1.0, np.inf, np.inf])
    for q in (0.1, 0.5, 0.9, 1.0):
        check(lambda m, a: m.quantile(a, q), lambda m, a: m.quantile(a, q), x)
    check(lambda m, a: m.median(a), lambda m, a: m.median(a), x)
    w = np.array([-100, 100], np.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda m, a: m.quantile(a, 0.5), lambda m, a: m.quantile(a, 0.5), w)


def test_long_rows_and_many_rows(rng):
    x = stat_data((3, 5000), np.float32, rng, nan=False)
    check(lambda m, a: m.median(a, axis=1), lambda m, a: m.median(a, axis=1), x)
    y = stat_data((20000, 3), np.float64, rng, nan=True)
    check(lambda m, a: m.nanmedian(a, axis=1), lambda m, a: m.nanmedian(a, axis=1), y)
    check(lambda m, a: m.quantile(a, [0.1, 0.5], axis=0), lambda m, a: m.quantile(a, [0.1, 0.5], axis=0), y)


def test_empty_and_errors(rng):
    x = stat_data((4, 5), np.float64, rng)
    cases = [
        lambda m, a: m.median(a[:0]), lambda m, a: m.median(a[:, :0], axis=1), lambda m, a: m.median(a[:0], axis=1),
        lambda m, a: m.quantile(a[:, :0], 0.5, axis=1), lambda m, a: m.quantile(a, 1.5),
        lambda m, a: m.quantile(a, [-0.1, 0.5]), lambda m, a: m.percentile(a, 101), lambda m, a: m.median(a, axis=2),
        lambda m, a: m.quantile(a, 0.5, axis=(0, 0)), lambda m, a: m.quantile(a, 0.5, method="bogus"),
        lambda m, a: m.quantile(a.astype(np.complex64) if m is np else a.astype(np.complex64), 0.5),
        lambda m, a: m.quantile(a > 0, 0.5), lambda m, a: m.quantile(a > 0, 0.5, method="lower"),
        lambda m, a: m.median(a[0, 0]),
    ]
    for call in cases:
        check(call, call, x)
