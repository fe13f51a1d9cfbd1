"""cuarray.linalg's solvers against NumPy on random data: inv, solve (NumPy 2's b rule and batch
broadcasting), det, slogdet, lstsq, pinv, matrix_rank, cond, norm's singular-value orders,
matrix_norm, vector_norm, tensorinv, tensorsolve. Every solver dtype, stacked input, Fortran-order,
negative-stride and stepped views, integer input, size-0 stacks, exact result dtypes, tolerances
scaled by the condition number, NumPy's errors, and the switch that skips the status checks."""
import numpy as np
import pytest

import cuarray as cp

from helpers import expect_error
from linalg_inputs import (MATRIX_LAYOUTS, SOLVER_DTYPES, assert_close, hermitian, host, on_gpu, random_matrix,
                           rank_deficient, real_dtype, tolerance)

pytestmark = pytest.mark.gpu

STACKS = [(), (3,), (2, 2)]


# ---- inv -------------------------------------------------------------------------------------------

@pytest.fixture(params=["", "getrf", "getrf_batched"], ids=lambda r: r or "table")
def lu_routine(request):
    cp._core.linalg.force_routine("lu", request.param)
    yield request.param
    cp._core.linalg.force_routine("lu", "")


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("stack", STACKS + [(50,)])
def test_inv_matches_numpy(dtype, stack, lu_routine, rng):
    a = random_matrix(stack + (6, 6), dtype, rng, cond=100)
    ref = np.linalg.inv(a)
    for layout in MATRIX_LAYOUTS:
        got = cp.linalg.inv(on_gpu(a, layout))
        assert got.dtype == ref.dtype and got.shape == ref.shape and got.flags.c_contiguous
        assert_close(got, ref, tolerance(dtype, 100))
        assert_close(a @ host(got), np.broadcast_to(np.eye(6), a.shape), tolerance(dtype, 100))


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.bool_])
def test_inv_integer_input_is_float64(dtype):
    a = np.array([[2, 1], [1, 1]]).astype(dtype) if dtype != np.bool_ else np.eye(2, dtype=bool)
    got = cp.linalg.inv(cp.asarray(a))
    assert got.dtype == np.float64
    assert_close(got, np.linalg.inv(a), 1e-14)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 2, 2)])
def test_inv_size_zero(shape):
    got = cp.linalg.inv(cp.zeros(shape, np.float32))
    ref = np.linalg.inv(np.zeros(shape, np.float32))
    assert got.shape == ref.shape and got.dtype == ref.dtype


def test_inv_errors(lu_routine):
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    expect_error(lambda: np.linalg.inv(singular), lambda: cp.linalg.inv(cp.asarray(singular)), "Singular matrix")
    stack = np.stack([np.eye(2), singular])
    expect_error(lambda: np.linalg.inv(stack), lambda: cp.linalg.inv(cp.asarray(stack)), "Singular matrix")
    expect_error(lambda: np.linalg.inv(np.ones((2, 3))), lambda: cp.linalg.inv(cp.ones((2, 3))),
                 "Last 2 dimensions of the array must be square")
    expect_error(lambda: np.linalg.inv(np.ones(3)), lambda: cp.linalg.inv(cp.ones(3)),
                 "1-dimensional array given. Array must be at least two-dimensional")
    expect_error(lambda: np.linalg.inv(np.eye(2, dtype=np.float16)), lambda: cp.linalg.inv(cp.eye(2, dtype=np.float16)),
                 "array type float16 is unsupported in linalg")


def test_inv_without_error_checks_returns_non_finite():
    cp.linalg.set_error_checks(False)
    try:
        got = host(cp.linalg.inv(cp.asarray([[1.0, 2.0], [2.0, 4.0]])))
    finally:
        cp.linalg.set_error_checks(True)
    assert not np.all(np.isfinite(got))
    with pytest.raises(np.linalg.LinAlgError):
        cp.linalg.inv(cp.asarray([[1.0, 2.0], [2.0, 4.0]]))


# ---- solve -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("a_stack, b_shape", [((), (6,)), ((), (6, 3)), ((4,), (6,)), ((4,), (4, 6, 2)),
                                               ((4,), (6, 2)), ((2, 1), (3, 6, 2)), ((), (5, 6, 1))])
def test_solve_matches_numpy(dtype, a_stack, b_shape, lu_routine, rng):
    a = random_matrix(a_stack + (6, 6), dtype, rng, cond=100)
    b = random_matrix(b_shape, dtype, rng) if len(b_shape) > 1 else random_matrix((1,) + b_shape, dtype, rng)[0]
    ref = np.linalg.solve(a, b)
    for layout in MATRIX_LAYOUTS:
        gb = on_gpu(b, layout) if b.ndim >= 2 else cp.asarray(b[::-1].copy())[::-1]
        got = cp.linalg.solve(on_gpu(a, layout), gb)
        assert got.dtype == ref.dtype and got.shape == ref.shape and got.flags.c_contiguous
        assert_close(got, ref, tolerance(dtype, 100))


def test_solve_promotes_like_numpy(rng):
    a = random_matrix((4, 4), np.float32, rng)
    for b_dtype in (np.int8, np.float64, np.complex64):
        b = rng.integers(-3, 3, 4).astype(b_dtype)
        ref = np.linalg.solve(a, b)
        got = cp.linalg.solve(cp.asarray(a), cp.asarray(b))
        assert got.dtype == ref.dtype
        assert_close(got, ref, tolerance(np.float32, 1e3))


def test_solve_size_zero():
    for a_shape, b_shape in [((0, 0), (0,)), ((0, 0), (0, 3)), ((3, 0, 0), (3, 0, 2)), ((2, 2), (2, 0))]:
        got = cp.linalg.solve(cp.zeros(a_shape) + (cp.eye(a_shape[-1]) if a_shape[-1] else 0), cp.zeros(b_shape))
        ref = np.linalg.solve(np.zeros(a_shape) + np.eye(a_shape[-1]), np.zeros(b_shape))
        assert got.shape == ref.shape and got.dtype == ref.dtype


def test_solve_errors(lu_routine):
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    expect_error(lambda: np.linalg.solve(singular, np.ones(2)),
                 lambda: cp.linalg.solve(cp.asarray(singular), cp.ones(2)), "Singular matrix")
    expect_error(lambda: np.linalg.solve(np.eye(3), np.ones(2)), lambda: cp.linalg.solve(cp.eye(3), cp.ones(2)),
                 "solve1: Input operand 1 has a mismatch in its core dimension 0")
    expect_error(lambda: np.linalg.solve(np.eye(3), np.ones((2, 4))), lambda: cp.linalg.solve(cp.eye(3), cp.ones((2, 4))),
                 "solve: Input operand 1 has a mismatch in its core dimension 0")
    # NumPy 2: a 2-D b is a matrix, never a stack of vectors.
    expect_error(lambda: np.linalg.solve(np.ones((2, 3, 3)), np.ones((2, 3))),
                 lambda: cp.linalg.solve(cp.ones((2, 3, 3)), cp.ones((2, 3))))
    expect_error(lambda: np.linalg.solve(np.ones((2, 3, 3)), np.ones((4, 3, 1))),
                 lambda: cp.linalg.solve(cp.ones((2, 3, 3)), cp.ones((4, 3, 1))))
    expect_error(lambda: np.linalg.solve(np.ones((2, 3)), np.ones(2)), lambda: cp.linalg.solve(cp.ones((2, 3)), cp.ones(2)),
                 "Last 2 dimensions of the array must be square")


# ---- det, slogdet ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("stack", STACKS)
def test_det_and_slogdet_match_numpy(dtype, stack, lu_routine, rng):
    a = random_matrix(stack + (7, 7), dtype, rng, cond=10)
    ref_det = np.linalg.det(a)
    ref_sign, ref_log = np.linalg.slogdet(a)
    for layout in MATRIX_LAYOUTS:
        d = cp.linalg.det(on_gpu(a, layout))
        assert d.dtype == ref_det.dtype and d.shape == np.shape(ref_det)
        assert_close(d, ref_det, tolerance(dtype, 10), scale=np.max(np.abs(ref_det)))
        result = cp.linalg.slogdet(on_gpu(a, layout))
        assert type(result).__name__ == "SlogdetResult"
        sign, log = result
        assert sign.dtype == np.asarray(ref_sign).dtype and log.dtype == np.asarray(ref_log).dtype
        assert sign.shape == np.shape(ref_sign) and log.shape == np.shape(ref_log)
        assert_close(sign, ref_sign, tolerance(dtype, 10), scale=1.0)
        assert_close(log, ref_log, tolerance(dtype, 10), scale=max(1.0, np.max(np.abs(ref_log))))


def test_det_of_permutations_and_singular_matrices(lu_routine):
    swap = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    cycle = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    stack = np.stack([swap, cycle, singular, np.zeros((3, 3))])
    assert_close(cp.linalg.det(cp.asarray(stack)), np.linalg.det(stack), 1e-15, scale=1.0)
    sign, log = cp.linalg.slogdet(cp.asarray(stack))
    ref_sign, ref_log = np.linalg.slogdet(stack)
    np.testing.assert_array_equal(host(sign)[[0, 1, 3]], ref_sign[[0, 1, 3]])
    np.testing.assert_array_equal(host(log)[3], ref_log[3])  # -inf for the zero matrix
    # The rank-2 one: LAPACK's elimination happens to leave an exact zero pivot; another order of the
    # same arithmetic (cuBLAS's batched LU) may leave a rounding residue, so only its size is exact.
    assert abs(host(sign)[2] * np.exp(host(log)[2])) <= 1e-15
    complex_singular = np.zeros((2, 2), np.complex64)
    sign, log = cp.linalg.slogdet(cp.asarray(complex_singular))
    assert host(sign) == 0 and host(log) == -np.inf and sign.dtype == np.complex64 and log.dtype == np.float32


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0)])
def test_det_size_zero_and_integers(shape):
    got, ref = cp.linalg.det(cp.zeros(shape)), np.linalg.det(np.zeros(shape))
    assert got.shape == np.shape(ref)
    np.testing.assert_array_equal(host(got), ref)
    ints = np.array([[3, 1], [4, 2]], np.int16)
    got = cp.linalg.det(cp.asarray(ints))
    assert got.dtype == np.float64
    assert_close(got, np.linalg.det(ints), 1e-14, scale=2.0)


def test_det_errors():
    expect_error(lambda: np.linalg.det(np.ones((2, 3))), lambda: cp.linalg.det(cp.ones((2, 3))),
                 "Last 2 dimensions of the array must be square")
    expect_error(lambda: np.linalg.slogdet(np.ones(3)), lambda: cp.linalg.slogdet(cp.ones(3)),
                 "1-dimensional array given. Array must be at least two-dimensional")


# ---- lstsq -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("a_shape, b_shape", [((9, 5), (9,)), ((9, 5), (9, 3)), ((5, 9), (5, 2)), ((6, 6), (6,))])
def test_lstsq_matches_numpy(dtype, a_shape, b_shape, rng):
    a = random_matrix(a_shape, dtype, rng, cond=10)
    b = random_matrix((1,) + b_shape, dtype, rng)[0]
    ref_x, ref_res, ref_rank, ref_s = np.linalg.lstsq(a, b)
    x, res, rank, s = cp.linalg.lstsq(on_gpu(a, "f"), cp.asarray(b))
    assert rank == ref_rank and isinstance(rank, int)
    for got, ref in ((x, ref_x), (res, ref_res), (s, ref_s)):
        assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = tolerance(dtype, 100)
    assert_close(x, ref_x, tol)
    assert_close(s, ref_s, tol)
    if ref_res.size:
        assert_close(res, ref_res, tol)


def test_lstsq_rank_deficient_and_rcond(rng):
    a = rank_deficient((10, 6), 3, np.float64, rng)
    b = rng.standard_normal(10)
    ref_x, ref_res, ref_rank, ref_s = np.linalg.lstsq(a, b)
    x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b))
    assert rank == ref_rank == 3
    assert res.shape == ref_res.shape == (0,)
    assert_close(x, ref_x, 1e-10)  # the minimum-norm solution, unique
    x, _, rank, _ = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b), rcond=0.5)
    assert rank == np.linalg.lstsq(a, b, rcond=0.5)[2]


def test_lstsq_errors():
    expect_error(lambda: np.linalg.lstsq(np.ones((3, 2)), np.ones(4)),
                 lambda: cp.linalg.lstsq(cp.ones((3, 2)), cp.ones(4)), "Incompatible dimensions")
    expect_error(lambda: np.linalg.lstsq(np.ones((2, 3, 2)), np.ones(3)),
                 lambda: cp.linalg.lstsq(cp.ones((2, 3, 2)), cp.ones(3)),
                 "3-dimensional array given. Array must be two-dimensional")


# ---- pinv, matrix_rank -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (3, 5, 5)])
def test_pinv_matches_numpy(dtype, shape, rng):
    a = random_matrix(shape, dtype, rng, cond=10)
    ref = np.linalg.pinv(a)
    for layout in MATRIX_LAYOUTS:
        got = cp.linalg.pinv(on_gpu(a, layout))
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert_close(got, ref, tolerance(dtype, 100))


def test_pinv_rank_deficient_hermitian_rtol(rng):
    a = rank_deficient((8, 6), 2, np.float64, rng)
    assert_close(cp.linalg.pinv(cp.asarray(a)), np.linalg.pinv(a), 1e-10)
    h = hermitian((5, 5), np.complex128, rng)
    assert_close(cp.linalg.pinv(cp.asarray(h), hermitian=True), np.linalg.pinv(h, hermitian=True), 1e-10)
    assert_close(cp.linalg.pinv(cp.asarray(a), rtol=None), np.linalg.pinv(a, rtol=None), 1e-10)
    assert_close(cp.linalg.pinv(cp.asarray(a), rcond=0.3), np.linalg.pinv(a, rcond=0.3), 1e-10)
    got = cp.linalg.pinv(cp.zeros((2, 0, 3), np.float32))
    assert got.shape == (2, 3, 0) and got.dtype == np.float32
    expect_error(lambda: np.linalg.pinv(a, rcond=0.1, rtol=0.1),
                 lambda: cp.linalg.pinv(cp.asarray(a), rcond=0.1, rtol=0.1), "`rtol` and `rcond` can't be both set.")


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_matrix_rank(dtype, rng):
    stack = np.stack([rank_deficient((6, 5), r, np.float64, rng) for r in (1, 3, 5)]).astype(dtype)
    got = cp.linalg.matrix_rank(cp.asarray(stack))
    if real_dtype(dtype) == np.float64:
        # float32 input rounded from an exactly rank-deficient matrix has singular values near the
        # default tolerance, where NumPy (computing in float64) and a float32 SVD may disagree.
        np.testing.assert_array_equal(host(got), np.linalg.matrix_rank(stack))
    assert host(cp.linalg.matrix_rank(cp.asarray(stack), tol=1e-3)).tolist() == [1, 3, 5]
    assert host(cp.linalg.matrix_rank(cp.asarray(stack), rtol=1e-3)).tolist() == [1, 3, 5]
    h = hermitian((5, 5), dtype, rng)
    assert int(cp.linalg.matrix_rank(cp.asarray(h), hermitian=True)) == np.linalg.matrix_rank(h, hermitian=True)
    assert cp.linalg.matrix_rank(cp.zeros(4)) == 0 and cp.linalg.matrix_rank(cp.ones(4)) == 1


# ---- cond and norms --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf])
def test_cond_matches_numpy(dtype, p, rng):
    a = random_matrix((3, 5, 5), dtype, rng, cond=50)
    got = cp.linalg.cond(cp.asarray(a), p)
    ref = np.linalg.cond(a, p)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    assert_close(got, ref, tolerance(dtype, 50))


def test_cond_singular_is_inf_and_empty_raises():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    for p in (1, "fro"):  # through the inverse: LU finds the exact zero pivot, as LAPACK's does
        with np.errstate(all="ignore"):
            ref = np.linalg.cond(singular, p)
        assert host(cp.linalg.cond(cp.asarray(singular), p)) == ref
    # The 2-norm is s[0] / s[-1]: the smallest singular value of a singular matrix is 0 up to the
    # rounding of whichever SVD routine ran (NumPy's LAPACK leaves 1e-16 here, Jacobi exactly 0).
    assert host(cp.linalg.cond(cp.asarray(singular))) > 1e15
    expect_error(lambda: np.linalg.cond(np.zeros((0, 0))), lambda: cp.linalg.cond(cp.zeros((0, 0))),
                 "cond is not defined on empty arrays")


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("ord", [2, -2, "nuc"])
@pytest.mark.parametrize("axis", [None, (0, 1), (1, 0), (-1, -3)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm_singular_value_orders(dtype, ord, axis, keepdims, rng):
    a = random_matrix((4, 3, 5), dtype, rng)
    if axis is None:
        a = a[0]
    ref = np.linalg.norm(a, ord, axis, keepdims)
    got = cp.linalg.norm(cp.asarray(a), ord, axis, keepdims)
    assert got.dtype == ref.dtype and got.shape == np.shape(ref)
    assert_close(got, ref, tolerance(dtype, 10))


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, np.inf, 2, -2])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(ord, keepdims, rng):
    a = random_matrix((2, 3, 4), np.float64, rng)
    ref = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    got = cp.linalg.matrix_norm(cp.asarray(a), ord=ord, keepdims=keepdims)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert_close(got, ref, 1e-13)


@pytest.mark.parametrize("axis", [None, 1, -1, (0, 2), (2, 0)])
@pytest.mark.parametrize("ord", [2, 1, np.inf, 0, 3])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(axis, ord, keepdims, rng):
    a = random_matrix((2, 3, 4), np.complex128, rng)
    ref = np.linalg.vector_norm(a, axis=axis, ord=ord, keepdims=keepdims)
    got = cp.linalg.vector_norm(cp.asarray(a), axis=axis, ord=ord, keepdims=keepdims)
    assert got.shape == np.shape(ref) and got.dtype == ref.dtype
    assert_close(got, ref, 1e-13)


# ---- tensorinv, tensorsolve ------------------------------------------------------------------------

def test_tensorinv_and_tensorsolve(rng):
    a = random_matrix((24, 24), np.float64, rng, cond=10).reshape(4, 6, 8, 3)
    got = cp.linalg.tensorinv(cp.asarray(a), ind=2)
    ref = np.linalg.tensorinv(a, ind=2)
    assert got.shape == ref.shape
    assert_close(got, ref, 1e-11)
    a = random_matrix((24, 24), np.float64, rng, cond=10).reshape(6, 4, 2, 3, 4)
    b = rng.standard_normal((6, 4))
    ref = np.linalg.tensorsolve(a, b)
    got = cp.linalg.tensorsolve(cp.asarray(a), cp.asarray(b))
    assert got.shape == ref.shape
    assert_close(got, ref, 1e-11)
    a2 = random_matrix((24, 24), np.float64, rng, cond=10).reshape(2, 6, 4, 12)  # axes move 0 to the end
    ref = np.linalg.tensorsolve(a2, b, axes=(0,))
    got = cp.linalg.tensorsolve(cp.asarray(a2), cp.asarray(b), axes=(0,))
    assert got.shape == ref.shape
    assert_close(got, ref, 1e-11)
    expect_error(lambda: np.linalg.tensorinv(a, ind=0), lambda: cp.linalg.tensorinv(cp.asarray(a), ind=0),
                 "Invalid ind argument.")
    expect_error(lambda: np.linalg.tensorsolve(np.ones((2, 3, 4)), np.ones(2)),
                 lambda: cp.linalg.tensorsolve(cp.ones((2, 3, 4)), cp.ones(2)))


# ---- NumPy dispatch and streams --------------------------------------------------------------------

def test_numpy_linalg_dispatches(rng):
    a = random_matrix((4, 4), np.float64, rng, cond=10)
    g = cp.asarray(a)
    for name in ("inv", "det", "pinv", "matrix_rank", "cond", "norm"):
        out = getattr(np.linalg, name)(g)
        assert isinstance(out, cp.ndarray), name
    assert isinstance(np.linalg.solve(g, cp.ones(4)), cp.ndarray)
    assert isinstance(np.linalg.slogdet(g)[1], cp.ndarray)


def test_solvers_on_a_non_blocking_stream(rng):
    a = random_matrix((8, 32, 32), np.float64, rng, cond=10)
    with cp.cuda.Stream(non_blocking=True):
        g = cp.asarray(a)
        got = cp.linalg.inv(g)
        w = cp.linalg.eigvalsh(g + g.swapaxes(-1, -2))
        s = cp.linalg.svdvals(g)
    assert_close(got, np.linalg.inv(a), 1e-11)
    assert_close(w, np.linalg.eigvalsh(a + np.swapaxes(a, -1, -2)), 1e-11)
    assert_close(s, np.linalg.svdvals(a), 1e-11)
