"""cuarray.linalg's decompositions against NumPy on random data: cholesky, qr, eigh/eigvalsh,
eig/eigvals, svd/svdvals. Every solver dtype, stacked input, Fortran-order, negative-stride and
stepped views, bool/integer input (computed in float64), size-0 stacks; exact result dtypes and
shapes; reconstructions (L @ L^H, Q @ R, A @ V = V diag(w), U @ diag(S) @ Vh) on well-, ill-
conditioned and rank-deficient matrices with tolerances scaled by the condition number; NumPy's
errors. Each SVD routine of the choice table is forced in turn."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuarray as cp

from helpers import expect_error
from linalg_inputs import (MATRIX_LAYOUTS, SOLVER_DTYPES, assert_close, hermitian, hermitian_positive_definite,
                           host, on_gpu, random_matrix, rank_deficient, real_dtype, tolerance)

pytestmark = pytest.mark.gpu

STACKS = [(), (3,), (2, 2)]


def _ct(x):
    return np.swapaxes(np.conj(x), -1, -2)


def _reconstruct_svd(u, s, vh):
    k = s.shape[-1]
    return (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]


# ---- cholesky --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_matches_numpy(dtype, stack, upper, rng):
    a = hermitian_positive_definite(stack + (6, 6), dtype, rng)
    for layout in MATRIX_LAYOUTS:
        got = cp.linalg.cholesky(on_gpu(a, layout), upper=upper)
        ref = np.linalg.cholesky(a, upper=upper)
        assert got.dtype == ref.dtype and got.shape == ref.shape and got.flags.c_contiguous
        assert_close(got, ref, tolerance(dtype, np.linalg.cond(a).max()))
        factor = host(got)
        product = _ct(factor) @ factor if upper else factor @ _ct(factor)
        assert_close(product, a, tolerance(dtype, 10))


def test_cholesky_reads_only_its_triangle(rng):
    a = hermitian_positive_definite((5, 5), np.float64, rng)
    garbage = a + np.triu(rng.standard_normal((5, 5)), 1)  # the strict upper triangle is never read
    assert_close(cp.linalg.cholesky(cp.asarray(garbage)), np.linalg.cholesky(garbage), 1e-12)
    garbage = a + np.tril(rng.standard_normal((5, 5)), -1)
    assert_close(cp.linalg.cholesky(cp.asarray(garbage), upper=True), np.linalg.cholesky(garbage, upper=True), 1e-12)


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.uint8])
def test_cholesky_integer_input_is_float64(dtype):
    a = np.array([[4, 2], [2, 3]]).astype(dtype) if dtype != np.bool_ else np.eye(2, dtype=bool)
    got = cp.linalg.cholesky(cp.asarray(a))
    ref = np.linalg.cholesky(a)
    assert got.dtype == ref.dtype == np.float64
    assert_close(got, ref, 1e-14)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 4, 4)])
def test_cholesky_size_zero(shape):
    got = cp.linalg.cholesky(cp.zeros(shape))
    assert got.shape == shape and got.dtype == np.float64


def test_cholesky_errors():
    expect_error(lambda: np.linalg.cholesky(-np.eye(3)), lambda: cp.linalg.cholesky(-cp.eye(3)),
                 "Matrix is not positive definite")
    stack = np.stack([np.eye(3), -np.eye(3)])
    expect_error(lambda: np.linalg.cholesky(stack), lambda: cp.linalg.cholesky(cp.asarray(stack)),
                 "Matrix is not positive definite")
    expect_error(lambda: np.linalg.cholesky(np.ones((2, 3))), lambda: cp.linalg.cholesky(cp.ones((2, 3))),
                 "Last 2 dimensions of the array must be square")
    expect_error(lambda: np.linalg.cholesky(np.ones(3)), lambda: cp.linalg.cholesky(cp.ones(3)),
                 "1-dimensional array given. Array must be at least two-dimensional")
    expect_error(lambda: np.linalg.cholesky(np.eye(2, dtype=np.float16)),
                 lambda: cp.linalg.cholesky(cp.eye(2, dtype=np.float16)), "array type float16 is unsupported in linalg")


def test_cholesky_without_error_checks_does_not_raise():
    cp.linalg.set_error_checks(False)
    try:
        got = host(cp.linalg.cholesky(-cp.eye(3)))
    finally:
        cp.linalg.set_error_checks(True)
    assert got.shape == (3, 3)


# ---- qr --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5), (3, 7, 4), (2, 2, 4, 7)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs_and_matches_numpy(dtype, shape, mode, rng):
    a = random_matrix(shape, dtype, rng)
    ref_q, ref_r = np.linalg.qr(a, mode=mode)
    for layout in MATRIX_LAYOUTS:
        q, r = cp.linalg.qr(on_gpu(a, layout), mode=mode)
        assert type(cp.linalg.qr(on_gpu(a, layout), mode=mode)).__name__ == "QRResult"
        for got, ref in ((q, ref_q), (r, ref_r)):
            assert got.dtype == ref.dtype and got.shape == ref.shape and got.flags.c_contiguous
        qh, rh = host(q), host(r)
        tol = tolerance(dtype, 10)
        assert_close(qh @ rh, a, tol)
        assert_close(_ct(qh) @ qh, np.broadcast_to(np.eye(qh.shape[-1]), qh.shape[:-2] + (qh.shape[-1],) * 2), tol)
        assert np.all(np.tril(rh, -1) == 0)
        # Householder QR is unique up to the signs LAPACK's convention fixes: cuSOLVER follows it.
        assert_close(np.abs(rh), np.abs(ref_r), tol)


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 3)])
def test_qr_r_and_raw(dtype, shape, rng):
    a = random_matrix(shape, dtype, rng)
    r = cp.linalg.qr(cp.asarray(a), mode="r")
    ref_r = np.linalg.qr(a, mode="r")
    assert r.dtype == ref_r.dtype and r.shape == ref_r.shape
    assert_close(np.abs(host(r)), np.abs(ref_r), tolerance(dtype, 10))
    h, tau = cp.linalg.qr(cp.asarray(a), mode="raw")
    ref_h, ref_tau = np.linalg.qr(a, mode="raw")
    assert h.shape == ref_h.shape and tau.shape == ref_tau.shape
    assert h.dtype == ref_h.dtype and tau.dtype == ref_tau.dtype
    # h holds R on and above its transposed diagonal.
    k = min(shape[-2:])
    assert_close(np.abs(np.triu(np.swapaxes(host(h), -1, -2))[..., :k, :]), np.abs(ref_r), tolerance(dtype, 10))
    # NumPy's deprecated modes: 'full' is 'reduced', 'economic' raw mode's h in C order; both warn.
    with pytest.warns(DeprecationWarning, match="'full' option is deprecated"):
        q, r = cp.linalg.qr(cp.asarray(a), mode="full")
    assert_close(host(q) @ host(r), a, tolerance(dtype, 10))
    with pytest.warns(DeprecationWarning, match="'economic' option is deprecated"):
        e = cp.linalg.qr(cp.asarray(a), mode="e")
    with pytest.warns(DeprecationWarning):
        ref_e = np.linalg.qr(a, mode="e")
    assert e.shape == ref_e.shape and e.dtype == ref_e.dtype and e.flags.c_contiguous
    assert_close(np.abs(np.triu(host(e))[..., :k, :]), np.abs(ref_r), tolerance(dtype, 10))


def test_qr_rank_deficient_reconstructs(rng):
    a = rank_deficient((8, 6), 3, np.float64, rng)
    q, r = cp.linalg.qr(cp.asarray(a))
    assert_close(host(q) @ host(r), a, 1e-12)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 3), (2, 0, 3), (2, 3, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
def test_qr_size_zero(shape, mode):
    got = cp.linalg.qr(cp.zeros(shape), mode=mode)
    ref = np.linalg.qr(np.zeros(shape), mode=mode)
    got = got if isinstance(got, tuple) else (got,)
    ref = ref if isinstance(ref, tuple) else (ref,)
    for g, r in zip(got, ref):
        assert g.shape == r.shape and g.dtype == r.dtype
        np.testing.assert_array_equal(host(g), r)


def test_qr_errors():
    expect_error(lambda: np.linalg.qr(np.ones(3)), lambda: cp.linalg.qr(cp.ones(3)),
                 "1-dimensional array given. Array must be at least two-dimensional")
    expect_error(lambda: np.linalg.qr(np.ones((2, 2), np.float16)), lambda: cp.linalg.qr(cp.ones((2, 2), np.float16)),
                 "array type float16 is unsupported in linalg")


# ---- eigh ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("stack", STACKS + [(40,)])
@pytest.mark.parametrize("uplo", ["L", "U", "u"])
def test_eigh_matches_numpy(dtype, stack, uplo, rng):
    a = hermitian(stack + (7, 7), dtype, rng)
    # The triangle eigh does not read holds garbage: NumPy ignores it too.
    noise = random_matrix(stack + (7, 7), dtype, rng)
    a = a + (np.triu(noise, 1) if uplo.upper() == "L" else np.tril(noise, -1))
    ref_w, ref_v = np.linalg.eigh(a, UPLO=uplo)
    spread = np.max(np.abs(ref_w)) / max(np.min(np.abs(np.diff(ref_w, axis=-1))), 1e-12)
    for layout in MATRIX_LAYOUTS:
        w, v = cp.linalg.eigh(on_gpu(a, layout), UPLO=uplo)
        assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
        assert w.shape == ref_w.shape and v.shape == ref_v.shape and v.flags.c_contiguous
        assert_close(w, ref_w, tolerance(dtype, 10))
        vh = host(v)
        used = np.tril(a) + _ct(np.tril(a, -1)) if uplo.upper() == "L" else np.triu(a) + _ct(np.triu(a, 1))
        assert_close(used @ vh, vh * ref_w[..., None, :], tolerance(dtype, 10), scale=np.max(np.abs(ref_w)))
        assert_close(_ct(vh) @ vh, np.broadcast_to(np.eye(7), vh.shape), tolerance(dtype, min(spread, 1e4)))
        assert_close(cp.linalg.eigvalsh(on_gpu(a, layout), UPLO=uplo), ref_w, tolerance(dtype, 10))


@pytest.mark.parametrize("routine", ["syevd", "syev_batched"])
@pytest.mark.parametrize("shape", [(10, 6, 6), (3, 256, 256)])  # up to the batched routine's table limit
def test_eigh_each_routine(routine, shape, rng):
    a = hermitian(shape, np.float64, rng)
    cp._core.linalg.force_routine("eigh", routine)
    try:
        w, v = cp.linalg.eigh(cp.asarray(a))
    finally:
        cp._core.linalg.force_routine("eigh", "")
    assert_close(w, np.linalg.eigvalsh(a), 1e-12)
    assert_close(a @ host(v), host(v) * host(w)[..., None, :], 1e-12, scale=np.abs(host(w)).max())


def test_eigh_integer_input_and_size_zero():
    a = np.array([[2, 1], [1, 2]], np.int16)
    w, v = cp.linalg.eigh(cp.asarray(a))
    assert w.dtype == np.float64 and v.dtype == np.float64
    assert_close(w, [1.0, 3.0], 1e-14)
    for shape in [(0, 0), (4, 0, 0)]:
        w, v = cp.linalg.eigh(cp.zeros(shape, np.complex64))
        ref_w, ref_v = np.linalg.eigh(np.zeros(shape, np.complex64))
        assert (w.shape, w.dtype, v.shape, v.dtype) == (ref_w.shape, ref_w.dtype, ref_v.shape, ref_v.dtype)


def test_eigh_errors():
    expect_error(lambda: np.linalg.eigh(np.ones((2, 3))), lambda: cp.linalg.eigh(cp.ones((2, 3))),
                 "Last 2 dimensions of the array must be square")
    expect_error(lambda: np.linalg.eigvalsh(np.ones(3)), lambda: cp.linalg.eigvalsh(cp.ones(3)),
                 "1-dimensional array given. Array must be at least two-dimensional")


# ---- eig -------------------------------------------------------------------------------------------

def _sorted(w):
    return np.sort_complex(np.asarray(w, dtype=np.complex128))


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("stack", [(), (3,)])
def test_eig_matches_numpy(dtype, stack, rng):
    a = random_matrix(stack + (6, 6), dtype, rng, cond=10)
    ref_w, ref_v = np.linalg.eig(a)
    for layout in MATRIX_LAYOUTS:
        w, v = cp.linalg.eig(on_gpu(a, layout))
        assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype, (w.dtype, ref_w.dtype)
        assert w.shape == ref_w.shape and v.shape == ref_v.shape
        wh, vh = host(w), host(v)
        for got, ref in zip(wh.reshape(-1, 6), ref_w.reshape(-1, 6)):
            assert_close(_sorted(got), _sorted(ref), tolerance(dtype, 1e3))
        scale = np.max(np.abs(ref_w))
        assert_close(a @ vh, vh * wh[..., None, :], tolerance(dtype, 1e3), scale=scale)
        assert_close(np.linalg.norm(vh, axis=-2), np.ones(wh.shape), tolerance(dtype, 10))
        values = host(cp.linalg.eigvals(on_gpu(a, layout)))
        assert values.dtype == ref_w.dtype and values.shape == ref_w.shape
        for got, ref in zip(values.reshape(-1, 6), ref_w.reshape(-1, 6)):
            assert_close(_sorted(got), _sorted(ref), tolerance(dtype, 1e3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_eig_real_results_when_every_eigenvalue_is_real(dtype, rng):
    s = random_matrix((5, 5), dtype, rng)
    a = (s + s.T).astype(dtype)  # symmetric: real spectrum
    w, v = cp.linalg.eig(cp.asarray(a))
    ref_w, ref_v = np.linalg.eig(a)
    # Real results before NumPy 2.5, complex ones from 2.5 on: the installed NumPy's dtypes either way.
    assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
    assert cp.linalg.eigvals(cp.asarray(a)).dtype == np.linalg.eigvals(a).dtype
    assert_close(np.sort(host(w).real), np.sort(ref_w.real), tolerance(dtype, 100))
    assert_close(host(cp.asarray(a) @ v), host(v) * host(w)[None, :], tolerance(dtype, 100))


def test_eig_complex_pairs_of_a_real_matrix():
    rotation = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    stack = np.stack([rotation, np.diag([1.0, 2.0, 3.0])])  # one matrix with a pair makes all complex
    w, v = cp.linalg.eig(cp.asarray(stack))
    ref_w, _ = np.linalg.eig(stack)
    assert w.dtype == ref_w.dtype == np.complex128 and v.dtype == np.complex128
    wh, vh = host(w), host(v)
    assert_close(_sorted(wh[0]), _sorted(ref_w[0]), 1e-12)
    assert_close(stack @ vh, vh * wh[..., None, :], 1e-12, scale=3.0)
    assert cp.linalg.eigvals(cp.asarray(stack)).dtype == np.complex128


def test_eig_integer_input_size_zero_and_errors():
    ints = np.array([[2, 0], [0, 3]], np.int32)
    w = cp.linalg.eigvals(cp.asarray(ints))
    assert w.dtype == np.linalg.eigvals(ints).dtype  # float64, or complex128 from NumPy 2.5 on
    assert_close(np.sort(host(w).real), [2.0, 3.0], 1e-14)
    w, v = cp.linalg.eig(cp.zeros((2, 0, 0)))
    ref_w, ref_v = np.linalg.eig(np.zeros((2, 0, 0)))
    assert (w.shape, w.dtype, v.shape, v.dtype) == (ref_w.shape, ref_w.dtype, ref_v.shape, ref_v.dtype)
    expect_error(lambda: np.linalg.eig(np.ones((2, 3))), lambda: cp.linalg.eig(cp.ones((2, 3))),
                 "Last 2 dimensions of the array must be square")


# ---- svd -------------------------------------------------------------------------------------------

SVD_ROUTINES = ["", "gesvd", "gesvdj", "gesvdp", "gesvdj_batched", "jacobi_small"]


@pytest.fixture(params=SVD_ROUTINES, ids=lambda r: r or "table")
def svd_routine(request):
    cp._core.linalg.force_routine("svd", request.param)
    yield request.param
    cp._core.linalg.force_routine("svd", "")


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (5, 5), (20, 6, 6), (2, 3, 9, 5), (3, 5, 9)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_reconstructs_and_matches_numpy(dtype, shape, full_matrices, svd_routine, rng):
    a = random_matrix(shape, dtype, rng, cond=100)
    ref_u, ref_s, ref_vh = np.linalg.svd(a, full_matrices=full_matrices)
    tol = tolerance(dtype, 100)
    for layout in MATRIX_LAYOUTS:
        result = cp.linalg.svd(on_gpu(a, layout), full_matrices=full_matrices)
        assert type(result).__name__ == "SVDResult"
        u, s, vh = result
        for got, ref in ((u, ref_u), (s, ref_s), (vh, ref_vh)):
            assert got.dtype == ref.dtype and got.shape == ref.shape and got.flags.c_contiguous
        uh, sh, vhh = host(u), host(s), host(vh)
        assert_close(sh, ref_s, tol)
        assert_close(_reconstruct_svd(uh, sh, vhh), a, tol)
        m, n = shape[-2:]
        assert_close(_ct(uh) @ uh, np.broadcast_to(np.eye(uh.shape[-1]), uh.shape[:-2] + (uh.shape[-1],) * 2), tol)
        assert_close(vhh @ _ct(vhh), np.broadcast_to(np.eye(vhh.shape[-2]), vhh.shape[:-2] + (vhh.shape[-2],) * 2), tol)
        assert_close(cp.linalg.svd(on_gpu(a, layout), compute_uv=False), ref_s, tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("cond", [1e3, 1e6])
def test_svd_ill_conditioned_and_rank_deficient(dtype, cond, svd_routine, rng):
    if np.dtype(dtype) in (np.float32,) and cond > 1e4:
        cond = 1e4
    a = random_matrix((12, 9), dtype, rng, cond=cond)
    u, s, vh = (host(x) for x in cp.linalg.svd(cp.asarray(a), full_matrices=False))
    eps = np.finfo(real_dtype(dtype)).eps
    assert_close(_reconstruct_svd(u, s, vh), a, 200 * eps)
    assert_close(s, np.linalg.svd(a, compute_uv=False), 200 * eps)
    b = rank_deficient((10, 8), 4, dtype, rng)
    u, s, vh = (host(x) for x in cp.linalg.svd(cp.asarray(b)))
    assert_close(_reconstruct_svd(u, s, vh), b, 200 * eps)
    assert np.all(s[4:] <= 100 * eps * s[0])


def _assert_svd_of(a, u, s, vh, tol):
    """s matches NumPy's, U and Vh have orthonormal columns/rows (completed ones included), and
    U diag(s) Vh gives a back."""
    uh, sh, vhh = host(u), host(s), host(vh)
    assert_close(sh, np.linalg.svd(a, compute_uv=False), tol)
    assert np.all(sh[..., :-1] >= sh[..., 1:])
    assert_close(_ct(uh) @ uh, np.broadcast_to(np.eye(uh.shape[-1]), uh.shape[:-2] + (uh.shape[-1],) * 2), tol)
    assert_close(vhh @ _ct(vhh), np.broadcast_to(np.eye(vhh.shape[-2]), vhh.shape[:-2] + (vhh.shape[-2],) * 2), tol)
    assert_close(_reconstruct_svd(uh, sh, vhh), a, tol, scale=float(np.abs(a).max()) or 1.0)


# The batched Jacobi kernel's own cases: the largest matrices it takes (64 x 64 complex128 needs
# 128 KB of shared memory; 64 x 32 complex128 exactly 48 KB besides the static arrays), tall and
# wide with one side at its limit, odd column counts (a column plays against a missing one),
# rank-deficient and zero matrices (U is completed to an orthonormal basis, nothing divides by
# zero), each with the kernel forced and with the table's choice.
@pytest.mark.parametrize("routine", ["jacobi_small", ""])
@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("shape", [(5, 64, 64), (3, 64, 32), (3, 64, 17), (3, 17, 64), (2, 64, 1), (1, 64),
                                   (4, 33, 33), (1, 1), (40, 3, 2)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_small_jacobi_shapes(routine, dtype, shape, full_matrices, rng):
    a = random_matrix(shape, dtype, rng, cond=100)
    cp._core.linalg.force_routine("svd", routine)
    try:
        ref_u, ref_s, ref_vh = np.linalg.svd(a, full_matrices=full_matrices)
        for layout in ("c", "negative"):
            u, s, vh = cp.linalg.svd(on_gpu(a, layout), full_matrices=full_matrices)
            for got, ref in ((u, ref_u), (s, ref_s), (vh, ref_vh)):
                assert got.dtype == ref.dtype and got.shape == ref.shape
            _assert_svd_of(a, u, s, vh, tolerance(dtype, 100))
    finally:
        cp._core.linalg.force_routine("svd", "")


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("shape, rank", [((6, 64, 64), 7), ((4, 40, 12), 5), ((4, 12, 40), 1), ((3, 9, 9), 0)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_small_jacobi_rank_deficient_and_zero(dtype, shape, rank, full_matrices, rng):
    a = rank_deficient(shape, rank, dtype, rng) if rank else np.zeros(shape, dtype)
    a[0] = 0  # a zero matrix inside a stack of nonzero ones
    cp._core.linalg.force_routine("svd", "jacobi_small")
    try:
        u, s, vh = cp.linalg.svd(cp.asarray(a), full_matrices=full_matrices)
        sh = host(s)
        assert np.all(np.isfinite(host(u))) and np.all(np.isfinite(host(vh)))
        assert np.all(sh[0] == 0)
        eps = np.finfo(real_dtype(dtype)).eps
        assert np.all(sh[..., rank:] <= 100 * eps * sh.max())
        _assert_svd_of(a, u, s, vh, tolerance(dtype, 10))
        assert_close(cp.linalg.svd(cp.asarray(a), compute_uv=False), np.linalg.svd(a, compute_uv=False),
                     tolerance(dtype, 10), scale=float(sh.max()) or 1.0)
    finally:
        cp._core.linalg.force_routine("svd", "")


def test_svd_small_jacobi_columns_at_round_off_are_completed():
    """Hypothesis's case (a GPU run): a rank-1 26 x 27 float32 matrix. The kernel works on its
    transpose, whose 25 columns past the first end at round-off norms; normalized, they made Vh's
    rows orthogonal only to 1.5e-2. Columns at the largest norm's round-off count as zero now."""
    a = rank_deficient((26, 27), 1, np.float32, np.random.default_rng(0))
    cp._core.linalg.force_routine("svd", "jacobi_small")
    try:
        for full_matrices in (False, True):
            u, s, vh = cp.linalg.svd(cp.asarray(a), full_matrices=full_matrices)
            _assert_svd_of(a, u, s, vh, tolerance(np.float32, 10))
    finally:
        cp._core.linalg.force_routine("svd", "")


@given(st.data())
@settings(max_examples=40, deadline=None)
def test_svd_small_jacobi_property(data):
    """Any stack of matrices up to 64 x 64, any solver dtype, random rank and scale (tiny and huge
    entries: the kernel scales by a power of two first): the kernel's factors are an SVD."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    batch = tuple(data.draw(st.lists(st.integers(1, 3), max_size=2)))
    m, n = data.draw(st.integers(1, 64)), data.draw(st.integers(1, 64))
    dtype = data.draw(st.sampled_from(SOLVER_DTYPES))
    rank = data.draw(st.integers(0, min(m, n)))
    exponent = data.draw(st.sampled_from([0, -30, 30]))
    a = (rank_deficient(batch + (m, n), rank, dtype, rng) if rank else np.zeros(batch + (m, n), dtype))
    a = (a * np.float64(2.0) ** exponent).astype(dtype)
    full_matrices = data.draw(st.booleans())
    cp._core.linalg.force_routine("svd", "jacobi_small")
    try:
        u, s, vh = cp.linalg.svd(cp.asarray(a), full_matrices=full_matrices)
    finally:
        cp._core.linalg.force_routine("svd", "")
    ref_u, ref_s, ref_vh = np.linalg.svd(a, full_matrices=full_matrices)
    assert (u.shape, s.shape, vh.shape) == (ref_u.shape, ref_s.shape, ref_vh.shape)
    assert (u.dtype, s.dtype, vh.dtype) == (ref_u.dtype, ref_s.dtype, ref_vh.dtype)
    _assert_svd_of(a, u, s, vh, tolerance(dtype, 100))


def test_svd_small_jacobi_non_finite_input_goes_to_gesvd():
    # The kernel reports a matrix with NaN as failed, so gesvd decides what happens to it (NumPy
    # raises "SVD did not converge"): forcing the kernel ends as forcing gesvd does.
    a = np.ones((3, 4, 4))
    a[1, 2, 2] = np.nan

    def outcome(routine):
        cp._core.linalg.force_routine("svd", routine)
        try:
            return "values", np.isnan(host(cp.linalg.svd(cp.asarray(a), compute_uv=False))).tolist()
        except np.linalg.LinAlgError as e:
            return "error", str(e)
        finally:
            cp._core.linalg.force_routine("svd", "")

    assert outcome("jacobi_small") == outcome("gesvd")


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("stack", [(), (3,)])
def test_svd_hermitian(dtype, stack, rng):
    a = hermitian(stack + (6, 6), dtype, rng)
    ref_u, ref_s, ref_vh = np.linalg.svd(a, hermitian=True)
    u, s, vh = cp.linalg.svd(cp.asarray(a), hermitian=True)
    assert (u.dtype, s.dtype, vh.dtype) == (ref_u.dtype, ref_s.dtype, ref_vh.dtype)
    assert_close(s, ref_s, tolerance(dtype, 10))
    assert_close(_reconstruct_svd(host(u), host(s), host(vh)), a, tolerance(dtype, 10))
    got = cp.linalg.svd(cp.asarray(a), compute_uv=False, hermitian=True)
    assert got.dtype == ref_s.dtype
    assert_close(got, ref_s, tolerance(dtype, 10))


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 3), (2, 0, 3), (2, 3, 0), (0, 4, 4)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_size_zero(shape, full_matrices):
    got = cp.linalg.svd(cp.zeros(shape, np.complex64), full_matrices=full_matrices)
    ref = np.linalg.svd(np.zeros(shape, np.complex64), full_matrices=full_matrices)
    for g, r in zip(got, ref):
        assert g.shape == r.shape and g.dtype == r.dtype
        np.testing.assert_array_equal(host(g), r)


@pytest.mark.parametrize("dtype", [np.int64, np.bool_, np.uint16])
def test_svdvals_integer_input(dtype, rng):
    a = rng.integers(0, 3, (4, 6)).astype(dtype)
    got = cp.linalg.svdvals(cp.asarray(a))
    ref = np.linalg.svdvals(a)
    assert got.dtype == ref.dtype == np.float64
    assert_close(got, ref, 1e-13)


def test_svd_errors():
    expect_error(lambda: np.linalg.svd(np.ones(3)), lambda: cp.linalg.svd(cp.ones(3)),
                 "1-dimensional array given. Array must be at least two-dimensional")
    expect_error(lambda: np.linalg.svd(np.ones((3, 3), np.float16)), lambda: cp.linalg.svd(cp.ones((3, 3), np.float16)),
                 "array type float16 is unsupported in linalg")
    expect_error(lambda: np.linalg.svd(np.ones((2, 3)), hermitian=True),
                 lambda: cp.linalg.svd(cp.ones((2, 3)), hermitian=True), "Last 2 dimensions of the array must be square")


# ---- NumPy dispatch ----------------------------------------------------------------------------------

def test_numpy_functions_dispatch_to_the_gpu(rng):
    a = random_matrix((5, 5), np.float64, rng)
    g = cp.asarray(a)
    for name, args in (("svd", ()), ("qr", ()), ("eigh", ()), ("eig", ()), ("cholesky", ()), ("svdvals", ())):
        x = hermitian_positive_definite((5, 5), np.float64, rng) if name in ("eigh", "cholesky") else a
        out = getattr(np.linalg, name)(cp.asarray(x), *args)
        parts = out if isinstance(out, tuple) else (out,)
        assert all(isinstance(p, cp.ndarray) for p in parts), name
    assert isinstance(np.linalg.svd(g, compute_uv=False), cp.ndarray)
