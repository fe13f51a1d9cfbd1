"""cov and corrcoef as NumPy computes them: the weighted mean (average), the centred data, one
matrix product with its conjugate transpose (cuBLAS through matmul), the normalisation."""
import warnings

import numpy as _np

from . import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._creation.creation import asarray, empty
from .._indexing.index_functions import diag
from .._manipulation.manipulation import concatenate
from .statistics import average

__all__ = ["cov", "corrcoef"]


def _at_least_2d(a, dtype):
    a = asarray(a).astype(dtype, copy=False)
    return a.reshape(1, -1) if a.ndim < 2 else a


def _frequency_weights(fweights, n):
    w = asarray(fweights).astype(_np.float64, copy=False)
    # NumPy validates the values: two small reads of the answers.
    if not bool((w == _ufuncs.rint(w)).all()):
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError("cannot handle multidimensional fweights")
    if w.shape[0] != n:
        raise RuntimeError("incompatible numbers of samples and fweights")
    if bool((w < 0).any()):
        raise ValueError("fweights cannot be negative")
    return w


def _analytic_weights(aweights, n):
    w = asarray(aweights).astype(_np.float64, copy=False)
    if w.ndim > 1:
        raise RuntimeError("cannot handle multidimensional aweights")
    if w.shape[0] != n:
        raise RuntimeError("incompatible numbers of samples and aweights")
    if bool((w < 0).any()):
        raise ValueError("aweights cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """Covariance matrix of the rows (variables) of m, and of y's rows (numpy.cov)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _np.result_type(m.dtype, _np.float64) if y is None else \
            _np.result_type(m.dtype, y.dtype, _np.float64)
    X = _at_least_2d(m, dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return empty((0, 0), _np.float64)
    if y is not None:
        y = _at_least_2d(y, dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        w = _frequency_weights(fweights, X.shape[1])
    if aweights is not None:
        aweights = _analytic_weights(aweights, X.shape[1])
        w = aweights if w is None else w * aweights
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _reductions.sum(w * aweights) / w_sum
    # The warning needs the value of fact: one small read where weights make it a device value. It
    # stays a NumPy scalar of fact's dtype: complex input gives a complex fact, which NumPy compares
    # with 0 in its lexicographic order (real part, then imaginary part).
    fact_host = fact.get()[()] if hasattr(fact, "get") else fact
    if fact_host <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    c = X @ _ufuncs.conjugate(X_T)
    # NumPy scales in place: the float64 factor is computed with, the result keeps c's dtype.
    scale = _ufuncs.true_divide(1, fact) if hasattr(fact, "get") else _np.true_divide(1, fact)
    _ufuncs.multiply(c, scale, out=c)
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients (numpy.corrcoef), real and imaginary parts clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c  # a scalar covariance: nan for nan, inf or 0, else 1
    d = diag(c)
    stddev = _ufuncs.sqrt(d.real)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        c.real = c.real.clip(-1, 1)
        c.imag = c.imag.clip(-1, 1)
        return c
    return c.clip(-1, 1)
