"""NumPy interoperability: NumPy ufuncs and functions dispatch to cuarray (__array_ufunc__,
__array_function__) and return GPU arrays; implicit conversion to NumPy is refused."""
import numpy as np
import pytest

import cuarray as cp

from helpers import assert_allclose_np, assert_array_equal_np, random_array

pytestmark = pytest.mark.gpu


@pytest.fixture
def pair(rng):
    host = random_array((3, 4), np.float32, rng)
    return host, cp.asarray(host)


def test_numpy_ufunc_on_gpu_arrays_returns_gpu_array(pair):
    host, g = pair
    assert_array_equal_np(np.add(g, g), np.add(host, host))
    assert_allclose_np(np.sin(g), np.sin(host))
    assert_array_equal_np(np.maximum(g, 0.5), np.maximum(host, 0.5))
    assert_array_equal_np(np.add(2, g), np.add(2, host))
    q, r = np.divmod(g, 3)
    assert_allclose_np(q, np.divmod(host, 3)[0])
    assert_allclose_np(r, np.divmod(host, 3)[1])


def test_numpy_ufunc_with_gpu_out(pair):
    host, g = pair
    out = cp.empty((3, 4), dtype=np.float32)
    assert np.multiply(g, g, out=out) is out
    assert_array_equal_np(out, host * host)


def test_numpy_ufunc_methods_dispatch(pair):
    host, g = pair
    assert_allclose_np(np.add.reduce(g, axis=0), np.add.reduce(host, axis=0))


def test_numpy_functions_dispatch(pair):
    host, g = pair
    assert_allclose_np(np.sum(g), np.sum(host))
    assert_allclose_np(np.sum(g, axis=1), np.sum(host, axis=1))
    assert_array_equal_np(np.reshape(g, (4, 3)), np.reshape(host, (4, 3)))
    assert_array_equal_np(np.transpose(g), np.transpose(host))
    assert_array_equal_np(np.transpose(g, (1, 0)), np.transpose(host, (1, 0)))


def test_numpy_reshape_returns_a_view(pair):
    host, g = pair
    r = np.reshape(g, (12,))
    r[0] = -1.0
    host.reshape(12)[0] = -1.0
    assert_array_equal_np(g, host)


def _unimplemented_numpy_function():
    """A NumPy function with __array_function__ dispatch that cuarray does not provide."""
    candidates = [("busday_count", lambda g: np.busday_count(g, g)),
                  ("is_busday", lambda g: np.is_busday(g)),
                  ("datetime_as_string", lambda g: np.datetime_as_string(g))]
    for name, call in candidates:
        if not hasattr(cp, name):
            return name, call
    pytest.skip("cuarray implements every candidate function")


def test_unimplemented_numpy_function_raises_type_error(pair):
    _, g = pair
    name, call = _unimplemented_numpy_function()
    with pytest.raises(TypeError):
        call(g)


@pytest.mark.parametrize("convert", [np.asarray, np.array, np.ascontiguousarray],
                         ids=lambda f: f.__name__)
def test_implicit_conversion_to_numpy_is_refused(pair, convert):
    _, g = pair
    with pytest.raises(TypeError) as info:
        convert(g)
    assert "asnumpy" in str(info.value), f"the message should point to cp.asnumpy: {info.value}"


def test_numpy_out_on_gpu_ufunc_raises_type_error(pair):
    host, g = pair
    with pytest.raises(TypeError):
        cp.add(g, g, out=np.empty((3, 4), dtype=np.float32))
    with pytest.raises(TypeError):
        np.add(g, g, out=np.empty((3, 4), dtype=np.float32))


def test_gpu_ufunc_refuses_numpy_operands_or_converts_consistently(pair):
    """Mixing a host array into a GPU ufunc must not silently return a NumPy array."""
    host, g = pair
    try:
        result = cp.add(g, host)
    except TypeError:
        return
    assert_array_equal_np(result, host + host)


def test_gpu_arrays_in_numpy_function_with_host_arrays_do_not_return_numpy(pair):
    host, g = pair
    try:
        result = np.add(host, g)
    except TypeError:
        return
    assert type(result) is cp.ndarray
