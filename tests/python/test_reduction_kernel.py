"""cuarray.ReductionKernel against NumPy (CuPy's semantics): map/reduce/post-map expressions,
identity, reduce_type, axis=, keepdims=, out= (keyword or positional), several inputs, every
dtype, and the errors. Host-side errors run without a GPU; the rest is marked gpu."""
import numpy as np
import pytest

import cuarray as cp
from helpers import normal_array
from cuarray.cuda.compiler import CompileException

gpu = pytest.mark.gpu

REAL_DTYPES = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64',
               'float16', 'float32', 'float64']


def _random(rng, shape, dtype):
    return normal_array(rng, shape, dtype, ints=(0, 10))


def _l2norm():
    return cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')


# --- host-side -------------------------------------------------------------------------------

def test_constructor_errors():
    with pytest.raises(ValueError, match='Invalid kernel name'):
        cp.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'bad name')
    with pytest.raises(ValueError, match='Syntax error'):
        cp.ReductionKernel('x', 'T y', 'x', 'a + b', 'y = a', '0')
    with pytest.raises(NotImplementedError):
        cp.ReductionKernel('T x', 'T y, T z', 'x', 'a + b', 'y = a', '0')


def test_attributes_and_argument_checks():
    k = _l2norm()
    assert (k.nin, k.nout, k.nargs) == (1, 1, 2)
    assert k.name == 'l2norm' and k.identity == '0' and k.reduce_type is None
    with pytest.raises(TypeError, match='Wrong number of arguments for l2norm'):
        k()
    with pytest.raises(TypeError, match='Wrong arguments'):
        k(1.0, bogus=1)
    with pytest.raises(ValueError, match='Loop size is undecided.'):
        k(1.0)


# --- on the GPU --------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64'])
def test_l2norm(rng, dtype):
    a = _random(rng, (1000,), dtype)
    y = _l2norm()(cp.asarray(a))
    assert y.dtype == np.dtype(dtype) and y.shape == ()
    expected = np.sqrt((a.astype(np.float64) ** 2).sum())
    np.testing.assert_allclose(float(y), expected, rtol=2e-2 if dtype == 'float16' else 1e-5)


@gpu
@pytest.mark.parametrize('dtype', REAL_DTYPES)
def test_sum_of_squares_every_dtype_and_axis(rng, dtype):
    a = _random(rng, (6, 7, 5), dtype)
    k = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', '0', 'sum_sq')
    for axis in [None, 0, 1, 2, (0, 2), (1, 2), -1]:
        got = k(cp.asarray(a), axis=axis)
        if dtype == 'float16':  # accumulates in float16 (reduce_type T), as CuPy's does
            want = (a.astype(np.float32) ** 2).sum(axis=axis).astype(np.float16)
        else:
            want = (a * a).sum(axis=axis, dtype=a.dtype)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(cp.asnumpy(got), want, rtol=3e-2 if dtype == 'float16' else 1e-5)


@gpu
@pytest.mark.parametrize('dtype', ['complex64', 'complex128'])
def test_complex_abs_sum_with_reduce_type(rng, dtype):
    a = _random(rng, (4, 300), dtype)
    k = cp.ReductionKernel('T x', 'float64 y', 'abs(x)', 'a + b', 'y = a', '0', 'abs_sum', reduce_type='double')
    got = k(cp.asarray(a), axis=1)
    assert got.dtype == np.float64
    np.testing.assert_allclose(cp.asnumpy(got), np.abs(a).sum(axis=1), rtol=1e-5)


@gpu
def test_keepdims_and_out(rng):
    a = _random(rng, (5, 8), 'float32')
    k = cp.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'sum_')
    got = k(cp.asarray(a), axis=1, keepdims=True)
    assert got.shape == (5, 1)
    np.testing.assert_allclose(cp.asnumpy(got), a.sum(axis=1, keepdims=True), rtol=1e-5)
    out = cp.empty(5, 'f')
    r = k(cp.asarray(a), axis=1, out=out)
    np.testing.assert_allclose(cp.asnumpy(out), a.sum(axis=1), rtol=1e-5)
    assert r.shape == (5,)
    out2 = cp.empty(8, 'f')
    k(cp.asarray(a), out2, axis=0)  # positional output
    np.testing.assert_allclose(cp.asnumpy(out2), a.sum(axis=0), rtol=1e-5)
    with pytest.raises(ValueError, match="cannot specify 'out' as both"):
        k(cp.asarray(a), out2, axis=0, out=out2)
    with pytest.raises(ValueError, match='Out shape is mismatched'):
        k(cp.asarray(a), axis=0, out=cp.empty(5, 'f'))
    with pytest.raises(TypeError, match='Type is mismatched'):
        k(cp.asarray(a), axis=1, out=cp.empty(5, 'd'))


@gpu
def test_non_contiguous_and_negative_strides(rng):
    a = _random(rng, (40, 30), 'float64')
    k = cp.ReductionKernel('T x', 'T y', 'x', 'max(a, b)', 'y = a', '-1e308', 'maxk')
    view = cp.asarray(a)[::-3, 1::2].T
    for axis in [None, 0, 1]:
        np.testing.assert_array_equal(cp.asnumpy(k(view, axis=axis)), a[::-3, 1::2].T.max(axis=axis))


@gpu
def test_mean_through_ind_sizes(rng):
    a = _random(rng, (9, 11), 'float64')
    k = cp.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a / (_in_ind.size() / _out_ind.size())', '0', 'meank')
    np.testing.assert_allclose(cp.asnumpy(k(cp.asarray(a), axis=0)), a.mean(axis=0))


@gpu
def test_several_inputs_broadcast(rng):
    a, b = _random(rng, (7, 50), 'float32'), _random(rng, (50,), 'float32')
    dot = cp.ReductionKernel('T x, T y', 'T z', 'x * y', 'a + b', 'z = a', '0', 'dot')
    got = dot(cp.asarray(a), cp.asarray(b), axis=1)
    np.testing.assert_allclose(cp.asnumpy(got), (a * b).sum(axis=1), rtol=1e-5)
    with pytest.raises(TypeError, match='Type is mismatched'):
        dot(cp.asarray(a), cp.asarray(b.astype('d')))


@gpu
def test_no_identity(rng):
    a = _random(rng, (64,), 'float32')
    k = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', None, 'noid')
    np.testing.assert_allclose(float(k(cp.asarray(a))), (a * a).sum(), rtol=1e-5)
    with pytest.raises(ValueError, match='zero-size array to reduction operation noid which has no identity'):
        k(cp.empty((0,), 'f'))


@gpu
def test_empty_reduction_with_identity():
    k = cp.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a + 1', '0', 'plus_one')
    got = k(cp.empty((0, 3), 'f'), axis=0)
    np.testing.assert_array_equal(cp.asnumpy(got), np.ones(3, 'f'))


@gpu
def test_large_reduction_splits(rng):
    a = _random(rng, (3_000_000,), 'float32')
    got = _l2norm()(cp.asarray(a))
    np.testing.assert_allclose(float(got), np.sqrt((a.astype(np.float64) ** 2).sum()), rtol=1e-4)


@gpu
def test_compile_error():
    k = cp.ReductionKernel('T x', 'T y', 'x +', 'a + b', 'y = a', '0', 'broken_red')
    with pytest.raises(CompileException) as info:
        k(cp.ones(3, 'f'))
    assert 'broken_red' in str(info.value) and ' | ' in str(info.value)
