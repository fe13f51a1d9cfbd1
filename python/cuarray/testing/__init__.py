"""cuarray.testing: NumPy's assertions, accepting cuarray and NumPy arrays (and lists, tuples and
dicts of them) in any mix: device arrays are copied to the host, then numpy.testing compares."""
import functools

import numpy.testing as _npt

from .._core import ndarray
from .._creation import asnumpy


def _host(x):
    if isinstance(x, ndarray):
        return asnumpy(x)
    if type(x) in (list, tuple):
        return type(x)(_host(v) for v in x)
    if type(x) is dict:
        return {k: _host(v) for k, v in x.items()}
    return x


def _comparing(assertion, n_arrays=2):
    """numpy.testing's `assertion` with its first `n_arrays` arguments brought to the host."""
    @functools.wraps(assertion)
    def compare(*args, **kwargs):
        args = tuple(_host(a) if i < n_arrays else a for i, a in enumerate(args))
        for name in ("actual", "desired", "x", "y", "a", "b"):
            if name in kwargs:
                kwargs[name] = _host(kwargs[name])
        return assertion(*args, **kwargs)
    return compare


assert_allclose = _comparing(_npt.assert_allclose)
assert_almost_equal = _comparing(_npt.assert_almost_equal)
assert_approx_equal = _comparing(_npt.assert_approx_equal)
assert_array_almost_equal = _comparing(_npt.assert_array_almost_equal)
assert_array_almost_equal_nulp = _comparing(_npt.assert_array_almost_equal_nulp)
assert_array_equal = _comparing(_npt.assert_array_equal)
assert_array_less = _comparing(_npt.assert_array_less)
assert_array_max_ulp = _comparing(_npt.assert_array_max_ulp)
assert_equal = _comparing(_npt.assert_equal)
assert_string_equal = _npt.assert_string_equal

# Assertions about exceptions and warnings take no arrays: NumPy's own.
from numpy.testing import (assert_, assert_no_warnings, assert_raises, assert_raises_regex,  # noqa: E402
                           assert_warns, suppress_warnings)

__all__ = ["assert_", "assert_allclose", "assert_almost_equal", "assert_approx_equal",
           "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_equal",
           "assert_array_less", "assert_array_max_ulp", "assert_equal", "assert_no_warnings",
           "assert_raises", "assert_raises_regex", "assert_string_equal", "assert_warns",
           "suppress_warnings"]
