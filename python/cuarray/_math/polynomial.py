"""NumPy's legacy polynomial API (numpy/lib/_polynomial_impl.py): poly, roots, polyval, polyfit,
polyadd, polysub, polymul, polydiv, polyder, polyint and the poly1d class, with coefficients
highest power first, as cuarray arrays.

Each function is NumPy's algorithm on the device: Horner's rule as one kernel per coefficient,
products by convolve, roots as eigenvalues of the companion matrix, fits by lstsq. Where NumPy's
result shape depends on the data (trimmed leading zeros, polydiv's remainder, whether roots are
conjugate pairs), the few values that decide it are read back, as CuPy does.
"""
import warnings

import numpy as _np

from .._statistics import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import arange, asarray, ones, zeros
from .._indexing.index_functions import diag
from .._manipulation.manipulation import atleast_1d, concatenate, trim_zeros
from .signal import convolve
from .._sorting.sorting import sort
from .._creation.twodim_base import vander

__all__ = ["poly", "roots", "polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "poly1d"]


def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or of a square matrix's
    characteristic polynomial)."""
    from ..linalg import eigvals
    seq_of_zeros = atleast_1d(asarray(seq_of_zeros))
    sh = seq_of_zeros.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        seq_of_zeros = eigvals(seq_of_zeros)
    elif len(sh) == 1:
        seq_of_zeros = seq_of_zeros.astype(_np.mintypecode(seq_of_zeros.dtype.char), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if seq_of_zeros.shape[0] == 0:
        return 1.0
    dt = seq_of_zeros.dtype
    a = ones((1,), dt)
    zero = zeros((1,), dt)
    for k in range(seq_of_zeros.shape[0]):
        # convolve(a, [1, -z]): a[j] - z a[j - 1], each product rounded as NumPy's dot of two terms
        a = concatenate((a, zero)) - seq_of_zeros[k] * concatenate((zero, a))
    if a.dtype.kind == "c":
        r = seq_of_zeros.astype(complex)
        if bool((sort(r) == sort(_ufuncs.conjugate(r))).all()):
            a = a.real.copy()
    return a


def roots(p):
    """The roots of the polynomial with coefficients p: eigenvalues of its companion matrix, real
    when all are real (NumPy's rule for roots in every version, whatever its eigvals returns)."""
    from ..linalg._decompositions import _eigvals_real_if_all_real
    p = atleast_1d(asarray(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = _np.nonzero(_ufuncs.not_equal(p, 0).get())[0]  # the trimmed length decides the shape
    if len(nz) == 0:
        return zeros((0,), _np.float64)
    trailing_zeros = p.shape[0] - int(nz[-1]) - 1
    p = p[int(nz[0]):int(nz[-1]) + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(float)
    N = p.shape[0]
    if N > 1:
        A = diag(ones((N - 2,), p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        r = _eigvals_real_if_all_real(A)
    else:
        r = zeros((0,), _np.float64)
    return concatenate((r, zeros((trailing_zeros,), r.dtype)))


def _coeffs(p):
    return p.coeffs if isinstance(p, poly1d) else p


def polyval(p, x):
    """p evaluated at x by Horner's rule (numpy.polyval)."""
    p = asarray(_coeffs(p))
    if isinstance(x, poly1d):
        y = 0
    else:
        x = asarray(x)
        y = zeros(x.shape, x.dtype)
    for k in range(p.shape[0]):
        y = y * x + p[k]
    return y


def polyadd(a1, a2):
    """Sum of two polynomials."""
    return _combine(a1, a2, _ufuncs.add)


def polysub(a1, a2):
    """Difference of two polynomials."""
    return _combine(a1, a2, _ufuncs.subtract)


def _combine(a1, a2, op):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = atleast_1d(asarray(_coeffs(a1))), atleast_1d(asarray(_coeffs(a2)))
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate((zeros((diff,), a1.dtype), a1))
    elif diff < 0:
        a2 = concatenate((zeros((-diff,), a2.dtype), a2))
    val = op(a1, a2)
    return poly1d(val) if truepoly else val


def polymul(a1, a2):
    """Product of two polynomials (convolve of their trimmed coefficients)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    """Quotient and remainder of polynomial division (numpy.polydiv)."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = atleast_1d(asarray(_coeffs(u))) + 0.0
    v = atleast_1d(asarray(_coeffs(v))) + 0.0
    w = u[0] + v[0]
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1. / v[0]
    q = zeros((max(m - n + 1, 1),), w.dtype)
    r = u.astype(w.dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    from .logic import allclose
    while r.shape[-1] > 1 and bool(allclose(r[0], 0, rtol=1e-14)):
        r = r[1:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


def polyder(p, m=1):
    """The m-th derivative of a polynomial."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    p = asarray(_coeffs(p))
    val = p
    for _ in range(m):
        n = val.shape[0] - 1
        val = val[:-1] * arange(n, 0, -1)
    return poly1d(val) if truepoly else val


def polyint(p, m=1, k=None):
    """The m-th antiderivative of a polynomial, integration constants k (numpy.polyint)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = _np.zeros(m, float)
    k = k if isinstance(k, ndarray) else _np.atleast_1d(k)  # constants given on the host stay there
    if k.ndim == 0:
        k = k.reshape(1)
    if k.shape[0] == 1 and m > 1:
        k = k[0] * (ones((m,), float) if isinstance(k, ndarray) else _np.ones(m, float))
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    p = asarray(_coeffs(p))
    for i in range(m):
        p = concatenate((p / arange(p.shape[0], 0, -1), asarray(k[i:i + 1])))
    return poly1d(p) if truepoly else p


RankWarning = _np.exceptions.RankWarning  # NumPy's own class, so warning filters match


def fit_samples(x, y):
    """polyfit's x and y as inexact arrays, with NumPy's checks (both polynomial modules)."""
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    return x, y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit (numpy.polyfit), highest power first."""
    from ..linalg import inv, lstsq
    order = int(deg) + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    x, y = fit_samples(x, y)
    if rcond is None:
        rcond = x.shape[0] * _np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = _ufuncs.sqrt(_reductions.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    rank = int(rank)
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        Vbase = inv(lhs.T @ lhs)
        Vbase = Vbase / _ufuncs.multiply.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, Vbase * fac
        return c, Vbase[:, :, None] * fac
    return c


def _polynomial_operand(other):
    return other if isinstance(other, poly1d) else poly1d(other)


class poly1d:
    """A one-dimensional polynomial (numpy.poly1d), its coefficients a cuarray array, highest
    power first. Printing reads them to the host."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if r:
            c_or_r = poly(c_or_r)
        c_or_r = atleast_1d(asarray(c_or_r))
        if c_or_r.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c_or_r = trim_zeros(c_or_r, trim="f")
        if c_or_r.shape[0] == 0:
            c_or_r = zeros((1,), c_or_r.dtype)
        self._coeffs = c_or_r
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    def _host(self):
        return _np.poly1d(self._coeffs.get(), variable=self._variable)

    def __repr__(self):
        return repr(self._host())

    def __str__(self):
        return str(self._host())

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, _polynomial_operand(other)._coeffs))

    def __rmul__(self, other):
        if _np.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(_polynomial_operand(other)._coeffs, self._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, _polynomial_operand(other)._coeffs))

    def __radd__(self, other):
        return poly1d(polyadd(_polynomial_operand(other)._coeffs, self._coeffs))

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, _polynomial_operand(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(_polynomial_operand(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not _np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = asarray([1])
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if _np.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, _polynomial_operand(other))

    def __rtruediv__(self, other):
        if _np.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(_polynomial_operand(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            self._coeffs = concatenate((zeros((key - self.order,), self._coeffs.dtype), self._coeffs))
        self._coeffs[self.order - key] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The m-th antiderivative, integration constants k."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative."""
        return poly1d(polyder(self._coeffs, m=m))
