"""numpy.emath (cuarray.emath, cuarray.lib.scimath) against NumPy on random data: each function on
inputs that stay real and on inputs that send it to the complex domain, across dtypes (NumPy's
complex64 for float32 and the small integers, complex128 otherwise), with NumPy's result dtypes."""
import numpy as np
import pytest

import cuarray as cp
from helpers import assert_allclose_np, random_array

DTYPES = [np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32, np.float64, np.complex64]


def test_emath_is_numpys_scimath():
    assert cp.emath is cp.lib.scimath
    public = sorted(n for n in dir(np.emath) if not n.startswith("_"))
    assert sorted(cp.emath.__all__) == public


def _check(got, want, dtype):
    want = np.asarray(want)
    tol = 1e-2 if np.dtype(dtype) == np.float16 else (2e-6 if want.dtype in (np.float32, np.complex64) else 1e-12)
    assert_allclose_np(got, want, rtol=tol, atol=tol * 1e-3)


def _inputs(dtype, rng, low, high):
    """Two inputs: one inside [0, high] (the function stays real), one across [low, high]."""
    kind = np.dtype(dtype).kind
    inside = random_array((7, 9), dtype, rng, low=0 if kind != "c" else 0.1, high=high)
    across = random_array((7, 9), dtype, rng, low=low if kind != "u" else 0, high=high)
    return inside, across


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10"])
def test_logs_and_sqrt_go_complex_for_negative_input(name, dtype, rng):
    for host in _inputs(dtype, rng, -50, 50):
        host = np.where(host == 0, host.dtype.type(3), host)  # log(0) is -inf in both, but warns
        _check(getattr(cp.emath, name)(cp.asarray(host)), getattr(np.emath, name)(host), dtype)
        _check(getattr(cp.emath, name)(cp.asarray(host)[::-2, 1::3]), getattr(np.emath, name)(host[::-2, 1::3]), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("name", ["arccos", "arcsin", "arctanh"])
def test_inverse_trig_go_complex_past_one(name, dtype, rng):
    inside = random_array((6, 5), dtype, rng, low=-0.9, high=0.9)
    across = random_array((6, 5), dtype, rng, low=-3, high=3)
    across = np.where(np.abs(across) == 1, across.dtype.type(2), across)  # arctanh(+-1) is infinite
    for host in (inside, across):
        _check(getattr(cp.emath, name)(cp.asarray(host)), getattr(np.emath, name)(host), dtype)


@pytest.mark.gpu
def test_logn_and_power(rng):
    x = random_array((40,), np.float64, rng, low=-20, high=20)
    x = np.where(x == 0, 5.0, x)
    for base in (2, 10.0, -3, np.array([2.0, -2.0] * 20)):
        _check(cp.emath.logn(base if np.isscalar(base) else cp.asarray(base), cp.asarray(x)), np.emath.logn(base, x),
               np.float64)
    ints = random_array((30,), np.int32, rng, low=-6, high=6)
    for p in (2, 3, -2, np.arange(30) % 5 - 2):
        got = cp.emath.power(cp.asarray(ints), p if np.isscalar(p) else cp.asarray(p))
        _check(got, np.emath.power(ints, p), np.float64)
    positive = np.abs(ints) + 1
    _check(cp.emath.power(cp.asarray(positive), 2), np.emath.power(positive, 2), np.int32)  # stays integer
    _check(cp.emath.power(cp.asarray(x.astype(np.float32)), 0.5), np.emath.power(x.astype(np.float32), 0.5),
           np.float32)


@pytest.mark.gpu
def test_scalars_and_special_values():
    _check(cp.emath.sqrt(-4), np.emath.sqrt(-4), np.float64)
    _check(cp.emath.log(-1.0), np.emath.log(-1.0), np.float64)
    host = np.array([np.nan, np.inf, -0.0, 4.0])  # neither NaN nor -0.0 is negative: the result stays real
    _check(cp.emath.sqrt(cp.asarray(host)), np.emath.sqrt(host), np.float64)
    finite = np.array([-0.0, 4.0, -9.0, 0.25])  # now complex
    _check(cp.emath.sqrt(cp.asarray(finite)), np.emath.sqrt(finite), np.float64)
    empty = np.zeros((0, 3), np.float32)
    _check(cp.emath.sqrt(cp.asarray(empty)), np.emath.sqrt(empty), np.float32)
