"""numpy.linalg's decompositions: cholesky, qr, eigh/eigvalsh, eig/eigvals, svd/svdvals. The work
is C++ on cuSOLVER (cuarray/linalg.hpp, docs/linalg_solvers.md); this converts arguments and builds
NumPy's result tuples."""
import warnings as _warnings

import numpy as _np

from .. import _core
from .._creation.creation import asarray
from ._results import EigResult, EighResult, QRResult, SVDResult

_linalg = _core.linalg


def cholesky(a, /, *, upper=False):
    """Cholesky factor of a Hermitian positive-definite stack, as numpy.linalg.cholesky."""
    return _linalg.cholesky(asarray(a), bool(upper))


_QR_MODES = ("reduced", "complete", "r", "raw")


def qr(a, mode="reduced"):
    """QR factorization, as numpy.linalg.qr (modes 'reduced', 'complete', 'r', 'raw', and NumPy's
    deprecated 'full' and 'economic')."""
    if mode not in _QR_MODES:  # before touching `a`, as NumPy
        if mode in ("f", "full"):
            _warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor backward compatibility "
                           "let mode default.", DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            _warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=2)
            # NumPy returns geqrf's factored matrix in C order: raw mode's first result, transposed.
            return _linalg.qr(asarray(a), "raw")[0].swapaxes(-1, -2).copy()
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    first, second = _linalg.qr(asarray(a), mode)
    if mode == "r":
        return first
    if mode == "raw":
        return first, second
    return QRResult(first, second)


def _uplo(UPLO):
    # NumPy upper-cases UPLO and checks it before looking at the array.
    UPLO = UPLO.upper()
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of a Hermitian stack, as numpy.linalg.eigh."""
    UPLO = _uplo(UPLO)
    w, v = _linalg.eigh(asarray(a), UPLO, True)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of a Hermitian stack, as numpy.linalg.eigvalsh."""
    UPLO = _uplo(UPLO)
    return _linalg.eigh(asarray(a), UPLO, False)[0]


# NumPy 2.5 gives eig's results complex always; 2.0-2.4 real when every eigenvalue of a real input
# is real. Follow the NumPy installed.
_EIG_REAL_WHEN_ALL_REAL = _np.lib.NumpyVersion(_np.__version__) < "2.5.0"


def eig(a):
    """Eigenvalues and right eigenvectors, as numpy.linalg.eig (complex, or real where the installed
    NumPy gives real ones)."""
    w, v = _linalg.eig(asarray(a), True, _EIG_REAL_WHEN_ALL_REAL)
    return EigResult(w, v)


def eigvals(a):
    """Eigenvalues of a general stack, as numpy.linalg.eigvals."""
    return _linalg.eig(asarray(a), False, _EIG_REAL_WHEN_ALL_REAL)[0]


def _eigvals_real_if_all_real(a):
    """Eigenvalues, real when a is real and every imaginary part is zero: the rule of NumPy 2.0-2.4's
    eigvals, which roots and polyroots keep in every NumPy version (2.5 applies it there,
    numpy.linalg._linalg._to_real_if_imag_zero, after eigvals became always complex)."""
    return _linalg.eig(asarray(a), False, True)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition, as numpy.linalg.svd: SVDResult(U, S, Vh), or S alone."""
    u, s, vh = _linalg.svd(asarray(a), bool(full_matrices), bool(compute_uv), bool(hermitian))
    return SVDResult(u, s, vh) if compute_uv else s


def svdvals(x, /):
    """Singular values in descending order, as numpy.linalg.svdvals."""
    return _linalg.svd(asarray(x), False, False, False)[1]
