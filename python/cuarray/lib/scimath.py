"""numpy.emath (numpy.lib.scimath): the math functions whose result leaves the real line for part
of it, computed in the complex domain exactly when NumPy does. sqrt, log, log2, log10 and logn of
real input with a negative element, arccos, arcsin and arctanh of real input with an element past
+-1, and power of a negative base go complex (complex64 from float32 and the integers of at most
16 bits, as NumPy, complex128 otherwise); anything else is the ufunc's own result. Which it is
depends on the data, so deciding costs one reduction and its read back to the host, as NumPy's
check costs a pass over the input."""
from .._ufunc import ufuncs as _ufuncs
from .._creation.creation import asarray

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's _tocomplex: these go to complex64, every other real dtype to complex128.
_TO_COMPLEX64 = frozenset("fbhBH")


def _to_complex(x):
    return x.astype("complex64" if x.dtype.char in _TO_COMPLEX64 else "complex128")


def _real_and_any(x, test):
    """Whether x is real (not complex) and test(x) holds for some element."""
    return x.dtype.kind != "c" and x.size > 0 and bool(test(x).any())


def _fix_real_lt_zero(x):
    x = asarray(x)
    return _to_complex(x) if _real_and_any(x, lambda v: v < 0) else x


def _fix_real_abs_gt_1(x):
    x = asarray(x)
    return _to_complex(x) if _real_and_any(x, lambda v: _ufuncs.absolute(v) > 1) else x


def _fix_int_lt_zero(p):
    """A negative power turns an integer exponent into a float one (NumPy's ``p * 1.0``)."""
    p = asarray(p)
    return p * 1.0 if _real_and_any(p, lambda v: v < 0) else p


# The unary functions: the ufunc, and what sends its input to the complex domain.
_UNARY = [
    ("sqrt", _fix_real_lt_zero, "The square root of x"),
    ("log", _fix_real_lt_zero, "The natural logarithm of x"),
    ("log10", _fix_real_lt_zero, "The base-10 logarithm of x"),
    ("log2", _fix_real_lt_zero, "The base-2 logarithm of x"),
    ("arccos", _fix_real_abs_gt_1, "The inverse cosine of x"),
    ("arcsin", _fix_real_abs_gt_1, "The inverse sine of x"),
    ("arctanh", _fix_real_abs_gt_1, "The inverse hyperbolic tangent of x"),
]
_DOMAINS = {_fix_real_lt_zero: "with a negative element", _fix_real_abs_gt_1: "with an element past +-1"}


def _unary(name, fix, what):
    ufunc = getattr(_ufuncs, name)

    def function(x):
        return ufunc(fix(x))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"{what}; of a real input {_DOMAINS[fix]}, in the complex domain (numpy.emath.{name})."
    return function


for _name, _fix, _what in _UNARY:
    globals()[_name] = _unary(_name, _fix, _what)
del _name, _fix, _what


def logn(n, x):
    """The base-n logarithm of x, log(x) / log(n), each in the complex domain as log's."""
    return _ufuncs.true_divide(_ufuncs.log(_fix_real_lt_zero(x)), _ufuncs.log(_fix_real_lt_zero(n)))


def power(x, p):
    """x ** p; a real x with a negative element goes complex, and a negative integer power float."""
    return _ufuncs.power(_fix_real_lt_zero(x), _fix_int_lt_zero(p))
