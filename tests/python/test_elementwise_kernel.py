"""cuarray.ElementwiseKernel against NumPy (CuPy's semantics): parameters, placeholders, raw
arrays, scalars, outputs given and allocated, size=, preamble/options, every dtype, and the
errors. Host-side errors run without a GPU; the rest is marked gpu."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuarray as cp
from helpers import normal_array
from cuarray.cuda.compiler import CompileException, compile_to_cubin
from seed_examples import ex_elementwise_kernel

gpu = pytest.mark.gpu

# One kernel object per test session: each property example reuses its compiled variants.
_AXPY = cp.ElementwiseKernel('T x, T y, T s', 'T z, int64 idx', 'z = s * x - y; idx = i;', 'axpy_index')

ALL_DTYPES = ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64',
              'float16', 'float32', 'float64', 'complex64', 'complex128']


def _random(rng, shape, dtype):
    return normal_array(rng, shape, dtype, ints=(0, 50))


# --- host-side: raised before any GPU work -------------------------------------------------

def test_bad_parameter_lists():
    with pytest.raises(ValueError, match='Syntax error: x'):
        cp.ElementwiseKernel('float32 a, x', 'float32 z', 'z = a')
    with pytest.raises(ValueError, match='Unknown keyword "const"'):
        cp.ElementwiseKernel('const T x', 'T z', 'z = x')
    with pytest.raises(TypeError, match="data type 'floot32' not understood"):
        cp.ElementwiseKernel('floot32 x', 'T z', 'z = x')
    with pytest.raises(ValueError, match="Can not use 'i' as a parameter name"):
        cp.ElementwiseKernel('T i', 'T z', 'z = i')
    with pytest.raises(ValueError, match='Invalid kernel name'):
        cp.ElementwiseKernel('T x', 'T z', 'z = x', 'bad name')


def test_attributes():
    k = cp.ElementwiseKernel('T x, raw T y', 'T z', 'z = x + y[i]', 'my_kernel', no_return=True,
                             options=('-DX=1',))
    assert (k.nin, k.nout, k.nargs) == (2, 1, 3)
    assert k.name == k.__name__ == 'my_kernel'
    assert k.options == ('-DX=1',)
    assert k.no_return and not k.return_tuple


def test_wrong_argument_count_and_keywords():
    k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x + y', 'add2')
    with pytest.raises(TypeError, match=r"Wrong number of arguments for 'add2'. It must be either 2 or 3 "
                                        r"\(with outputs\), but given 1."):
        k(1)
    with pytest.raises(TypeError, match='Wrong arguments'):
        k(1, 2, bogus=3)
    with pytest.raises(ValueError, match='block_size must be greater than zero'):
        k(1, 2, block_size=0)


def test_scalars_only_loop_size_undecided():
    k = cp.ElementwiseKernel('float32 x, float32 y', 'float32 z', 'z = x + y')
    with pytest.raises(ValueError, match='Loop size is undecided.'):
        k(1.0, 2.0)
    t = cp.ElementwiseKernel('T x', 'T z', 'z = x')
    with pytest.raises(ValueError, match='Loop size is undecided.'):
        t(1.0)


def test_numpy_arrays_are_rejected():
    k = cp.ElementwiseKernel('T x', 'T z', 'z = x')
    with pytest.raises(TypeError, match='Unsupported type'):
        k(np.arange(3.0))


# --- on the GPU -------------------------------------------------------------------------

@gpu
def test_seed_example_runs_unchanged():
    # The seed example (tests/python/seed_examples.py), kept here rather than in
    # test_seed_examples.py's shared list.
    note = ex_elementwise_kernel()
    assert note is None or not str(note).startswith("skipped"), note


@gpu
def test_seed_kernel_broadcast():
    x = cp.arange(6, dtype='f').reshape(2, 3)
    y = cp.arange(3, dtype='f')
    kernel = cp.ElementwiseKernel('float32 x, float32 y', 'float32 z',
                                  'if (x - 2 > y) { z = x * y; } else { z = x + y; }', 'my_kernel')
    z = kernel(x, y)
    assert z.dtype == np.float32 and z.shape == (2, 3)
    assert cp.asnumpy(z).tolist() == [[0., 2., 4.], [0., 4., 10.]]


@gpu
@pytest.mark.parametrize('dtype', [d for d in ALL_DTYPES if d != 'bool'])
def test_placeholder_every_dtype(rng, dtype):
    a, b = _random(rng, (5, 7), dtype), _random(rng, (7,), dtype)
    k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x * y + x', 'mul_add')
    z = k(cp.asarray(a), cp.asarray(b))
    assert z.dtype == np.dtype(dtype)
    expected = (a * b + a).astype(dtype)
    np.testing.assert_allclose(cp.asnumpy(z), expected, rtol=1e-2 if dtype == 'float16' else 1e-6)


@gpu
def test_bool_dtype(rng):
    a, b = _random(rng, (100,), 'bool'), _random(rng, (100,), 'bool')
    k = cp.ElementwiseKernel('bool x, bool y', 'bool z', 'z = x && !y')
    np.testing.assert_array_equal(cp.asnumpy(k(cp.asarray(a), cp.asarray(b))), a & ~b)


@gpu
def test_placeholder_mismatch_names_the_parameter(rng):
    k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x + y')
    with pytest.raises(TypeError, match='Type is mismatched. y float64 float32 T'):
        k(cp.ones(3, 'f'), cp.ones(3, 'd'))
    fixed = cp.ElementwiseKernel('float32 x', 'float32 z', 'z = x')
    with pytest.raises(TypeError, match='Type is mismatched. x int64 float32'):
        fixed(cp.ones(3, 'q'))


@gpu
def test_scalars_take_their_parameter_type(rng):
    a = _random(rng, (4, 5), 'float32')
    k = cp.ElementwiseKernel('T x, T s, int32 n', 'T z', 'z = x * s + n')
    z = k(cp.asarray(a), 2.5, np.int64(3))
    assert z.dtype == np.float32
    np.testing.assert_allclose(cp.asnumpy(z), a * np.float32(2.5) + 3, rtol=1e-6)
    u = cp.ElementwiseKernel('uint8 x, uint8 s', 'uint8 z', 'z = x + s')
    np.testing.assert_array_equal(cp.asnumpy(u(cp.arange(4, dtype='u1'), 250)),
                                  (np.arange(4, dtype='u1') + np.uint8(250)))


@gpu
def test_non_contiguous_and_negative_strides(rng):
    a = _random(rng, (6, 8), 'float64')
    b = _random(rng, (8, 6), 'float64')
    k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x - 2 * y')
    z = k(cp.asarray(a)[::-1, ::2], cp.asarray(b).T[::-1, 1::2])
    np.testing.assert_allclose(cp.asnumpy(z), a[::-1, ::2] - 2 * b.T[::-1, 1::2])


@gpu
def test_outputs_given_are_written_in_place_and_read(rng):
    a, c = _random(rng, (3, 4), 'float32'), _random(rng, (3, 4), 'float32')
    k = cp.ElementwiseKernel('T x', 'T y', 'y += x', 'accumulate')
    out = cp.asarray(c)
    r = k(cp.asarray(a), out)
    np.testing.assert_allclose(cp.asnumpy(out), c + a, rtol=1e-6)
    np.testing.assert_array_equal(cp.asnumpy(r), cp.asnumpy(out))  # the result is the output given
    # A transposed output: i stays the C-order index of the loop's shape.
    t = cp.zeros((4, 3), 'q').T
    idx = cp.ElementwiseKernel('T x', 'int64 y', 'y = i')
    idx(cp.asarray(a), t)
    np.testing.assert_array_equal(cp.asnumpy(t), np.arange(12).reshape(3, 4))


@gpu
def test_output_checks(rng):
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x')
    with pytest.raises(ValueError, match='Out shape is mismatched'):
        k(cp.ones((2, 3), 'f'), cp.empty((3,), 'f'))
    with pytest.raises(TypeError, match='Type is mismatched'):
        k(cp.ones(3, 'f'), cp.empty(3, 'd'))
    with pytest.raises(TypeError, match='Output arguments type must be'):
        k(cp.ones(3, 'f'), 1.0)


@gpu
def test_raw_indexing_and_ind_size(rng):
    a = _random(rng, (10,), 'float32')
    rev = cp.ElementwiseKernel('raw T x', 'T y', 'y = x[_ind.size() - i - 1]', 'reverse')
    with pytest.raises(ValueError, match='Loop size is undecided'):
        rev(cp.asarray(a))
    y = cp.empty(10, 'f')
    rev(cp.asarray(a), y)
    np.testing.assert_array_equal(cp.asnumpy(y), a[::-1])
    # A raw non-contiguous 2-d array indexed by its C-order flat index and by (row, col).
    m = _random(rng, (4, 6), 'float64')
    view = cp.asarray(m)[:, ::-2]
    flat = cp.ElementwiseKernel('raw T x', 'T y', 'y = x[i]')
    np.testing.assert_array_equal(cp.asnumpy(flat(view, size=view.size)), m[:, ::-2].ravel())
    rc = cp.ElementwiseKernel('raw T x', 'T y', 'ptrdiff_t idx[] = {i / x.shape()[1], i % x.shape()[1]}; y = x[idx]')
    np.testing.assert_array_equal(cp.asnumpy(rc(view, size=view.size)), m[:, ::-2].ravel())


@gpu
def test_size_and_raw_outputs(rng):
    k = cp.ElementwiseKernel('raw T x', 'raw T y', 'y[i] = x[i] * 2')
    a = _random(rng, (9,), 'int32')
    with pytest.raises(ValueError, match="Specified 'size' can be used only"):
        cp.ElementwiseKernel('T x', 'T y', 'y = x')(cp.asarray(a), size=9)
    out = cp.zeros(9, 'i')
    k(cp.asarray(a), out, size=9)
    np.testing.assert_array_equal(cp.asnumpy(out), a * 2)
    with pytest.raises(ValueError, match='Output array size is Undecided'):
        cp.ElementwiseKernel('T x', 'raw T y', 'y[i] = x')(cp.asarray(a))
    allocated = k(cp.asarray(a), size=9)
    assert allocated.shape == (9,)
    np.testing.assert_array_equal(cp.asnumpy(allocated), a * 2)


@gpu
def test_no_outputs_updates_raw_arrays_in_place(rng):
    a = _random(rng, (20,), 'int64')
    k = cp.ElementwiseKernel('T x, raw T acc', '', 'atomicAdd((unsigned long long*)&acc[0], (unsigned long long)x);',
                             'accumulate_all')
    acc = cp.zeros(1, 'q')
    assert k(cp.asarray(a), acc) == ()
    assert int(acc[0]) == int(a.sum())


@gpu
def test_multiple_outputs_and_return_conventions(rng):
    a = _random(rng, (50,), 'float64')
    k = cp.ElementwiseKernel('T x', 'T s, T c', 's = sin(x); c = cos(x)', 'sincos')
    s, c = k(cp.asarray(a))
    np.testing.assert_allclose(cp.asnumpy(s), np.sin(a))
    np.testing.assert_allclose(cp.asnumpy(c), np.cos(a))
    one = cp.ElementwiseKernel('T x', 'T y', 'y = x', return_tuple=True)
    assert isinstance(one(cp.asarray(a)), tuple)
    none = cp.ElementwiseKernel('T x', 'T y', 'y = x', no_return=True)
    assert none(cp.asarray(a)) is None


@gpu
def test_preamble_options_and_complex_names(rng):
    a = _random(rng, (30,), 'complex64')
    k = cp.ElementwiseKernel('T x', 'float32 re, T y', 're = x.real() * SCALE; y = twice(x) + complex<float>(0, 1);',
                             preamble='template <class U> __device__ U twice(U v) { return v + v; }',
                             options=('-DSCALE=3',))
    re, y = k(cp.asarray(a))
    np.testing.assert_allclose(cp.asnumpy(re), a.real * 3, rtol=1e-6)
    np.testing.assert_allclose(cp.asnumpy(y), 2 * a + 1j, rtol=1e-6)


@gpu
@pytest.mark.parametrize('step', [1, 3])  # the linear (vectorized) and the strided layouts
def test_loop_prep_and_after_loop(rng, step):
    a = _random(rng, (3000,), 'float32')
    x = cp.asarray(a)[::step]
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x * scale;', 'scaled', loop_prep='const T scale = T(3);')
    np.testing.assert_allclose(cp.asnumpy(k(x)), a[::step] * 3, rtol=1e-6)
    # after_loop adds each thread's element count into a raw array: the total is the loop size.
    counted = cp.ElementwiseKernel('T x, raw int32 total', 'T y', 'y = x; ++mine;', 'counted',
                                   loop_prep='int mine = 0;', after_loop='atomicAdd(&total[0], mine);')
    total = cp.zeros(1, 'i')
    np.testing.assert_array_equal(cp.asnumpy(counted(x, total)), a[::step])
    assert int(total[0]) == a[::step].size


@gpu
def test_preamble_includes_a_cuda_header(rng):
    a = _random(rng, (100,), 'float32')
    k = cp.ElementwiseKernel('float32 x', 'float32 y', 'y = __half2float(__float2half(x) * two());', 'halves',
                             preamble='#include <cuda_fp16.h>\n__device__ half two() { return __float2half(2.0f); }')
    np.testing.assert_array_equal(cp.asnumpy(k(cp.asarray(a))), (a.astype(np.float16) * np.float16(2)).astype('f'))


@gpu
def test_float16_kernel(rng):
    a = _random(rng, (64,), 'float16')
    k = cp.ElementwiseKernel('float16 x', 'float16 y', 'y = x * float16(2.0f)')
    np.testing.assert_array_equal(cp.asnumpy(k(cp.asarray(a))), a * np.float16(2))


@gpu
def test_compile_error_carries_log_and_numbered_source():
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x +;', 'broken')
    with pytest.raises(CompileException) as info:
        k(cp.ones(3, 'f'))
    text = str(info.value)
    assert 'error' in text and 'broken' in text
    assert '| y = x +;' in text  # the numbered source line of the body
    assert 'y = x +;' in info.value.source


@gpu
def test_size_zero(rng):
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x')
    z = k(cp.empty((0, 3), 'f'))
    assert z.shape == (0, 3) and z.dtype == np.float32


@gpu
def test_stream_keyword(rng):
    a = _random(rng, (1000,), 'float32')
    s = cp.cuda.Stream()
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x + 1')
    y = k(cp.asarray(a), stream=s)
    s.synchronize()
    np.testing.assert_allclose(cp.asnumpy(y), a + 1)


@st.composite
def _broadcast_views(draw):
    """A loop shape, and for each of two operands a shape that broadcasts to it (a trailing part
    of its dims, some of them 1) and the step of the view along each dim (1, 2 or reversed)."""
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    views = []
    for _ in range(2):
        own = tuple(1 if draw(st.booleans()) and draw(st.booleans()) else n for n in shape)
        own = own[draw(st.integers(0, ndim - 1)):]  # a trailing part of the dims
        steps = tuple(draw(st.sampled_from([1, 2, -1])) for _ in own)
        views.append((own, steps))
    dtype = draw(st.sampled_from(['int32', 'float32', 'float64', 'complex128', 'uint8']))
    return shape, views, dtype


@gpu
@settings(max_examples=60, deadline=None)
@given(_broadcast_views(), st.integers(0, 2**32 - 1))
def test_broadcast_property(case, seed):
    # z = s * x - y over broadcast views equals NumPy's, and i is the C-order index of the loop.
    _, views, dtype = case
    rng = np.random.default_rng(seed)
    hosts, devs = [], []
    for own, steps in views:
        base = _random(rng, tuple(n * abs(step) for n, step in zip(own, steps)), dtype)
        index = tuple(slice(None, None, step) for step in steps)  # steps 1, 2 or -1 give `own`
        hosts.append(base[index])
        devs.append(cp.asarray(base)[index])
    z, idx = _AXPY(devs[0], devs[1], 3)
    x, y = np.broadcast_arrays(*hosts)
    loop_shape = x.shape
    want = (np.asarray(3, dtype) * x - y).astype(dtype)
    assert z.dtype == np.dtype(dtype) and z.shape == loop_shape
    np.testing.assert_allclose(cp.asnumpy(z), want, rtol=1e-6)
    np.testing.assert_array_equal(cp.asnumpy(idx), np.arange(int(np.prod(loop_shape))).reshape(loop_shape))


# --- _non_const inputs: references into the array given, as CuPy binds them ----------------

_DOUBLE = cp.ElementwiseKernel('_non_const T x', 'T y', 'y = x; x = x + x', 'double_in_place')


@pytest.mark.parametrize('dtype', ['bool', 'int8', 'float16', 'float32', 'complex128'])
def test_non_const_variant_sources_compile(dtype):
    # Host: an array for x is a reference into an engine output, loaded and stored back; a scalar
    # for x is a local copy. Both variants compile.
    array = _DOUBLE._kernel._source([dtype], [], 4)
    assert 'out1_t& x = _cuarray_out1;' in array
    assert 'r1 = reinterpret_cast<const cuarray::Vec<s1_t, 4>*>(p.p[1])[v];' in array
    scalar = _DOUBLE._kernel._source([None], [dtype], 1)
    assert 'in0_t x = _cuarray_in0;' in scalar and 'out1' not in scalar
    for source, what in [(array, 'array'), (scalar, 'scalar'), (_DOUBLE._kernel._source([dtype], [dtype], 1), 'out')]:
        assert len(compile_to_cubin(source, '%s %s' % (what, dtype), 'sm_90')) > 0


def test_source_dtype_counts_are_checked():
    # Host: the source builders take one dtype per input (None: a scalar) and none or one per
    # output; other counts are a TypeError naming them, not a read past the list.
    k = cp.ElementwiseKernel('T x, T y, int32 n', 'T z', 'z = x + y * n', 'three_inputs')
    with pytest.raises(TypeError, match='the kernel has 3 input parameters, given 2 input dtypes'):
        k._kernel._source(['float32', 'float32'], [])
    with pytest.raises(TypeError, match='the kernel has 3 input parameters, given 4 input dtypes'):
        k._kernel._source(['float32', 'float32', None, 'float32'], [])
    with pytest.raises(TypeError, match=r'the kernel has 1 output parameters, given 2 output dtypes \(none, or one'):
        k._kernel._source(['float32', 'float32', None], ['float32', 'float32'])
    assert 'z = x + y * n' in k._kernel._source(['float32', 'float32', None], ['float32'])
    r = cp.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'one_input_sum')
    with pytest.raises(TypeError, match='the kernel has 1 input parameters, given 0 input dtypes'):
        r._kernel._source([], [])


@gpu
@pytest.mark.parametrize('dtype', ALL_DTYPES)
def test_non_const_array_is_written_in_place(rng, dtype):
    a = _random(rng, (5, 7), dtype)
    x = cp.asarray(a)
    y = _DOUBLE(x)
    assert y.dtype == np.dtype(dtype) and x.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(cp.asnumpy(y), a)  # the output read x before the write
    np.testing.assert_array_equal(cp.asnumpy(x), (a + a).astype(dtype))


@gpu
def test_non_const_strided_and_negative_views(rng):
    a = _random(rng, (6, 8), 'float64')
    base = cp.asarray(a)
    y = _DOUBLE(base[::-1, ::2])
    want = a.copy()
    want[::-1, ::2] *= 2
    np.testing.assert_array_equal(cp.asnumpy(base), want)  # the other elements are untouched
    np.testing.assert_array_equal(cp.asnumpy(y), a[::-1, ::2])
    t = cp.asarray(a)
    _DOUBLE(t.T)
    np.testing.assert_array_equal(cp.asnumpy(t), a * 2)


@gpu
def test_non_const_broadcast_input(rng):
    # A broadcast _non_const array is written by every element that maps to it (CuPy allows it);
    # with one value written, the result is defined.
    a = _random(rng, (5, 7), 'float32')
    m = cp.asarray(_random(rng, (7,), 'float32'))
    mark = cp.ElementwiseKernel('T x, _non_const T m', 'T y', 'y = x * 2; m = 5', 'mark')
    y = mark(cp.asarray(a), m)
    np.testing.assert_array_equal(cp.asnumpy(y), a * 2)
    np.testing.assert_array_equal(cp.asnumpy(m), np.full(7, 5, 'float32'))


@gpu
def test_non_const_scalar_stays_local(rng):
    a = _random(rng, (4, 6), 'float32')
    k = cp.ElementwiseKernel('_non_const T s, T x', 'T y', 's = s * 2; y = x + s', 'scaled_add')
    x = cp.asarray(a)
    # One kernel object, both variants in turn: each call gets its own compiled body.
    for s in [3.0, np.float32(1.5), 3.0]:
        np.testing.assert_array_equal(cp.asnumpy(k(s, x)), a + np.float32(s) * 2)
        np.testing.assert_array_equal(cp.asnumpy(x), a)
        sa = _random(rng, (4, 6), 'float32')
        s_dev = cp.asarray(sa)
        np.testing.assert_array_equal(cp.asnumpy(k(s_dev, x)), a + sa * 2)
        np.testing.assert_array_equal(cp.asnumpy(s_dev), sa * 2)


@gpu
def test_non_const_with_outputs_given_and_fixed_dtypes(rng):
    a, c = _random(rng, (3, 50), 'float64'), _random(rng, (3, 50), 'float64')
    k = cp.ElementwiseKernel('_non_const T x', 'T y', 'y += x; x = y', 'accumulate_both')
    x, out = cp.asarray(a), cp.asarray(c)
    r = k(x, out)
    np.testing.assert_array_equal(cp.asnumpy(out), c + a)
    np.testing.assert_array_equal(cp.asnumpy(r), c + a)
    np.testing.assert_array_equal(cp.asnumpy(x), c + a)
    f = _random(rng, (40,), 'float32')
    n = _random(rng, (40,), 'int32') + 1
    div = cp.ElementwiseKernel('_non_const float32 x, int32 n', 'float64 y', 'y = x * n; x = x / n', 'div')
    xf = cp.asarray(f)
    y = div(xf, cp.asarray(n))
    assert y.dtype == np.float64 and xf.dtype == np.float32
    np.testing.assert_allclose(cp.asnumpy(y), (f * n.astype('f')).astype('d'), rtol=1e-6)
    np.testing.assert_allclose(cp.asnumpy(xf), f / n.astype('f'), rtol=1e-6)


@gpu
def test_non_const_without_outputs_swaps_arrays(rng):
    a, b = _random(rng, (9, 4), 'int64'), _random(rng, (4, 9), 'int64')
    swap = cp.ElementwiseKernel('_non_const T a, _non_const T b', '', 'T t = a; a = b; b = t;', 'swap')
    x, y = cp.asarray(a), cp.asarray(b)
    assert swap(x, y.T) == ()
    np.testing.assert_array_equal(cp.asnumpy(x), b.T)
    np.testing.assert_array_equal(cp.asnumpy(y), a.T)


@gpu
def test_non_const_raw_param_is_indexed_as_before(rng):
    a, r0 = _random(rng, (30,), 'float32'), _random(rng, (30,), 'float32')
    k = cp.ElementwiseKernel('T x, _non_const raw T r', 'T y', 'y = x + r[i]; r[i] = x', 'swap_raw')
    r = cp.asarray(r0)
    y = k(cp.asarray(a), r)
    np.testing.assert_array_equal(cp.asnumpy(y), a + r0)
    np.testing.assert_array_equal(cp.asnumpy(r), a)


_ADD_INTO = cp.ElementwiseKernel('T y, _non_const T x', 'T z', 'z = x - y; x = x + y', 'add_into')


@gpu
@settings(max_examples=40, deadline=None)
@given(_broadcast_views(), st.integers(0, 2**32 - 1))
def test_non_const_views_property(case, seed):
    # x (a view of the loop's shape, steps 1, 2 or -1) becomes x + y for y broadcast to it; z
    # reads x's old values; the elements of x's base outside the view are untouched.
    shape, views, dtype = case
    rng = np.random.default_rng(seed)
    y_own, y_steps = views[1]
    y_host = _random(rng, tuple(n * abs(s) for n, s in zip(y_own, y_steps)), dtype)
    y_index = tuple(slice(None, None, s) for s in y_steps)
    x_steps = (views[0][1] * len(shape))[:len(shape)]  # a step for every dim of the loop's shape
    x_base = _random(rng, tuple(n * abs(s) for n, s in zip(shape, x_steps)), dtype)
    x_index = tuple(slice(None, None, s) for s in x_steps)
    x_dev = cp.asarray(x_base)
    z = _ADD_INTO(cp.asarray(y_host)[y_index], x_dev[x_index])
    x_old, y = np.broadcast_arrays(x_base[x_index], y_host[y_index])
    np.testing.assert_array_equal(cp.asnumpy(z), (x_old - y).astype(dtype))
    want = x_base.copy()
    want[x_index] = (x_old + y).astype(dtype)
    np.testing.assert_array_equal(cp.asnumpy(x_dev), want)
