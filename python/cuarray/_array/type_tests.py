"""NumPy's array-type tests and dtype routines: iscomplex, iscomplexobj, isreal, isrealobj, isfortran,
isneginf, isposinf, common_type, min_scalar_type. The *obj tests, isfortran and the dtype routines
read only dtypes and flags (no device work); iscomplex, isreal, isneginf and isposinf are ufunc
expressions, as NumPy writes them."""
import numpy as _np

from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import asarray, zeros
from .._math.functions import imag

__all__ = ["iscomplex", "iscomplexobj", "isreal", "isrealobj", "isfortran", "isneginf", "isposinf",
           "common_type", "min_scalar_type"]


def _dtype_of(x):
    return x.dtype if isinstance(x, ndarray) else _np.asarray(x).dtype


def iscomplexobj(x):
    """Whether x's dtype is complex (not its values), as numpy.iscomplexobj; no device work."""
    return issubclass(_dtype_of(x).type, _np.complexfloating)


def isrealobj(x):
    """Whether x's dtype is not complex, as numpy.isrealobj."""
    return not iscomplexobj(x)


def iscomplex(x):
    """Elementwise: a nonzero imaginary part (all False for real dtypes), as numpy.iscomplex."""
    x = asarray(x)
    if iscomplexobj(x):
        return x.imag != 0
    return zeros(x.shape, bool)


def isreal(x):
    """Elementwise: a zero imaginary part (all True for real dtypes), as numpy.isreal."""
    return imag(asarray(x)) == 0


def isfortran(a):
    """Whether a is Fortran-contiguous and not also C-contiguous, as numpy.isfortran."""
    return a.flags.f_contiguous and not a.flags.c_contiguous


def _signed_infinity(x, out, negative):
    is_inf = _ufuncs.isinf(x)
    try:
        sign = _ufuncs.signbit(x)
    except TypeError as exc:  # complex: no sign (NumPy's message)
        raise TypeError(f"This operation is not supported for {_dtype_of(x)} values because it would "
                        "be ambiguous.") from exc
    return _ufuncs.logical_and(is_inf, sign if negative else ~sign, out=out)


def isneginf(x, out=None):
    """Elementwise x == -inf, as numpy.isneginf (TypeError for complex input)."""
    return _signed_infinity(asarray(x), out, negative=True)


def isposinf(x, out=None):
    """Elementwise x == +inf, as numpy.isposinf (TypeError for complex input)."""
    return _signed_infinity(asarray(x), out, negative=False)


def common_type(*arrays):
    """The inexact scalar type NumPy's common_type gives for these arrays' dtypes (no device work)."""
    return _np.common_type(*(_np.empty(0, _dtype_of(a)) for a in arrays))


def min_scalar_type(a):
    """numpy.min_scalar_type: an array's own dtype, or for a 0-d array or a scalar the smallest dtype
    that holds its value (a 0-d cuarray array is read back for it)."""
    if isinstance(a, ndarray):
        return a.dtype if a.ndim else _np.min_scalar_type(a.get())
    return _np.min_scalar_type(a)
