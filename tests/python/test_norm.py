"""cuarray.linalg.norm against numpy.linalg.norm: the fused 2-norm/Frobenius pass and the other
vector and matrix orders, every axis form, keepdims, every dtype (ints compute in float64), and
NumPy's errors for bad orders and axes."""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, check_like_numpy, random_array

pytestmark = pytest.mark.gpu

VECTOR_ORDS = [None, 2, 1, 0, np.inf, -np.inf, 3, 0.5, -1]
MATRIX_ORDS = [None, "fro", 1, -1, np.inf, -np.inf]


def _compare(host):
    rtol = {np.float16: 2e-3, np.float32: 2e-5, np.complex64: 2e-5}.get(host.dtype.type, 1e-12)

    def compare(got, ref):
        ref = np.asarray(ref)
        got = cp.asnumpy(got)
        assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
        assert got.shape == ref.shape, (got.shape, ref.shape)
        np.testing.assert_allclose(got, ref, rtol=rtol, equal_nan=True)
    return compare


def _check(host, **kwargs):
    with np.errstate(all="ignore"):
        check_like_numpy(lambda: np.linalg.norm(host, **kwargs),
                         lambda: cp.linalg.norm(cp.asarray(host), **kwargs), _compare(host))


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if np.dtype(d) != np.float16])
def test_vector_norms(dtype, rng):
    host = random_array((5, 7), dtype, rng)
    for ord in VECTOR_ORDS:
        for axis in (0, 1, -1, (1,)):
            for keepdims in (False, True):
                _check(host, ord=ord, axis=axis, keepdims=keepdims)
    _check(host[:, ::2], ord=None, axis=1)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if np.dtype(d) != np.float16])
def test_matrix_and_full_norms(dtype, rng):
    host = random_array((4, 6), dtype, rng)
    for ord in MATRIX_ORDS:
        for axis in (None, (0, 1), (1, 0), (-1, 0)):
            for keepdims in (False, True):
                _check(host, ord=ord, axis=axis, keepdims=keepdims)
    stack = random_array((3, 4, 5), dtype, rng)
    _check(stack)  # a full 2-norm of any rank
    _check(stack, axis=(0, 2), ord="fro")
    _check(stack, axis=(2, 1), ord=1)
    _check(stack.transpose(2, 0, 1), keepdims=True)


def test_errors(rng):
    host = random_array((3, 4), np.float64, rng)
    _check(host, ord="fro", axis=0)           # ValueError: 'fro' is not a vector norm
    _check(host, ord=3, axis=(0, 1))          # ValueError: invalid matrix order
    _check(host, axis=(0, 0))                 # ValueError: duplicate axes
    _check(host, axis=2)                      # AxisError
    _check(host, axis=(0, 1, 1))              # ValueError
    _check(random_array((2, 3, 4), np.float64, np.random.default_rng(0)), ord=1)  # improper dims


def test_long_vector_is_accurate(rng):
    host = rng.standard_normal(3_000_001)
    got = float(cp.linalg.norm(cp.asarray(host)))
    assert abs(got - np.linalg.norm(host)) <= 1e-12 * np.linalg.norm(host)
