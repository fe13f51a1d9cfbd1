"""NumPy's assertions on cuarray and NumPy arrays in any mix (device arrays are copied to the host,
then numpy.testing compares), with CuPy's additions: assert_array_equal's strides_check and
assert_array_list_equal."""
import numpy.testing as _npt

from .._array.host_arguments import on_host

assert_allclose = on_host(_npt.assert_allclose)
assert_almost_equal = on_host(_npt.assert_almost_equal)
assert_approx_equal = on_host(_npt.assert_approx_equal)
assert_array_almost_equal = on_host(_npt.assert_array_almost_equal)
assert_array_almost_equal_nulp = on_host(_npt.assert_array_almost_equal_nulp)
assert_array_less = on_host(_npt.assert_array_less)
assert_array_max_ulp = on_host(_npt.assert_array_max_ulp)
assert_equal = on_host(_npt.assert_equal)
_assert_array_equal_on_host = on_host(_npt.assert_array_equal)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False, **kwargs):
    """numpy.testing.assert_array_equal on host copies; with strides_check (CuPy's), x and y must
    also have the same strides."""
    _assert_array_equal_on_host(x, y, err_msg=err_msg, verbose=verbose, **kwargs)
    if strides_check and x.strides != y.strides:
        lines = ["Strides are not equal" + (f": {err_msg}" if err_msg else "")]
        if verbose:
            lines += [f" x: {x.strides}", f" y: {y.strides}"]
        raise AssertionError("\n".join(lines))


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Two lists (or two tuples) of arrays, equal pairwise (CuPy's)."""
    if type(xlist) is not type(ylist):
        raise AssertionError(f"lists or tuples of one type are expected, got {type(xlist).__name__} and "
                             f"{type(ylist).__name__}")
    if type(xlist) not in (list, tuple):
        raise AssertionError(f"a list or tuple is expected, got {type(xlist).__name__}")
    if len(xlist) != len(ylist):
        raise AssertionError(f"the lists' lengths differ: {len(xlist)} and {len(ylist)}")
    for x, y in zip(xlist, ylist):
        _assert_array_equal_on_host(x, y, err_msg=err_msg, verbose=verbose)
