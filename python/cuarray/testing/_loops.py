"""CuPy's parameter loops (cupy.testing.for_dtypes, for_all_dtypes, ..., for_orders,
for_contiguous_axes): the decorated
test runs once for each value (or combination of values) within one test, given as keyword
arguments. Dtypes are passed as NumPy scalar types (numpy.float32), as CuPy passes them. A value
whose run is skipped is reported and the loop goes on (the test is skipped when every run was); a
failure prints the values it had, then raises."""
import itertools
import os
import random

import numpy

from ._wrapping import fills, skip_exceptions


def _describe(keywords):
    return ", ".join(f"{name} = {getattr(value, '__name__', value)}" for name, value in keywords.items())


def _loop(names, keyword_sets):
    """A decorator running the test once with each dict of keyword arguments in keyword_sets."""
    keyword_sets = list(keyword_sets)

    def decorator(impl):
        @fills(impl, *names)
        def test_func(*args, **kw):
            last_skip, ran = None, 0
            for keywords in keyword_sets:
                try:
                    impl(*args, **kw, **keywords)
                except skip_exceptions() as e:
                    print(f"skipped: {_describe(keywords)} ({e})")
                    last_skip = e
                except Exception:
                    print(_describe(keywords))
                    raise
                else:
                    ran += 1
            if ran == 0 and last_skip is not None:
                raise last_skip
        return test_func
    return decorator


_REGULAR_FLOAT = (numpy.float64, numpy.float32)
_FLOAT = _REGULAR_FLOAT + (numpy.float16,)
_COMPLEX = (numpy.complex64, numpy.complex128)
_SIGNED = tuple(numpy.dtype(code).type for code in "bhilq")
_UNSIGNED = tuple(numpy.dtype(code).type for code in "BHILQ")
_INT = _SIGNED + _UNSIGNED


def _int_dtypes(no_bool):
    return _INT if no_bool else _INT + (numpy.bool_,)


def _all_dtypes(no_float16=False, no_bool=False, no_complex=False):
    return (_REGULAR_FLOAT if no_float16 else _FLOAT) + (() if no_complex else _COMPLEX) + _int_dtypes(no_bool)


def for_dtypes(dtypes, name="dtype"):
    """Runs the test with each of dtypes as the keyword argument `name`."""
    return _loop((name,), ({name: numpy.dtype(t).type} for t in dtypes))


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    """for_dtypes over every dtype: floats, complex, signed and unsigned integers and bool."""
    return for_dtypes(_all_dtypes(no_float16, no_bool, no_complex), name=name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes(_REGULAR_FLOAT if no_float16 else _FLOAT, name=name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(_SIGNED, name=name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(_UNSIGNED, name=name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(_int_dtypes(no_bool), name=name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(_COMPLEX, name=name)


def for_dtypes_combination(types, names=("dtype",), full=None):
    """Runs the test with combinations of types as the keyword arguments `names`: all of them when
    full (or, with full=None, when CUPY_TEST_FULL_COMBINATION is 1), else len(types) of them in
    which each name takes every type once, in random order."""
    types = [numpy.dtype(t).type for t in types]
    if full is None:
        full = os.environ.get("CUPY_TEST_FULL_COMBINATION") == "1"
    combinations = (itertools.product(types, repeat=len(names)) if full
                    else zip(*(random.sample(types, len(types)) for _ in names)))
    return _loop(tuple(names), (dict(zip(names, combination)) for combination in combinations))


def for_all_dtypes_combination(names=("dtyes",), no_float16=False, no_bool=False, full=None, no_complex=False):
    # "dtyes" is CuPy's default name, kept so that tests written for CuPy find it.
    return for_dtypes_combination(_all_dtypes(no_float16, no_bool, no_complex), names=names, full=full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_SIGNED, names=names, full=full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_UNSIGNED, names=names, full=full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    return for_dtypes_combination(_int_dtypes(no_bool), names=names, full=full)


def for_orders(orders, name="order"):
    """Runs the test with each of orders as the keyword argument `name`."""
    return _loop((name,), ({name: order} for order in orders))


def for_CF_orders(name="order"):
    return for_orders([None, "C", "F", "c", "f"], name=name)


def for_contiguous_axes(name="axis"):
    """Runs a test method with each run of trailing axes (C order) or leading axes (F order) of
    self.shape, by self.order: for shape (1, 2, 3), (2,), (1, 2), (0, 1, 2) or (0,), (0, 1), (0, 1, 2)."""
    def decorator(impl):
        @fills(impl, name)
        def test_func(self, *args, **kw):
            ndim, order = len(self.shape), self.order
            if order not in ("c", "C", "f", "F"):
                raise ValueError(f"for_contiguous_axes needs self.order 'C' or 'F', not {order!r}")
            for count in range(1, ndim + 1):
                axes = tuple(range(ndim - count, ndim)) if order in ("c", "C") else tuple(range(count))
                try:
                    impl(self, *args, **kw, **{name: axes})
                except Exception:
                    print(f"{name} = {axes}, shape = {self.shape}, order = {order}")
                    raise
        return test_func
    return decorator
