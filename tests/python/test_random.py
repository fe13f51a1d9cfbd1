"""cuarray.random: seeding reproduces, shapes and dtypes follow NumPy's API, values lie in the
half-open range and look uniform (mean, variance, histogram on 1e6 samples)."""
import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

N = 1_000_000


def _host(g, dtype=np.float64):
    assert type(g) is cp.ndarray, type(g)
    assert g.dtype == dtype, g.dtype
    return cp.asnumpy(g)


def assert_uniform(values, low=0.0, high=1.0):
    """In [low, high); mean, variance and 10-bin histogram of U(low, high) (tolerances > 10 sigma)."""
    width = high - low
    assert values.min() >= low and values.max() < high, (values.min(), values.max())
    assert abs(values.mean() - (low + high) / 2) < 5e-3 * width
    assert abs(values.var() - width**2 / 12) < 2e-3 * width**2
    counts, _ = np.histogram(values, bins=10, range=(low, high))
    assert np.all(np.abs(counts / values.size - 0.1) < 5e-3), counts
    assert np.unique(values[:1000]).size > 990  # not a handful of repeated values


SAMPLERS = {
    "random": lambda size: cp.random.random(size),
    "random_sample": lambda size: cp.random.random_sample(size),
    "rand": lambda size: cp.random.rand(*size) if isinstance(size, tuple) else cp.random.rand(size),
    "uniform": lambda size: cp.random.uniform(0.0, 1.0, size),
}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_seed_reproduces(name):
    cp.random.seed(1234)
    a = _host(SAMPLERS[name]((1000,)))
    b = _host(SAMPLERS[name]((1000,)))
    cp.random.seed(1234)
    a_again = _host(SAMPLERS[name]((1000,)))
    b_again = _host(SAMPLERS[name]((1000,)))
    np.testing.assert_array_equal(a, a_again)
    np.testing.assert_array_equal(b, b_again)
    assert not np.array_equal(a, b), "consecutive calls must give different numbers"
    cp.random.seed(4321)
    assert not np.array_equal(_host(SAMPLERS[name]((1000,))), a), "another seed, other numbers"


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_shapes_and_distribution(name):
    cp.random.seed(7)
    for size in [(3, 4), (2, 3, 4), (0,), (5,)]:
        assert _host(SAMPLERS[name](size)).shape == size
    assert_uniform(_host(SAMPLERS[name]((N,))))


def test_scalar_size_and_rand_without_arguments():
    assert cp.random.random(5).shape == (5,)
    assert cp.random.rand(3, 4).shape == (3, 4)
    r = cp.random.rand()
    assert isinstance(r, (float, cp.ndarray)) and 0.0 <= float(r) < 1.0


@pytest.mark.parametrize("low, high", [(-3.0, 5.0), (10, 11), (-1e-3, 1e-3), (2.5, 2.5 + 1e6)])
def test_uniform_range(low, high):
    cp.random.seed(99)
    values = _host(cp.random.uniform(low, high, (N,)))
    assert_uniform(values, low, high)
    assert _host(cp.random.uniform(low, high, size=(2, 3))).shape == (2, 3)


def test_uniform_array_bounds():
    low = cp.asarray(np.array([0.0, 10.0, -5.0]))
    high = cp.asarray(np.array([1.0, 20.0, -4.0]))
    values = _host(cp.random.uniform(low, high, size=(1000, 3)))
    assert np.all(values >= cp.asnumpy(low)) and np.all(values < cp.asnumpy(high))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generator_random(dtype):
    rng = cp.random.default_rng(2024)
    values = _host(rng.random(N, dtype=dtype), dtype)
    assert_uniform(values.astype(np.float64))
    assert values.max() < 1.0  # float32 rounding must not produce 1.0
    shaped = rng.random((3, 5), dtype=dtype)
    assert shaped.shape == (3, 5) and shaped.dtype == dtype


def test_generator_seeding():
    a = _host(cp.random.default_rng(42).random(1000))
    b = _host(cp.random.default_rng(42).random(1000))
    c = _host(cp.random.default_rng(43).random(1000))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    rng = cp.random.default_rng(42)
    first, second = _host(rng.random(1000)), _host(rng.random(1000))
    np.testing.assert_array_equal(first, a)
    assert not np.array_equal(first, second)


def test_generator_default_dtype_is_float64():
    assert cp.random.default_rng(0).random(4).dtype == np.float64
    assert cp.random.random(4).dtype == np.float64


def test_independent_of_numpy_global_state():
    cp.random.seed(5)
    a = _host(cp.random.random(100))
    np.random.seed(123)
    np.random.random(10)
    cp.random.seed(5)
    np.testing.assert_array_equal(_host(cp.random.random(100)), a)
