"""Host-only checks of cuarray.linalg's decompositions and solvers: NumPy's LinAlgError class, the
argument errors NumPy raises before it looks at the array, the switch for cuSOLVER's status checks
(and its environment variable), and the routine-choice hook's names. None of this needs a GPU.
(tests/cpp/test_linalg.cpp checks the cuSOLVER loader and its missing-library error.)"""
import numpy as np
import pytest

import cuarray as cp

from helpers import expect_error, run_python


def test_linalg_error_is_numpys():
    assert cp.linalg.LinAlgError is np.linalg.LinAlgError


def test_namespace_has_numpys_solver_functions():
    for name in ("cholesky", "qr", "eigh", "eigvalsh", "eig", "eigvals", "svd", "svdvals", "inv", "solve", "det",
                 "slogdet", "lstsq", "pinv", "matrix_rank", "cond", "norm", "matrix_norm", "vector_norm",
                 "tensorinv", "tensorsolve"):
        assert callable(getattr(cp.linalg, name)), name


@pytest.mark.parametrize("mode", ["x", "", "R"])
def test_qr_unknown_mode_before_the_array(mode):
    # NumPy checks the mode first: an object that is no array at all still gets the mode's error.
    a = object()
    expect_error(lambda: np.linalg.qr(a, mode=mode), lambda: cp.linalg.qr(a, mode=mode),
                 f"Unrecognized mode '{mode}'")


@pytest.mark.parametrize("function", ["eigh", "eigvalsh"])
def test_uplo_checked_before_the_array(function):
    a = object()
    expect_error(lambda: getattr(np.linalg, function)(a, UPLO="X"),
                 lambda: getattr(cp.linalg, function)(a, UPLO="X"), "UPLO argument must be 'L' or 'U'")


def test_matrix_rank_tol_and_rtol_together():
    a = object()
    expect_error(lambda: np.linalg.matrix_rank(a, tol=1.0, rtol=1.0),
                 lambda: cp.linalg.matrix_rank(a, tol=1.0, rtol=1.0), "`tol` and `rtol` can't be both set.")


def test_error_check_switch_round_trip():
    assert cp.linalg.error_checks() is True
    try:
        cp.linalg.set_error_checks(False)
        assert cp.linalg.error_checks() is False
    finally:
        cp.linalg.set_error_checks(True)
    assert cp.linalg.error_checks() is True


@pytest.mark.parametrize("value, expected", [("0", "False"), ("false", "False"), ("1", "True"), ("", "True")])
def test_error_check_environment_variable(value, expected):
    out = run_python("import cuarray; print(cuarray.linalg.error_checks())", CUARRAY_LINALG_ERROR_CHECKS=value)
    assert out.strip() == expected


def test_force_routine_names():
    force = cp._core.linalg.force_routine
    try:
        for operation, routine in (("svd", "gesvd"), ("svd", "gesvdj"), ("svd", "gesvdp"), ("svd", "gesvdj_batched"),
                                   ("svd", "jacobi_small"),
                                   ("eigh", "syevd"), ("eigh", "syev_batched"), ("lu", "getrf"),
                                   ("lu", "getrf_batched")):
            force(operation, routine)
            force(operation, "")
    finally:
        force("svd", "")
        force("eigh", "")
        force("lu", "")
    with pytest.raises(ValueError, match="no routine 'gesvdq' for linalg operation 'svd'"):
        force("svd", "gesvdq")
    with pytest.raises(ValueError, match="no routine 'gesvd' for linalg operation 'qr'"):
        force("qr", "gesvd")
