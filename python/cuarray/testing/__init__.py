"""cuarray.testing: NumPy's assertions, accepting cuarray and NumPy arrays (and lists, tuples and
dicts of them) in any mix: device arrays are copied to the host, then numpy.testing compares."""
import numpy.testing as _npt

from .._host_arguments import on_host

assert_allclose = on_host(_npt.assert_allclose)
assert_almost_equal = on_host(_npt.assert_almost_equal)
assert_approx_equal = on_host(_npt.assert_approx_equal)
assert_array_almost_equal = on_host(_npt.assert_array_almost_equal)
assert_array_almost_equal_nulp = on_host(_npt.assert_array_almost_equal_nulp)
assert_array_equal = on_host(_npt.assert_array_equal)
assert_array_less = on_host(_npt.assert_array_less)
assert_array_max_ulp = on_host(_npt.assert_array_max_ulp)
assert_equal = on_host(_npt.assert_equal)
assert_string_equal = _npt.assert_string_equal

# Assertions about exceptions and warnings take no arrays: NumPy's own.
from numpy.testing import (assert_, assert_no_warnings, assert_raises, assert_raises_regex,  # noqa: E402
                           assert_warns, suppress_warnings)

__all__ = ["assert_", "assert_allclose", "assert_almost_equal", "assert_approx_equal",
           "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_equal",
           "assert_array_less", "assert_array_max_ulp", "assert_equal", "assert_no_warnings",
           "assert_raises", "assert_raises_regex", "assert_string_equal", "assert_warns",
           "suppress_warnings"]
