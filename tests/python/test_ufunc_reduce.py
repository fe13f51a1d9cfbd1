"""ufunc.reduce against numpy.ufunc.reduce on random data: every kind of binary ufunc (the six with a
reduction of their own, the other reorderable ones, the ordered ones), axes, keepdims, initial,
where, out, empty inputs, NumPy's errors, and NumPy's functions dispatching here."""
import numpy as np
import pytest

import cuarray as cp

from helpers import assert_allclose_np, random_array

# ufunc -> dtypes and the value range its random inputs take (no overflow, no division by zero)
CASES = {
    "add": ([np.int8, np.int32, np.float32, np.float64], None),
    "multiply": ([np.int16, np.float64], (1, 2)),
    "maximum": ([np.int32, np.float32], None),
    "minimum": ([np.uint8, np.float64], None),
    "logical_and": ([np.bool_, np.float32], None),
    "logical_or": ([np.bool_, np.int8], None),
    "subtract": ([np.int32, np.float32, np.float64], None),
    "divide": ([np.float64], (1, 4)),
    "floor_divide": ([np.int32], (1, 9)),
    "power": ([np.float64], (0.5, 1.5)),
    "arctan2": ([np.float32], (-3, 3)),
    "bitwise_and": ([np.int8, np.uint16], None),
    "bitwise_or": ([np.uint8, np.int64], None),
    "bitwise_xor": ([np.int32], None),
    "logical_xor": ([np.bool_], None),
    "gcd": ([np.int32], (1, 60)),
    "lcm": ([np.int16], (1, 6)),
    "hypot": ([np.float64], (-3, 3)),
    "logaddexp": ([np.float32, np.float64], (-3, 3)),
    "fmax": ([np.float64], None),
    "fmin": ([np.float32], None),
}
REORDERABLE = {"add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "bitwise_and", "bitwise_or",
               "bitwise_xor", "logical_xor", "gcd", "hypot", "logaddexp", "fmax", "fmin"}
PARAMS = [(name, np.dtype(dtype)) for name, (dtypes, _) in CASES.items() for dtype in dtypes]


def _inputs(name, dtype, shape, rng):
    value_range = CASES[name][1]
    if value_range is None or dtype == np.bool_:
        host = random_array(shape, dtype, rng)
    else:
        host = random_array(shape, dtype, rng, low=value_range[0], high=value_range[1])
    return host, cp.asarray(host)


# NumPy's AVX-512 loops of these reduce a contiguous axis to a[0] op a[-1] (NumPy 2.4, 2.5): their
# reference is the left fold, NumPy's accumulate's last element, which is what reduce means.
NUMPY_SIMD_REDUCE_BUG = {"power", "arctan2"}


def _numpy_reduce(name, host, axis, keepdims):
    if name in NUMPY_SIMD_REDUCE_BUG and axis != ():
        fold = np.take(getattr(np, name).accumulate(host, axis=axis), -1, axis=axis)
        return np.expand_dims(fold, axis) if keepdims else fold
    return getattr(np, name).reduce(host, axis=axis, keepdims=keepdims)


def _check(got, want):
    assert isinstance(got, cp.ndarray)
    assert_allclose_np(got, np.asarray(want), rtol=1e-5 if np.asarray(want).dtype.itemsize <= 4 else 1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("name,dtype", PARAMS, ids=[f"{n}-{d.name}" for n, d in PARAMS])
def test_reduce_matches_numpy(name, dtype, rng):
    host, dev = _inputs(name, dtype, (4, 5, 6), rng)
    ours = getattr(cp, name)
    axes = [0, 1, -1, None, ()] + ([(0, 2), (1, 2)] if name in REORDERABLE else [])
    for axis in axes:
        if axis is None and name not in REORDERABLE:
            continue  # NumPy refuses several axes for these (below)
        for keepdims in (False, True):
            _check(ours.reduce(dev, axis=axis, keepdims=keepdims), _numpy_reduce(name, host, axis, keepdims))
    strided = dev[::2, :, ::-3]  # a view with negative and stepped strides
    _check(ours.reduce(strided, axis=1), _numpy_reduce(name, host[::2, :, ::-3], 1, False))
    _check(ours.reduce(dev[0, 0]), _numpy_reduce(name, host[0, 0], 0, False))  # 1-D to a 0-d array (NumPy: a scalar)


@pytest.mark.gpu
def test_reduction_starts_from_the_identity(rng):
    # NumPy: hypot.reduce([-2.0]) is hypot(0, -2.0) = 2.0; gcd.reduce([-4]) is 4; add.reduce([-0.0]) is 0.0.
    for name, host in [("hypot", np.array([[-2.0, 3.0]])), ("gcd", np.array([[-4, 6]])), ("add", np.array([[-0.0, 1.0]])),
                       ("logaddexp", np.array([[-1.5, 0.5]])), ("bitwise_and", np.array([[5, -3]], np.int8))]:
        dev = cp.asarray(host)
        for axis in (0, ()):
            got, want = getattr(cp, name).reduce(dev, axis=axis), getattr(np, name).reduce(host, axis=axis)
            _check(got, want)
            assert np.array_equal(np.signbit(got.get()), np.signbit(want)), (name, axis)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["subtract", "bitwise_or", "gcd", "maximum", "add", "logaddexp"])
def test_initial_where_and_out(name, rng):
    dtype = np.dtype(CASES[name][0][0])
    host, dev = _inputs(name, dtype, (3, 7), rng)
    ours, numpys = getattr(cp, name), getattr(np, name)
    initial = dtype.type(2)
    _check(ours.reduce(dev, axis=1, initial=initial), numpys.reduce(host, axis=1, initial=initial))
    if name != "subtract":  # where= needs a reorderable ufunc (and, without an identity, initial=)
        mask = rng.random((3, 7)) < 0.6
        _check(ours.reduce(dev, axis=1, where=cp.asarray(mask), initial=initial),
               numpys.reduce(host, axis=1, where=mask, initial=initial))
        if numpys.identity is not None:
            _check(ours.reduce(dev, axis=0, where=mask), numpys.reduce(host, axis=0, where=mask))
    out_dtype = np.int64 if name in ("bitwise_or", "gcd") else np.float64  # the loop runs in out's dtype
    out = cp.empty(7, out_dtype)
    assert ours.reduce(dev, axis=0, out=out) is out
    _check(out, numpys.reduce(host, axis=0, out=np.empty(7, out_dtype)))
    assert ours.reduce(dev, axis=0, out=(out,)) is out  # the tuple form NumPy hands __array_ufunc__


@pytest.mark.gpu
def test_dtype_argument_and_empty_inputs(rng):
    host = random_array((5, 3), np.int8, rng)
    dev = cp.asarray(host)
    for name, dtypes in [("add", (np.int16, np.float64)), ("bitwise_or", (np.int16, np.int64)),
                         ("subtract", (np.int16, np.float64)), ("maximum", (np.int16, np.float64))]:
        for dtype in dtypes:
            _check(getattr(cp, name).reduce(dev, axis=0, dtype=dtype), getattr(np, name).reduce(host, axis=0, dtype=dtype))
    with pytest.raises(TypeError):  # NumPy has no float loop for it either
        cp.bitwise_or.reduce(dev, axis=0, dtype=np.float64)
    empty, empty_host = cp.zeros((0, 4), np.uint8), np.zeros((0, 4), np.uint8)
    for name in ("bitwise_and", "bitwise_or", "add", "multiply", "logical_and", "hypot"):
        _check(getattr(cp, name).reduce(empty, axis=0), getattr(np, name).reduce(empty_host, axis=0))
    _check(cp.subtract.reduce(empty, axis=0, initial=7), np.subtract.reduce(empty_host, axis=0, initial=7))
    for name in ("subtract", "maximum", "fmin"):
        with pytest.raises(ValueError, match=f"zero-size array to reduction operation {name} which has no identity"):
            getattr(cp, name).reduce(empty, axis=0)
    with pytest.raises(OverflowError):
        cp.bitwise_or.reduce(cp.ones(3, np.uint8), initial=-1)


@pytest.mark.gpu
def test_numpys_errors():
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match="reduction operation 'subtract' is not reorderable, so at most one axis"):
        cp.subtract.reduce(x, axis=(0, 1))
    with pytest.raises(ValueError, match="not reorderable"):
        cp.divide.reduce(x, axis=None)
    with pytest.raises(np.exceptions.AxisError):
        cp.bitwise_or.reduce(cp.ones(3, np.int32), axis=1)
    with pytest.raises(ValueError, match="does not have an identity, so to use a where mask one has to specify"):
        cp.maximum.reduce(x, where=cp.asarray([[True, False, True]] * 2))
    assert float(cp.subtract.reduce(cp.asarray(np.float64(3.0)), axis=None)) == 3.0


def test_reduce_needs_a_binary_single_output_ufunc():
    with pytest.raises(ValueError, match="reduce only supported for binary functions"):
        cp.sin.reduce([1.0, 2.0])
    with pytest.raises(ValueError, match="reduce only supported for functions returning a single value"):
        cp.divmod.reduce([1.0, 2.0])


def test_out_arguments_are_checked_as_numpy_checks_them():
    for method in (lambda out: cp.add.reduce([1.0], out=out), lambda out: cp.add.accumulate([1.0], out=out),
                   lambda out: cp.add.reduceat([1.0], [0], out=out), lambda out: cp.subtract.reduce([1.0], out=out),
                   lambda out: cp.matmul([[1.0]], [[1.0]], out=out)):
        with pytest.raises(ValueError, match="The 'out' tuple must have exactly one entry per ufunc output"):
            method((None, None))
        with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
            method(np.zeros(1))


def test_identities_are_numpys():
    for name in CASES:
        ours, numpys = getattr(cp, name).identity, getattr(np, name).identity
        assert (ours is None and numpys is None) or ours == numpys or (ours != ours and numpys != numpys), name


@pytest.mark.gpu
def test_numpys_ufunc_methods_dispatch_here(rng):
    host = random_array((6, 4), np.int32, rng, low=-50, high=50)
    dev = cp.asarray(host)
    for name in ("maximum", "bitwise_xor", "subtract", "add"):
        got = getattr(np, name).reduce(dev, axis=0)
        assert isinstance(got, cp.ndarray)
        _check(got, getattr(np, name).reduce(host, axis=0))
    _check(np.multiply.outer(dev[0], dev[1]), np.multiply.outer(host[0], host[1]))
    _check(np.add.reduceat(dev, [0, 2, 5], axis=0), np.add.reduceat(host, [0, 2, 5], axis=0))
    _check(np.subtract.accumulate(dev, axis=1), np.subtract.accumulate(host, axis=1))
    counts, counts_host = cp.zeros(5, np.int64), np.zeros(5, np.int64)
    np.add.at(counts, cp.asarray([0, 1, 1, 4]), 1)
    np.add.at(counts_host, [0, 1, 1, 4], 1)
    _check(counts, counts_host)
