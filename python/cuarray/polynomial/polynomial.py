"""numpy.polynomial.polynomial's functions on cuarray arrays: power series, coefficients lowest
power first (c[0] + c[1] x + ...).

As in NumPy, inputs are "series": 1-D coefficient arrays with trailing zeros trimmed (keeping at
least one), integers and bools made float64. Trimming depends on the values: it reads back where
the last non-zero coefficient is (one small read per series; CuPy does the same). The evaluation
and construction (polyval, polyvander, polyvalfromroots, polyder, polyint, polycompanion) never read
data back.
"""
import operator
import warnings

import numpy as _np

from .._statistics import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import arange, array, asarray, empty, zeros
from .._math.functions import where as _where
from .._math.polynomial import fit_samples
from .._math.signal import convolve

__all__ = ["polyval", "polyvander", "polycompanion", "polyvalfromroots", "polyadd", "polysub", "polymul",
           "polydiv", "polyder", "polyint", "polyroots", "polyfit"]

_INTEGER_CHARS = "?bBhHiIlLqQpP"


def _as_int(value, desc):
    try:
        return operator.index(value)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {value}") from e


def _trimseq(seq):
    """seq without trailing zeros, at least one coefficient (where the last non-zero one is, is
    read back)."""
    if seq.shape[0] == 0:
        return seq
    nz = _np.flatnonzero(_ufuncs.not_equal(seq, 0).get())
    return seq[:int(nz[-1]) + 1] if nz.size else seq[:1]


def _as_series(alist, trim=True):
    """NumPy's polyutils.as_series: 1-D inexact arrays of a common dtype."""
    arrays = [array(a, ndmin=1, copy=None) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [_trimseq(a) for a in arrays]
    try:
        dtype = _np.common_type(*[_np.empty(0, a.dtype) for a in arrays])
    except Exception as e:
        raise ValueError("Coefficient arrays have no common type") from e
    return [a.astype(dtype, copy=True) for a in arrays]


def _float_copy(c):
    c = array(c, ndmin=1, copy=True)
    return c + 0.0 if c.dtype.char in _INTEGER_CHARS else c


def polyval(x, c, tensor=True):
    """The series c evaluated at x by Horner's rule; with tensor, every column of c at every x."""
    c = array(c, ndmin=1, copy=None)
    if c.dtype.char in _INTEGER_CHARS:
        c = c + 0.0
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if isinstance(x, ndarray) and tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)
    c0 = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        c0 = c[-i] + c0 * x
    return c0


def polyvalfromroots(x, r, tensor=True):
    """prod(x - r) over the roots r (numpy's polyvalfromroots)."""
    r = array(r, ndmin=1, copy=None)
    if r.dtype.char in _INTEGER_CHARS:
        r = r.astype(_np.float64)
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if isinstance(x, ndarray):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _reductions.prod(x - r, axis=0)


def polyvander(x, deg):
    """The Vandermonde matrix: V[..., i] = x**i, by running products as NumPy forms them."""
    ideg = _as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = array(x, copy=None, ndmin=1) + 0.0
    v = empty((ideg + 1,) + x.shape, x.dtype)
    v[0] = x * 0 + 1
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * x
    return v.transpose(tuple(range(1, v.ndim)) + (0,))


def polycompanion(c):
    """The companion matrix of the series c (its eigenvalues are c's roots)."""
    [c] = _as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape(1, 1)
    n = c.shape[0] - 1
    mat = zeros((n, n), c.dtype)
    mat.reshape(-1)[n::n + 1] = 1
    mat[:, -1] -= c[:-1] / c[-1]
    return mat


def polyroots(c):
    """The roots of the series c, sorted: eigenvalues of the companion matrix, real when all are
    real (NumPy's rule for roots in every version, whatever its eigvals returns)."""
    from ..linalg._decompositions import _eigvals_real_if_all_real
    [c] = _as_series([c])
    if c.shape[0] < 2:
        return empty((0,), c.dtype)
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape(1)
    r = _eigvals_real_if_all_real(polycompanion(c))
    from .._sorting.sorting import sort
    return sort(r)


def polyadd(c1, c2):
    """Sum of two series."""
    return _add_or_subtract(c1, c2, _ufuncs.add)


def polysub(c1, c2):
    """Difference of two series."""
    return _add_or_subtract(c1, c2, _ufuncs.subtract)


def _add_or_subtract(c1, c2, op):
    """NumPy's polyutils._add/_sub: the shorter series combined into the longer one's copy."""
    [c1, c2] = _as_series([c1, c2])
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 > n2:
        c1[:n2] = op(c1[:n2], c2)
        ret = c1
    else:
        if op is _ufuncs.subtract:
            c2 = _ufuncs.negative(c2)
        c2[:n1] = _ufuncs.add(c2[:n1], c1)
        ret = c2
    return _trimseq(ret)


def polymul(c1, c2):
    """Product of two series (their convolution)."""
    [c1, c2] = _as_series([c1, c2])
    return _trimseq(convolve(c1, c2))


def polydiv(c1, c2):
    """Quotient and remainder of series division."""
    [c1, c2] = _as_series([c1, c2])
    if c2.shape[0] == 1 and not bool(c2[-1] != 0):
        raise ZeroDivisionError()
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    dlen = lc1 - lc2
    scl = c2[-1]
    c2 = c2[:-1] / scl
    i, j = dlen, lc1 - 1
    while i >= 0:
        c1[i:j] -= c2 * c1[j]
        i, j = i - 1, j - 1
    return c1[j + 1:] / scl, _trimseq(c1[:j + 1])


def _real(dtype):
    return _np.finfo(dtype).dtype if dtype.kind == "c" else dtype


def _moved(c, iaxis):
    order = [iaxis] + [d for d in range(c.ndim) if d != iaxis]
    return c.transpose(order)


def _moved_back(c, iaxis):
    order = list(range(1, c.ndim))
    order.insert(iaxis, 0)
    return c.transpose(order)


def polyder(c, m=1, scl=1, axis=0):
    """The series differentiated m times along axis, each time multiplied by scl."""
    cnt = _as_int(m, "the order of derivation")
    iaxis = _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    c = _float_copy(c)
    cdt = c.dtype
    iaxis = _np.lib.array_utils.normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c
    c = _moved(c, iaxis)
    n = c.shape[0]
    if cnt >= n:
        c = c[:1] * 0
    else:
        for _ in range(cnt):
            n = n - 1
            c = c * scl
            # NumPy multiplies by Python ints j (weak): the same values in c's real type
            powers = arange(1, n + 1, dtype=_real(cdt)).reshape((n,) + (1,) * (c.ndim - 1))
            c = (powers * c[1:]).astype(cdt, copy=False)
    return _moved_back(c, iaxis)


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """The series integrated m times along axis, with constants k at lbnd, each time times scl."""
    if not _np.iterable(k):
        k = [k]
    cnt = _as_int(m, "the order of integration")
    iaxis = _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if _np.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if _np.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    c = _float_copy(c)
    cdt = c.dtype
    iaxis = _np.lib.array_utils.normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c
    k = list(k) + [0] * (cnt - len(k))
    c = _moved(c, iaxis)
    for i in range(cnt):
        n = c.shape[0]
        c = (c * scl).astype(cdt, copy=False)
        if n == 1 and bool((c[0] == 0).all()):
            c[0] += k[i]
        else:
            tmp = empty((n + 1,) + c.shape[1:], cdt)
            tmp[0] = c[0] * 0
            tmp[1] = c[0]
            if n > 1:
                divisors = arange(2, n + 1, dtype=_real(cdt)).reshape((n - 1,) + (1,) * (c.ndim - 1))
                tmp[2:] = c[1:] / divisors
            tmp[0] += k[i] - polyval(lbnd, tmp)
            c = tmp
    return _moved_back(c, iaxis)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """Least-squares fit of a series to (x, y) (numpy's polyutils._fit with polyvander)."""
    from ..linalg import lstsq
    deg = _np.asarray(deg)
    if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if deg.min() < 0:
        raise ValueError("expected deg >= 0")
    x, y = fit_samples(x, y)
    if deg.ndim == 0:
        lmax = int(deg)
        order = lmax + 1
        van = polyvander(x, lmax)
    else:
        deg = _np.sort(deg)
        lmax = int(deg[-1])
        order = len(deg)
        van = polyvander(x, lmax)[:, asarray(deg)]
    lhs = van.T
    rhs = y.T
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if x.shape[0] != w.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = x.shape[0] * _np.finfo(x.dtype).eps
    if lhs.dtype.kind == "c":
        scl = _ufuncs.sqrt((_ufuncs.square(lhs.real) + _ufuncs.square(lhs.imag)).sum(1))
    else:
        scl = _ufuncs.sqrt(_ufuncs.square(lhs).sum(1))
    scl = _where(scl == 0, 1, scl)
    c, resids, rank, s = lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if deg.ndim > 0:
        cc = zeros((lmax + 1, c.shape[1]) if c.ndim == 2 else (lmax + 1,), c.dtype)
        cc[asarray(deg)] = c
        c = cc
    rank = int(rank)
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, [resids, rank, s, rcond]
    return c
