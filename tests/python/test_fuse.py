"""cuarray.fuse: tracing and the generated kernels (host: NumPy arrays stand for cuarray arrays of
their dtype and ndim, nothing runs), then fused results against the unfused function and NumPy
(GPU): every dtype, broadcasting, scalars, constants, reductions with axis/keepdims, fallbacks."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuarray as cp
from helpers import normal_array
from cuarray._kernels.fuse import _REDUCTIONS, FusionFallbackWarning
from cuarray.cuda.compiler import compile_to_cubin

gpu = pytest.mark.gpu

ALL_DTYPES = ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64',
              'float16', 'float32', 'float64', 'complex64', 'complex128']
NUMERIC = [d for d in ALL_DTYPES if d != 'bool']


def _random(rng, shape, dtype):
    return normal_array(rng, shape, dtype, ints=(1, 20))


def _axpb(x, y, z):
    return x * y + z


def _stacked(x, y):
    return cp.where(x > y, cp.sin(x) * 2, -y), cp.maximum(x, y) ** 2


# --- host: tracing and the generated kernels ------------------------------------------------

@pytest.mark.parametrize('dtype', NUMERIC)
def test_elementwise_kernel_types_follow_numpy(dtype):
    f = cp.fuse(_axpb)
    x = np.zeros(3, dtype)
    k = f.kernel(x, x, 2.5)
    expected = (x * x + 2.5).dtype
    assert isinstance(k, cp.ElementwiseKernel)
    assert k.in_params == '%s _a0, %s _a1, float64 _a2' % (dtype, dtype)
    assert k.out_params == '%s _o0' % expected.name
    assert '_fuse_multiply_0(' in k.operation and '_fuse_add_1(' in k.operation
    assert k.operation.endswith('_o0 = _v1;')


def test_weak_and_strong_scalars():
    f = cp.fuse(lambda x, s: x + s)
    x = np.zeros(3, np.float32)
    assert f.kernel(x, 2).out_params == 'float32 _o0'        # weak Python int
    assert f.kernel(x, 2.0).out_params == 'float32 _o0'      # weak Python float
    assert f.kernel(x, np.float64(2)).out_params == 'float64 _o0'  # NumPy scalars are strong
    assert f.kernel(np.zeros(3, np.int8), 1j).out_params == '%s _o0' % (np.zeros(3, np.int8) + 1j).dtype
    assert f.kernel(np.zeros(3, np.float32), 1j).out_params == 'complex64 _o0'


def test_tuple_return_and_preamble_uses_table_loops():
    f = cp.fuse(_stacked)
    k = f.kernel(np.zeros((2, 3), np.float32), np.zeros(3, np.int16))
    assert k.return_tuple and k.out_params == 'float32 _o0, float32 _o1'
    assert 'cuarray_maximum(in0, in1)' in k.preamble
    assert 'sin(in0)' in k.preamble
    assert 'cuarray_cast<bool>(' in k.operation  # where()


def test_unused_argument_is_not_a_kernel_parameter():
    f = cp.fuse(lambda x, y: x + 1)
    assert f.kernel(np.zeros(3, 'f'), np.zeros((4, 3), 'f')).in_params == 'float32 _a0'


def test_numpy_scalar_on_the_left_defers_to_the_trace():
    f = cp.fuse(lambda x: np.float32(0.5) * x + np.int8(1))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        k = f.kernel(np.zeros(3, np.float16))
    assert k.out_params == '%s _o0' % (np.float32(0.5) * np.zeros(3, np.float16) + np.int8(1)).dtype


def test_fused_function_calling_another_fused_function():
    inner = cp.fuse(lambda a: a * 2)
    outer = cp.fuse(lambda x, y: inner(x) + y)
    k = outer.kernel(np.zeros(3, 'f'), np.zeros(3, 'f'))
    assert k is not None and '_fuse_multiply_0(' in k.operation and '_fuse_add_1(' in k.operation


_OPERATORS = {
    'x + y * s': lambda x, y, s: x + y * s, 'x / y - s': lambda x, y, s: x / y - s,
    'x // y % s': lambda x, y, s: x // y % s, 'x ** s': lambda x, y, s: x ** s,
    '(x < y) & (y != s)': lambda x, y, s: (x < y) & (y != s), '-x ^ y': lambda x, y, s: -x ^ y,
    'abs(x) >= s, x * 2.5': lambda x, y, s: (abs(x) >= s, x * 2.5), '~x | y << s': lambda x, y, s: ~x | y << s,
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALL_DTYPES), st.sampled_from(ALL_DTYPES), st.sampled_from(sorted(_OPERATORS)),
       st.sampled_from([True, 3, -2, 1.5, 2j, np.int16(3), np.float32(0.5), np.uint8(1)]))
def test_result_dtypes_are_numpys(xdtype, ydtype, name, s):
    """Host property: the fused kernel's outputs have the dtypes NumPy gives the same function
    on NumPy arrays, and what NumPy rejects runs unfused (the exhaustive product of these
    choices, 12544 cases, agreed when this test was written)."""
    func = _OPERATORS[name]
    x, y = np.ones(2, xdtype), np.ones(2, ydtype)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            want = func(x, y, s)
        except (TypeError, ValueError, OverflowError):
            want = None
        fused = cp.fuse(func)
        k = fused.kernel(x, y, s)
    plan = next(iter(fused._plans.values()))
    if want is None:  # unfused: at tracing, or per call for a value NumPy rejects (uint8 + -2)
        assert plan is None or not plan.runs_fused((x, y, s))
        return
    # NumPy 2 compares with an out-of-range Python int by value (uint8 != -2): that call runs
    # unfused, so only the traced dtypes are checked here.
    want = want if isinstance(want, tuple) else (want,)
    assert k.out_params == ', '.join('%s _o%d' % (w.dtype.name, j) for j, w in enumerate(want))


def test_constants_are_exact_literals():
    f = cp.fuse(lambda x: x * 0.1 + np.float32(3) - 7)
    k = f.kernel(np.zeros(3, np.float16))
    assert k.out_params == 'float32 _o0'  # a NumPy float32 scalar is strong (NumPy 2)
    assert '__longlong_as_double(%dLL)' % np.float64(0.1).view(np.int64) in k.operation


@pytest.mark.parametrize('kind,dtype,out,reduce_type,identity', [
    ('sum', 'int8', 'int64', 'int64_t', '0'), ('sum', 'float16', 'float16', 'float', '0'),
    ('prod', 'uint16', 'uint64', 'uint64_t', '1'),
    # max/min start from the type's extremes (a default-constructed 0 would win over negatives).
    ('max', 'float32', 'float32', 'float', 'cuarray::lowest<acc_t>()'),
    ('min', 'complex64', 'complex64', 'complex<float>', 'cuarray::highest<acc_t>()'),
    ('any', 'float64', 'bool', 'bool', 'false'),
    ('all', 'int32', 'bool', 'bool', 'true')])
def test_reduction_kernel(kind, dtype, out, reduce_type, identity):
    f = cp.fuse(lambda x, y: getattr(x * y, kind)(axis=1, keepdims=True))
    k = f.kernel(np.zeros((2, 3), dtype), np.zeros(3, dtype))
    assert isinstance(k, cp.ReductionKernel)
    assert k.out_params == '%s _o0' % out and k.reduce_type == reduce_type and k.identity == identity
    assert k.map_expr == '_fuse_map(_a0, _a1)'
    assert f._plans[next(iter(f._plans))].reduction == (1, True)


# NVRTC needs no GPU: the engine's sources of the fused kernels compile for every dtype.
def _compiles(source, what):
    assert len(compile_to_cubin(source, what, 'sm_90')) > 0


@pytest.mark.parametrize('dtype', ALL_DTYPES)
def test_fused_elementwise_sources_compile(dtype):
    # bool has no subtract and no negative, complex no floor_divide: ufuncs each dtype has.
    def f(x, y, s):
        half = y / 2 if dtype.startswith('complex') else y // 2
        return cp.where(x > y, cp.maximum(x, y) * s, half).astype(np.float32), x == y, x * 3 + 1
    fused = cp.fuse(f)
    k = fused.kernel(np.zeros(3, dtype), np.zeros(3, dtype), 2)
    assert k is not None
    for vec in (1, 4):
        _compiles(k._kernel._source([dtype, dtype, None], [], vec), 'fused %s vec %d' % (dtype, vec))


@pytest.mark.parametrize('dtype', ALL_DTYPES)
def test_fused_reduction_sources_compile(dtype):
    for kind in _REDUCTIONS:
        one = cp.fuse(lambda x: getattr(x, kind)(axis=0))
        k = one.kernel(np.zeros((3, 2), dtype))
        premap, source = k._kernel._source([dtype], [])
        assert premap is None
        _compiles(source, '%s of %s' % (kind, dtype))
        # Several arrays: one pass, the engine reading each (no mapped temporary).
        several = cp.fuse(lambda x, y: getattr(x * y, kind)(axis=1))
        k = several.kernel(np.zeros((3, 2), dtype), np.zeros(2, dtype))
        premap, source = k._kernel._source([dtype, dtype], [])
        assert premap is None
        _compiles(source, '%s of a product of %s' % (kind, dtype))
        # A scalar argument among them: mapped into a temporary first, then reduced.
        scaled = cp.fuse(lambda x, s: getattr(x * s, kind)(axis=1))
        k = scaled.kernel(np.zeros((3, 2), dtype), 2)
        premap, source = k._kernel._source([dtype, None], [])
        _compiles(premap, '%s map of %s times a scalar' % (kind, dtype))
        _compiles(source, '%s of %s times a scalar' % (kind, dtype))


def test_module_reductions_are_traced():
    f = cp.fuse(lambda x: cp.sum(x * x, axis=0))
    assert isinstance(f.kernel(np.zeros((2, 3), 'f')), cp.ReductionKernel)


@pytest.mark.parametrize('func,reason', [
    (lambda x: x if x > 0 else -x, 'branches on an array value'),
    (lambda x: x.sum() + 1, 'after the reduction'),
    (lambda x: x[0] + 1, 'indexing'),
    (lambda x: cp.sum(x, dtype='f8'), 'dtype='),
    (lambda x: (x.sum(), x + 1), 'reduction returned with other values'),
    (lambda x: x + 1j * x.shape[0], 'shape'),
    (lambda x: x + 300, 'range'),
])
def test_unfusable_falls_back_with_one_warning(func, reason):
    f = cp.fuse(func)
    with pytest.warns(FusionFallbackWarning, match=reason):
        assert f.kernel(np.zeros(3, 'u1')) is None
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert f.kernel(np.zeros(3, 'u1')) is None  # once per signature


def test_in_place_operator_falls_back():
    def f(x, y):
        x += y
        return x
    with pytest.warns(FusionFallbackWarning, match='in-place'):
        assert cp.fuse(f).kernel(np.zeros(3), np.zeros(3)) is None


def test_numpy_errors_fall_back_silently():
    f = cp.fuse(lambda x, y: x - y)  # bool subtract: NumPy's TypeError comes from the unfused run
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert f.kernel(np.zeros(3, bool), np.zeros(3, bool)) is None


def test_decorator_forms_and_names():
    @cp.fuse
    def plain(x):
        return x + 1

    @cp.fuse(kernel_name='my_fused')
    def named(x):
        return x + 1
    assert plain.kernel(np.zeros(2)).name == 'plain'
    assert named.kernel(np.zeros(2)).name == 'my_fused'
    assert cp.fuse(lambda x: x).kernel(np.zeros(2)).name == 'fused__lambda_'
    with pytest.raises(TypeError):
        cp.fuse(bad=1)
    assert plain.__name__ == 'plain'


def test_hooks_are_removed_after_tracing():
    call, total = type(cp.add).__call__, cp.sum
    cp.fuse(lambda x: cp.sum(cp.add(x, 1))).kernel(np.zeros(2))
    assert type(cp.add).__call__ is call and cp.sum is total


# --- GPU: fused results equal the unfused function's ----------------------------------------

def _check(f, args, rtol=None):
    fused = cp.fuse(f)
    with warnings.catch_warnings():
        warnings.simplefilter('error', FusionFallbackWarning)
        got = fused(*args)
    assert fused.kernel(*args) is not None
    want = f(*args)
    got_t, want_t = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    for g, w in zip(got_t, want_t):
        assert g.dtype == w.dtype and g.shape == w.shape
        w = cp.asnumpy(w)
        tol = rtol or (1e-2 if w.dtype in (np.float16, np.complex64, np.float32) else 1e-6)
        np.testing.assert_allclose(cp.asnumpy(g), w, rtol=tol, atol=tol)
    return got


@gpu
@pytest.mark.parametrize('dtype', NUMERIC)
def test_gpu_axpb_every_dtype(rng, dtype):
    x, y, z = (cp.asarray(_random(rng, (7, 33), dtype)) for _ in range(3))
    _check(_axpb, (x, y, z))
    _check(_axpb, (x, y, 3))
    _check(_axpb, (x, 2.5, z))


@gpu
def test_gpu_broadcast_strided_and_reversed(rng):
    x = cp.asarray(_random(rng, (6, 8), 'float32'))[:, ::-2]
    y = cp.asarray(_random(rng, (4,), 'int16'))
    _check(_stacked, (x, y))
    _check(_stacked, (x.T[:, :1], y[::-1]))


@gpu
@pytest.mark.parametrize('kind', ['sum', 'prod', 'max', 'min', 'any', 'all'])
@pytest.mark.parametrize('dtype', ['bool', 'int8', 'uint32', 'float16', 'float32', 'float64', 'complex64'])
@pytest.mark.parametrize('axis,keepdims', [(None, False), (0, False), (1, True), ((0, 2), False), (-1, True)])
def test_gpu_reductions(rng, kind, dtype, axis, keepdims):
    x = cp.asarray(_random(rng, (3, 5, 4), dtype))
    y = cp.asarray(_random(rng, (5, 4), dtype))
    _check(lambda a, b: getattr(a * b, kind)(axis=axis, keepdims=keepdims), (x, y))
    _check(lambda a: getattr(a, kind)(axis=axis, keepdims=keepdims), (x,))


@gpu
def test_gpu_sum_of_axpb_large(rng):
    x, y, z = (cp.asarray(_random(rng, (1_000_003,), 'float32')) for _ in range(3))
    _check(lambda a, b, c: cp.sum(a * b + c), (x, y, z), rtol=1e-3)  # one pass over three arrays
    _check(lambda a, b, c: cp.sum(a * b + c), (x, y, 0.5), rtol=1e-3)  # a scalar: premapped
    # Split tall reductions (a second pass) and broadcast, strided and reversed extra inputs.
    w = cp.asarray(_random(rng, (4000, 300), 'float32'))
    _check(lambda a, b, c: (a * b - c).sum(axis=0), (w, x[:300], w[::-1, ::-1]), rtol=1e-3)
    _check(lambda a, b, c: (a * b - c).max(axis=1, keepdims=True), (w, x[:600:2], w.T.T), rtol=1e-3)


@gpu
def test_gpu_where_astype_and_constants(rng):
    x = cp.asarray(_random(rng, (50,), 'float32'))
    y = cp.asarray(_random(rng, (50,), 'int64'))
    _check(lambda a, b: cp.where(a > 0.25, a, b).astype(np.float32) + np.float16(1.5), (x, y))
    _check(lambda a, b: (a // 3, a % 3, (b * 2) >> 1, -b), (y, y))


@gpu
def test_gpu_fallbacks_are_correct(rng):
    a = _random(rng, (5,), 'float32')
    x = cp.asarray(a)

    def branch(v):
        return v * 2 if (v > 100).any() else v - 1
    with pytest.warns(FusionFallbackWarning):
        np.testing.assert_allclose(cp.asnumpy(cp.fuse(branch)(x)), a - 1)

    def in_place(v, w):
        v += w
        return v
    with pytest.warns(FusionFallbackWarning):
        cp.fuse(in_place)(x, x)
    np.testing.assert_allclose(cp.asnumpy(x), 2 * a)  # the caller's array was written, as unfused

    with pytest.raises(TypeError):  # NumPy's error for bool subtract
        cp.fuse(lambda p, q: p - q)(x > 0, x > 1)
    u = cp.asarray(np.arange(5, dtype=np.uint8))
    with pytest.raises(OverflowError):  # a weak Python int out of uint8's range, as NumPy 2
        cp.fuse(lambda v, s: v + s)(u, 300)


@gpu
def test_gpu_empty_and_zero_dim(rng):
    with pytest.raises(ValueError):  # NumPy's: a max of nothing has no identity
        cp.fuse(lambda x: (x * 2).max())(cp.empty((0,), 'f'))
    got = cp.fuse(lambda x: (x * 2).sum(axis=0))(cp.empty((0, 3), 'f'))
    assert got.dtype == np.float32 and got.shape == (3,) and not cp.asnumpy(got).any()
    z = cp.fuse(lambda x, y: x * y)(cp.empty((0, 3), 'i2'), cp.ones(3, 'i2'))
    assert z.shape == (0, 3) and z.dtype == np.int16
    _check(lambda x, y: x * y + 1, (cp.asarray(np.float32(3)), cp.asarray(_random(rng, (4,), 'float64'))))


@gpu
def test_gpu_scalar_kinds(rng):
    x = cp.asarray(_random(rng, (9,), 'float16'))
    for s in (True, 2, -1.25, 1 + 2j, np.float64(0.5), np.int8(3)):
        _check(lambda a, b: a * b + a, (x, s))


@gpu
def test_gpu_cache_per_signature(rng):
    f = cp.fuse(_axpb)
    x = cp.asarray(_random(rng, (10,), 'float32'))
    f(x, x, x)
    f(x, x, x)
    f(x, x, 1.0)
    f(x.astype('f8'), x, x)
    assert len(f._plans) == 3
