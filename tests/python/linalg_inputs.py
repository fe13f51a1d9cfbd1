"""Random matrices for the linear-algebra tests: every solver dtype, conditioned as asked, laid out
as C, Fortran, negative-stride and stepped views, and tolerances scaled by condition number."""
import numpy as np

import cuarray as cp

SOLVER_DTYPES = [np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128)]
MATRIX_LAYOUTS = ("c", "f", "negative", "stepped")


def random_matrix(shape, dtype, rng, cond=None):
    """Random (..., M, N) of `dtype`; with `cond`, its singular values spread from 1 to 1/cond."""
    dtype = np.dtype(dtype)
    a = rng.standard_normal(shape)
    if dtype.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if cond is not None:
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        k = min(shape[-2:])
        s = np.geomspace(1.0, 1.0 / cond, k) if k > 1 else np.ones(k)
        a = (u * s[..., None, :]) @ vh
    return a.astype(dtype)


def hermitian_positive_definite(shape, dtype, rng):
    """Random Hermitian positive-definite (..., N, N)."""
    b = random_matrix(shape, np.complex128 if np.dtype(dtype).kind == "c" else np.float64, rng)
    n = shape[-1]
    return (b @ np.swapaxes(b.conj(), -1, -2) + n * np.eye(n)).astype(dtype)


def hermitian(shape, dtype, rng):
    b = random_matrix(shape, dtype, rng)
    return ((b + np.swapaxes(b.conj(), -1, -2)) / 2).astype(dtype)


def rank_deficient(shape, rank, dtype, rng):
    """Random (..., M, N) of exactly `rank`."""
    left = random_matrix(shape[:-1] + (rank,), np.float64, rng)
    right = random_matrix(shape[:-2] + (rank, shape[-1]), np.float64, rng)
    return (left @ right).astype(dtype)


def on_gpu(host, layout):
    """A cuarray view equal to `host` in the given layout of its last two axes."""
    if layout == "c":
        return cp.asarray(host)
    if layout == "f":
        return cp.asarray(np.ascontiguousarray(np.swapaxes(host, -1, -2))).swapaxes(-1, -2)
    if layout == "negative":
        return cp.asarray(np.ascontiguousarray(host[..., ::-1, ::-1]))[..., ::-1, ::-1]
    if layout == "stepped":
        big = np.zeros(host.shape[:-2] + (2 * host.shape[-2] + 1, 2 * host.shape[-1] + 1), host.dtype)
        big[..., 1::2, 1::2] = host
        return cp.asarray(big)[..., 1::2, 1::2]
    raise ValueError(layout)


def tolerance(dtype, cond=1.0):
    """Relative tolerance for a result computed in `dtype` from data of condition number `cond`."""
    eps = np.finfo(np.dtype(dtype)).eps
    return 50 * eps * max(1.0, cond) * 10


def real_dtype(dtype):
    return np.empty(0, dtype).real.dtype


def host(x):
    got = cp.asnumpy(x)
    return got


def assert_close(got, expected, rtol, scale=None):
    """|got - expected| <= rtol * scale elementwise, scale defaulting to max|expected| (a norm-wise
    check, as factorizations are accurate norm-wise)."""
    got = host(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.size == 0:
        return
    scale = np.max(np.abs(expected)) if scale is None else scale
    assert np.max(np.abs(got - expected)) <= rtol * max(scale, 1e-300), (np.max(np.abs(got - expected)), rtol * scale)
