"""cuarray.testing: NumPy's assertions, accepting device arrays."""
import numpy as _np

from .._creation import asnumpy


def assert_array_equal(actual, desired, *args, **kwargs):
    _np.testing.assert_array_equal(asnumpy(actual), asnumpy(desired), *args, **kwargs)


def assert_allclose(actual, desired, *args, **kwargs):
    _np.testing.assert_allclose(asnumpy(actual), asnumpy(desired), *args, **kwargs)


def assert_array_almost_equal(actual, desired, *args, **kwargs):
    _np.testing.assert_array_almost_equal(asnumpy(actual), asnumpy(desired), *args, **kwargs)
