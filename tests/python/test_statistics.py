"""average (weights, returned, keepdims, axis tuples), trace and diagonal against NumPy: dtypes,
offsets past the edges, non-contiguous inputs, and NumPy's errors."""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, assert_array_equal_np, check_like_numpy, random_array

pytestmark = pytest.mark.gpu


def _close(host):
    # float16: NumPy sums in float16 (rounding each pairwise step), cuarray in float32.
    rtol = {np.float16: 8e-3, np.float32: 2e-5, np.complex64: 2e-5}.get(host.dtype.type, 1e-12)

    def compare(got, ref):
        if isinstance(ref, tuple):
            assert isinstance(got, tuple) and len(got) == len(ref)
            for g, r in zip(got, ref):
                compare(g, r)
            return
        got, ref = cp.asnumpy(got), np.asarray(ref)
        assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
        np.testing.assert_allclose(got, ref, rtol=rtol, equal_nan=True)
    return compare


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_diagonal_and_trace(dtype, rng):
    host = random_array((4, 6, 5), dtype, rng)
    g = cp.asarray(host)
    compare = _close(host) if host.dtype.kind in "fc" else assert_array_equal_np
    for offset in (0, 1, -2, 5, -7):
        for axes in ((0, 1), (1, 2), (2, 0), (-1, -2)):
            assert_array_equal_np(cp.diagonal(g, offset, *axes), np.diagonal(host, offset, *axes))
            assert_array_equal_np(g.diagonal(offset, *axes), host.diagonal(offset, *axes))
            check_like_numpy(lambda: np.trace(host, offset, *axes), lambda: cp.trace(g, offset, *axes), compare)
    # The diagonal is a view: writes through it land in the base array.
    m = cp.zeros((3, 3))
    m.diagonal()[...] = 1  # NumPy's diagonal is read-only; cuarray's writable view is CuPy's
    assert_array_equal_np(m, np.eye(3))
    compare(cp.trace(g[:, ::2, ::-1]), np.trace(host[:, ::2, ::-1]))


def test_diagonal_errors(rng):
    host = random_array((3, 4), np.float32, rng)
    check_like_numpy(lambda: np.diagonal(host, 0, 0, 0), lambda: cp.diagonal(cp.asarray(host), 0, 0, 0))
    check_like_numpy(lambda: np.diagonal(host, 0, 0, 2), lambda: cp.diagonal(cp.asarray(host), 0, 0, 2))
    check_like_numpy(lambda: np.diagonal(host[0]), lambda: cp.diagonal(cp.asarray(host[0])))


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float16, np.float32, np.float64, np.complex64])
def test_average(dtype, rng):
    host = random_array((3, 4, 5), dtype, rng)
    g = cp.asarray(host)
    for axis in (None, 0, 2, (0, 2), (-1, 1)):
        for keepdims in (False, True):
            for returned in (False, True):
                check_like_numpy(lambda: np.average(host, axis, returned=returned, keepdims=keepdims),
                                 lambda: cp.average(g, axis, returned=returned, keepdims=keepdims), _close(host))
    weights = rng.random((3, 4, 5))
    for axis in (None, 1, (0, 2)):
        check_like_numpy(lambda: np.average(host, axis, weights, returned=True),
                         lambda: cp.average(g, axis, cp.asarray(weights), returned=True), _close(host))
    w1 = rng.integers(1, 5, 4)
    check_like_numpy(lambda: np.average(host, 1, w1, returned=True),
                     lambda: cp.average(g, 1, cp.asarray(w1), returned=True), _close(host))
    w2 = rng.random((5, 3))
    check_like_numpy(lambda: np.average(host, (2, 0), w2), lambda: cp.average(g, (2, 0), cp.asarray(w2)),
                     _close(host))


def test_average_errors(rng):
    host = random_array((3, 4), np.float64, rng)
    g = cp.asarray(host)
    cases = [
        (dict(weights=np.ones(4)), "TypeError: no axis"),
        (dict(axis=1, weights=np.ones(3)), "ValueError: wrong length"),
        (dict(axis=1, weights=np.zeros(4)), "ZeroDivisionError"),
        (dict(axis=2), "AxisError"),
        (dict(axis=(1, 1)), "ValueError: repeated"),
    ]
    for kwargs, _ in cases:
        gpu_kwargs = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        check_like_numpy(lambda: np.average(host, **kwargs), lambda: cp.average(g, **gpu_kwargs))
