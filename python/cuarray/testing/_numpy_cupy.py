"""CuPy's NumPy-consistency decorators (cupy.testing.numpy_cupy_allclose, ..._array_equal, ...):
the decorated test runs twice, with its array-module argument (``xp`` by default) set to cuarray
and then to numpy, and must return the arrays to compare (one, or a list or tuple of them). The two
runs agree when both raise compatible errors that the decorator accepts (accept_error), or when
their results pair up (a cuarray array with a NumPy array, or a 0-d cuarray array with a NumPy
scalar) with equal shapes, equal dtypes (type_check), NumPy's contiguity kept (contiguous_check,
numpy_cupy_allclose only) and values that pass the decorator's numpy.testing comparison.

cuarray has no cupyx.scipy: a test that asks for it (sp_name, scipy_name) is skipped, saying so."""
import traceback
import unittest
import warnings

import numpy

import cuarray
from . import _assertions
from ._wrapping import fills, skip_exceptions

# Errors that count as the same when both runs raise: each run's error must be an instance of the
# same ones of these.
_PUBLIC_ERRORS = (ArithmeticError, AssertionError, AttributeError, FloatingPointError, IndexError,
                  KeyError, LookupError, MemoryError, NotImplementedError, OverflowError, RuntimeError,
                  TypeError, ValueError, ZeroDivisionError, numpy.exceptions.AxisError,
                  numpy.exceptions.TooHardError)


def _run(impl, args, kw, name, module):
    """(result, error, traceback) of the test with `name` set to module."""
    try:
        result = impl(*args, **kw, **{name: module})
    except skip_exceptions():
        raise
    except Exception as e:
        return None, e, traceback.format_exc()
    if result is None:
        raise AssertionError(f"the test returned None with {name}={module.__name__}: a test under a "
                             "numpy_cupy decorator returns the arrays to compare")
    return result, None, None


def _check_errors(gpu_error, gpu_tb, numpy_error, numpy_tb, accept_error):
    if gpu_error is None:
        raise AssertionError(f"Only numpy raises an error\n\n{numpy_tb}")
    if numpy_error is None:
        raise AssertionError(f"Only cuarray raises an error\n\n{gpu_tb}")
    if any(isinstance(gpu_error, e) != isinstance(numpy_error, e) for e in _PUBLIC_ERRORS):
        raise AssertionError(f"Different types of errors occurred\n\ncuarray\n{gpu_tb}\nnumpy\n{numpy_tb}")
    accepted = Exception if accept_error is True else (accept_error or ())
    if not (isinstance(gpu_error, accepted) and isinstance(numpy_error, accepted)):
        raise AssertionError(f"Both cuarray and numpy raise exceptions\n\ncuarray\n{gpu_tb}\nnumpy\n{numpy_tb}")


def _scalar(x):
    return isinstance(x, (numpy.number, numpy.bool_))


def _pair(gpu, host):
    """The two results as (cuarray array or NumPy array, NumPy array), or an AssertionError."""
    if isinstance(gpu, cuarray.ndarray) and isinstance(host, numpy.ndarray):
        return gpu, host
    if isinstance(gpu, cuarray.ndarray) and gpu.ndim == 0 and _scalar(host):
        return gpu, numpy.asarray(host)  # NumPy's scalar for a 0-d array
    if _scalar(gpu) and _scalar(host):
        return numpy.asarray(gpu), numpy.asarray(host)
    raise AssertionError(f"numpy and cuarray return different types of value:\ncuarray: {type(gpu)}\n"
                         f"numpy: {type(host)}")


def _check_results(gpu_result, numpy_result, check, type_check, contiguous_check):
    gpu_results = gpu_result if isinstance(gpu_result, (tuple, list)) else (gpu_result,)
    numpy_results = numpy_result if isinstance(numpy_result, (tuple, list)) else (numpy_result,)
    if len(gpu_results) != len(numpy_results):
        raise AssertionError(f"cuarray returns {len(gpu_results)} values and numpy {len(numpy_results)}")
    pairs = [_pair(g, h) for g, h in zip(gpu_results, numpy_results)]
    for (gpu, host), host_result in zip(pairs, numpy_results):
        if type_check and gpu.dtype != host.dtype:
            raise AssertionError(f"ndarrays of different dtypes are returned.\ncuarray: {gpu.dtype}\n"
                                 f"numpy: {host.dtype}")
        if contiguous_check and isinstance(host_result, numpy.ndarray):
            for flag in ("c_contiguous", "f_contiguous"):
                if getattr(host.flags, flag) and not getattr(gpu.flags, flag):
                    raise AssertionError(f"numpy's result is {flag} and cuarray's is not (cuarray strides "
                                         f"{gpu.strides}, numpy strides {host.strides})")
        if gpu.shape != host.shape:
            raise AssertionError(f"shapes differ: cuarray {gpu.shape}, numpy {host.shape}")
        check(gpu, host)


def _consistency(check, name, type_check, contiguous_check, accept_error, sp_name, scipy_name):
    """The decorator that runs the test with cuarray and numpy and compares as described above."""
    filled = tuple(n for n in (name, sp_name, scipy_name) if n is not None)

    def decorator(impl):
        @fills(impl, *filled)
        def test_func(*args, **kw):
            _refuse_scipy(sp_name, scipy_name)
            gpu_result, gpu_error, gpu_tb = _run(impl, args, kw, name, cuarray)
            numpy_result, numpy_error, numpy_tb = _run(impl, args, kw, name, numpy)
            if gpu_error is not None or numpy_error is not None:
                _check_errors(gpu_error, gpu_tb, numpy_error, numpy_tb, accept_error)
                return
            _check_results(gpu_result, numpy_result, check, type_check, contiguous_check)
        return test_func
    return decorator


def _refuse_scipy(sp_name, scipy_name):
    if sp_name is not None or scipy_name is not None:
        raise unittest.SkipTest("cuarray has no cupyx.scipy: a test given scipy or scipy.sparse "
                                f"(sp_name={sp_name!r}, scipy_name={scipy_name!r}) cannot run")


def _tolerance(tolerance, dtype):
    """A tolerance, or the one a {dtype: tolerance, 'default': tolerance} dict gives dtype."""
    if not isinstance(tolerance, dict):
        return tolerance
    for key, value in tolerance.items():
        if not (isinstance(key, str) and key == "default") and numpy.dtype(key) == dtype:
            return value
    if "default" in tolerance:
        return tolerance["default"]
    raise TypeError(f"no tolerance is given for {dtype} (and no 'default')")


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp", type_check=True,
                        accept_error=False, sp_name=None, scipy_name=None, contiguous_check=True, *,
                        _check_sparse_format=True):
    """The results are close (numpy.testing.assert_allclose; rtol and atol may be dicts by dtype)."""
    def check(gpu, host):
        _assertions.assert_allclose(gpu, host, _tolerance(rtol, gpu.dtype), _tolerance(atol, gpu.dtype),
                                    err_msg=err_msg, verbose=verbose)
    return _consistency(check, name, type_check, contiguous_check, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True, name="xp", type_check=True,
                                  accept_error=False, sp_name=None, scipy_name=None):
    def check(gpu, host):
        _assertions.assert_array_almost_equal(gpu, host, decimal, err_msg, verbose)
    return _consistency(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal_nulp(nulp=1, name="xp", type_check=True, accept_error=False, sp_name=None,
                                       scipy_name=None):
    def check(gpu, host):
        _assertions.assert_array_almost_equal_nulp(gpu, host, nulp)
    return _consistency(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_max_ulp(maxulp=1, dtype=None, name="xp", type_check=True, accept_error=False, sp_name=None,
                             scipy_name=None):
    def check(gpu, host):
        _assertions.assert_array_max_ulp(gpu, host, maxulp, dtype)
    return _consistency(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False, sp_name=None,
                           scipy_name=None, strides_check=False):
    """The results are equal (and, with strides_check, have the same strides)."""
    def check(gpu, host):
        _assertions.assert_array_equal(gpu, host, err_msg, verbose, strides_check=strides_check)
    return _consistency(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None, scipy_name=None):
    """Deprecated in CuPy, as here: numpy_cupy_array_equal compares lists of arrays too."""
    warnings.warn("numpy_cupy_array_list_equal is deprecated; use numpy_cupy_array_equal", DeprecationWarning,
                  stacklevel=2)

    def check(gpu, host):
        _assertions.assert_array_equal(gpu, host, err_msg, verbose)
    return _consistency(check, name, False, False, False, sp_name, scipy_name)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False, sp_name=None,
                          scipy_name=None):
    """cuarray's results are less than NumPy's, elementwise."""
    def check(gpu, host):
        _assertions.assert_array_less(gpu, host, err_msg, verbose)
    return _consistency(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_equal(name="xp", sp_name=None, scipy_name=None):
    """The two runs return equal values (==), such as shapes, dtypes or Python numbers."""
    filled = tuple(n for n in (name, sp_name, scipy_name) if n is not None)

    def decorator(impl):
        @fills(impl, *filled)
        def test_func(*args, **kw):
            _refuse_scipy(sp_name, scipy_name)
            gpu_result = impl(*args, **kw, **{name: cuarray})
            numpy_result = impl(*args, **kw, **{name: numpy})
            if gpu_result != numpy_result:
                raise AssertionError(f"Results are not equal:\ncuarray: {gpu_result}\nnumpy: {numpy_result}")
        return test_func
    return decorator
