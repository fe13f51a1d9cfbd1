"""numpy.linalg's solvers and the functions composed on them: inv, solve, det, slogdet, lstsq,
pinv, matrix_rank, cond, tensorinv, tensorsolve. The factorizations are C++ on cuSOLVER; what is
here is argument handling and NumPy's compositions."""
import numpy as _np

from .. import _core
from .._statistics import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._creation.creation import asarray
from .._math.functions import where
from ._decompositions import svd
from ._norms import norm
from ._results import SlogdetResult

_linalg = _core.linalg
_NO_VALUE = object()  # NumPy's _NoValue for pinv's rtol: absent differs from None


def inv(a):
    """Inverse of a stack of square matrices; LinAlgError('Singular matrix') as NumPy."""
    return _linalg.inv(asarray(a))


def solve(a, b):
    """Solution of a @ x = b, as numpy.linalg.solve (b is a vector only when 1-D)."""
    return _linalg.solve(asarray(a), asarray(b))


def det(a):
    """Determinant of a stack of square matrices, as numpy.linalg.det."""
    return _linalg.det(asarray(a))


def slogdet(a):
    """Sign and natural log of |det|, as numpy.linalg.slogdet."""
    return SlogdetResult(*_linalg.slogdet(asarray(a)))


def lstsq(a, b, rcond=None):
    """Least-squares solution of a @ x = b (2-D a), as numpy.linalg.lstsq: (x, residuals, rank, s)."""
    return _linalg.lstsq(asarray(a), asarray(b), None if rcond is None else float(rcond))


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """Moore-Penrose pseudo-inverse, as numpy.linalg.pinv (rcond or rtol, not both)."""
    a = asarray(a)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _np.finfo(_real_result_dtype(a.dtype)).eps
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    return _linalg.pinv(a, asarray(rcond), bool(hermitian))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Rank from the singular values above a tolerance, as numpy.linalg.matrix_rank."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = asarray(A)
    if A.ndim < 2:
        return int(not bool(_reductions.all(_ufuncs.equal(A, 0))))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _np.finfo(S.dtype).eps
        else:
            rtol = asarray(rtol)[..., None]
        tol = _reductions.max(S, axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = asarray(tol)[..., None]
    return _reductions.count_nonzero(_ufuncs.greater(S, tol), axis=-1)


def cond(x, p=None):
    """Condition number in norm p, as numpy.linalg.cond (inf where a matrix is singular)."""
    x = asarray(x)
    if x.ndim >= 2 and x.size == 0 and x.shape[-1] * x.shape[-2] == 0:
        raise _np.linalg.LinAlgError("cond is not defined on empty arrays")
    if p is None or p in {2, -2}:
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        invx = _linalg.inv(x, False)  # singular: inf/NaN entries, as NumPy's errstate-ignored inverse
        r = norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))
        r = r.astype(_real_result_dtype(x.dtype), copy=False)
    # NaN from a singular matrix is inf, unless the input itself held NaN.
    nan_mask = _ufuncs.isnan(r)
    if bool(_reductions.any(nan_mask)):
        nan_mask = _ufuncs.logical_and(nan_mask, _ufuncs.logical_not(_reductions.any(_ufuncs.isnan(x), axis=(-2, -1))))
        r = where(nan_mask, _np.inf, r).astype(r.dtype, copy=False)
    return r


def tensorinv(a, ind=2):
    """Inverse of an N-d array under tensordot over its first `ind` axes, as numpy.linalg.tensorinv."""
    a = asarray(a)
    oldshape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = 1
    for k in oldshape[ind:]:
        prod *= k
    return inv(a.reshape(prod, -1)).reshape(*invshape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, axes=x.ndim) == b, as numpy.linalg.tensorsolve."""
    a = asarray(a)
    b = asarray(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k
    if a.size != prod ** 2:
        raise _np.linalg.LinAlgError(
            "Input arrays must satisfy the requirement "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(prod, prod), b.ravel()).reshape(oldshape)


def set_error_checks(enabled):
    """Turns the check of cuSOLVER's status words on or off (on by default; the environment
    variable CUARRAY_LINALG_ERROR_CHECKS=0 starts with it off). Off, nothing waits for the GPU and
    a singular or indefinite matrix gives inf/NaN results instead of LinAlgError, as in CuPy."""
    _linalg.set_error_checks(bool(enabled))


def error_checks():
    """Whether linalg routines check cuSOLVER's status words (see set_error_checks)."""
    return _linalg.error_checks()


def _real_result_dtype(dtype):
    """The real dtype NumPy's linalg returns for `dtype`: float32 for float32/complex64, else float64."""
    return _np.dtype(_np.float32) if _np.dtype(dtype) in (_np.float32, _np.complex64) else _np.dtype(_np.float64)
