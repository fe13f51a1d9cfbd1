"""cuarray.testing: NumPy's assertions, accepting cuarray and NumPy arrays (and lists, tuples and
dicts of them) in any mix, and CuPy's testing helpers, so that test suites written for CuPy
(``from cupy import testing``) run unchanged:

- the NumPy-consistency decorators (numpy_cupy_allclose, numpy_cupy_array_equal, ...), which run a
  test with xp=cuarray and xp=numpy and compare what it returns (_numpy_cupy.py);
- the parameter loops (for_all_dtypes, for_dtypes_combination, for_orders, for_contiguous_axes, ...;
  _loops.py);
- test inputs (shaped_arange, shaped_random, generate_matrix, ...; _arrays.py);
- class parameters (product, product_dict, parameterize; _parameterized.py);
- conditions (installed, numpy_satisfies, with_requires, multi_gpu, slow; _conditions.py);
- fixed random seeds for a test (fix_random; _random.py).

Only the assertions load with ``import cuarray``; the helpers load on first use (import time counts
for every user, most of whom never test).
"""
from numpy.testing import (assert_, assert_no_warnings, assert_raises, assert_raises_regex,  # noqa: F401
                           assert_string_equal, assert_warns, suppress_warnings)

from .._array.host_arguments import on_host  # noqa: F401  (also used by the host writers)
from ._assertions import (assert_allclose, assert_almost_equal, assert_approx_equal,  # noqa: F401
                          assert_array_almost_equal, assert_array_almost_equal_nulp, assert_array_equal,
                          assert_array_less, assert_array_list_equal, assert_array_max_ulp, assert_equal)

# CuPy's helper -> the module of this package that defines it.
_HELPERS = {
    **dict.fromkeys(["numpy_cupy_allclose", "numpy_cupy_array_almost_equal", "numpy_cupy_array_almost_equal_nulp",
                     "numpy_cupy_array_max_ulp", "numpy_cupy_array_equal", "numpy_cupy_array_list_equal",
                     "numpy_cupy_array_less", "numpy_cupy_equal"], "_numpy_cupy"),
    **dict.fromkeys(["for_dtypes", "for_all_dtypes", "for_float_dtypes", "for_signed_dtypes", "for_unsigned_dtypes",
                     "for_int_dtypes", "for_complex_dtypes", "for_dtypes_combination", "for_all_dtypes_combination",
                     "for_signed_dtypes_combination", "for_unsigned_dtypes_combination",
                     "for_int_dtypes_combination", "for_orders", "for_CF_orders", "for_contiguous_axes"], "_loops"),
    **dict.fromkeys(["shaped_arange", "shaped_reverse_arange", "shaped_random", "shaped_linspace",
                     "generate_matrix"], "_arrays"),
    **dict.fromkeys(["product", "product_dict", "parameterize"], "_parameterized"),
    **dict.fromkeys(["installed", "numpy_satisfies", "with_requires", "multi_gpu"], "_conditions"),
    "fix_random": "_random",
}


def __getattr__(name):
    if name == "slow":  # a pytest mark: pytest loads only when asked for
        import pytest
        return pytest.mark.slow
    if name not in _HELPERS:
        raise AttributeError(f"module 'cuarray.testing' has no attribute '{name}'")
    import importlib
    value = getattr(importlib.import_module(f"{__name__}.{_HELPERS[name]}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


__all__ = ["assert_", "assert_allclose", "assert_almost_equal", "assert_approx_equal",
           "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_equal",
           "assert_array_less", "assert_array_list_equal", "assert_array_max_ulp", "assert_equal",
           "assert_no_warnings", "assert_raises", "assert_raises_regex", "assert_string_equal", "assert_warns",
           "suppress_warnings", "slow", *_HELPERS]


def __dir__():
    return sorted(set(globals()) | set(__all__))
