"""cuarray.vectorize: Python functions of scalars compiled into one elementwise kernel.

Host: what compiles (the kernel, its types, an NVRTC compile for sm_90) and what does not (a clear
TypeError, never a silent host run). GPU: results against the same expression written with NumPy's
array functions, on random data, with NumPy's result dtypes."""
import ast
import math
import types

import numpy as np
import pytest

import cuarray as cp
from cuarray._kernels import vectorize as _vectorize
from cuarray.cuda.compiler import compile_to_cubin

from helpers import assert_allclose_np, assert_array_equal_np, random_array

gpu = pytest.mark.gpu

SCALE = 2.5


def _polar(r, t):
    x = r * math.cos(t)
    y = r * math.sin(t)
    return math.sqrt(x * x + y * y) + math.atan2(y, x) * 0


def _polar_ref(r, t):
    x = r * np.cos(t)
    y = r * np.sin(t)
    return np.sqrt(x * x + y * y) + np.arctan2(y, x) * 0


def _piecewise(x, y):
    t = x * SCALE - y
    return t if t > 0 else (-t if t > -1 else t * t)


def _piecewise_ref(x, y):
    t = x * SCALE - y
    return np.where(t > 0, t, np.where(t > -1, -t, t * t))


def _logic(a, b):
    return (a > 0 and b < 1) or not (0 < a < b)


def _logic_ref(a, b):
    return np.logical_or(np.logical_and(a > 0, b < 1), np.logical_not(np.logical_and(0 < a, a < b)))


def _clamped(x):
    total = 0
    for k in range(3):  # a fixed trip count: unrolled while tracing
        total = total + x * k
    return max(min(total, 10), -10) + abs(x) + int(x) + float(x)


def _clamped_ref(x):
    total = 0
    for k in range(3):
        total = total + x * k
    return np.maximum(np.minimum(total, 10), -10) + np.abs(x) + x.astype(np.int64) + x.astype(np.float64)


def _exp_log(x):
    return math.exp(-x * x) + math.log(abs(x) + 1, 2) + math.pi


def _exp_log_ref(x):
    return np.exp(-x * x) + np.log(np.abs(x) + 1) / math.log(2) + math.pi  # math.log(2): a weak Python float


def _branching(x):
    while x > 1:  # a trip count that depends on the element
        x = x / 2
    return x


def _indexing(x):
    return x[0]


def _no_gpu_equivalent(x):
    return math.gamma(x)


def _calls_unknown(x):
    return sorted([x])


def _two_outputs(x, y):
    return x + y, x * y


def _early_returns(x, y):
    t = x
    if x > y:
        t = x - y
        if t > 1:
            t *= 2
    elif x < -1:
        t = -x
    else:
        return y * 3
    if t > 2.5:
        return t - 10
    s = t + 1
    return s


def _abs_by_if(x):
    if x > 0:
        return x
    return -x


def _loop_under_if(x):
    if x > 0:
        for _ in range(2):
            x = x + 1
    return x


def _early_returns_ref(x, y):
    return np.vectorize(_early_returns, otypes=[np.result_type(x, y)])(x, y)


def _abs_by_if_ref(x):
    return np.abs(x)


CASES = [(_polar, _polar_ref, 2), (_piecewise, _piecewise_ref, 2), (_logic, _logic_ref, 2),
         (_clamped, _clamped_ref, 1), (_exp_log, _exp_log_ref, 1), (_early_returns, _early_returns_ref, 2),
         (_abs_by_if, _abs_by_if_ref, 1)]


# --- host: compiling ------------------------------------------------------------------------------------

@pytest.mark.parametrize("func,ref,nargs", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_compiles_to_one_kernel_with_numpys_types(func, ref, nargs, dtype):
    args = [np.linspace(0.5, 2, 3).astype(dtype) for _ in range(nargs)]
    kernel = cp.vectorize(func).kernel(*args)
    with np.errstate(all="ignore"):
        expected = np.asarray(ref(*args)).dtype
    assert kernel.out_params == "%s _o0" % expected.name
    source = kernel._kernel._source([dtype] * nargs, [expected.name], 1)
    assert len(compile_to_cubin(source, kernel.name, "sm_90")) > 0


def test_lambda_and_closure_compile():
    offset = 3.0
    v = cp.vectorize(lambda x, y: x * offset + y if x < y else y)  # one lambda on the line
    kernel = v.kernel(np.ones(2, np.float32), np.ones(2, np.float32))
    assert kernel.out_params == "float32 _o0"
    two = [cp.vectorize(lambda x: x + 1), cp.vectorize(lambda x: x - 1)]
    with pytest.raises(TypeError, match="which lambda"):
        two[0].kernel(np.ones(2))


def test_two_outputs_and_otypes():
    kernel = cp.vectorize(_two_outputs).kernel(np.ones(2, np.int16), np.ones(2, np.float32))
    assert kernel.out_params == "float32 _o0, float32 _o1"
    v = cp.vectorize(_polar, otypes=[np.float16])
    assert v.otypes == "e"


@pytest.mark.parametrize("func", [_early_returns, _abs_by_if, _piecewise, _logic])
def test_rewritten_function_computes_what_the_python_function_does(rng, func):
    # The rewrite (if statements predicated, conditional expressions and boolean operators as
    # calls) run with NumPy's array functions, against the original function element by element.
    node = _vectorize._predicated(_vectorize._Rewrite().visit(_vectorize._function_node(func)))
    namespace = dict(func.__globals__, __cuarray_vectorize__=types.SimpleNamespace(
        where=np.where, logical_and=np.logical_and, logical_or=np.logical_or, logical_not=np.logical_not))
    exec(compile(ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[])), "<test>", "exec"), namespace)
    rewritten = namespace[node.name]
    args = [np.round(rng.uniform(-4, 4, 500), 1) for _ in range(func.__code__.co_argcount)]
    expected = np.array([func(*values) for values in zip(*args)])
    np.testing.assert_array_equal(np.asarray(rewritten(*args)), expected)


@pytest.mark.parametrize("func,reason", [(_branching, "branches on an array value"), (_indexing, "indexing"),
                                         (_loop_under_if, "a for under an if statement"),
                                         (_no_gpu_equivalent, "math.gamma has no elementwise GPU equivalent"),
                                         (_calls_unknown, "cannot compile")])
def test_what_cannot_compile_is_a_type_error(func, reason):
    with pytest.raises(TypeError, match="cuarray.vectorize cannot compile") as info:
        cp.vectorize(func).kernel(np.ones(3))
    assert reason in str(info.value)


def test_unsupported_options_and_builtins():
    for kwargs in (dict(excluded={0}), dict(cache=True), dict(signature="(n)->()")):
        with pytest.raises(NotImplementedError):
            cp.vectorize(_polar, **kwargs)
    with pytest.raises(TypeError, match="needs the source"):
        cp.vectorize(math.sin).kernel(np.ones(2))
    assert cp.vectorize(_polar, doc="d").__doc__ == "d"


# --- GPU: results ------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("func,ref,nargs", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_results_match_numpy(rng, func, ref, nargs, dtype):
    host = [random_array((5, 33), dtype, rng, low=-3, high=3) for _ in range(nargs)]
    with np.errstate(all="ignore"):
        expected = np.asarray(ref(*host))
    v = cp.vectorize(func)
    got = v(*[cp.asarray(h) for h in host])
    if expected.dtype.kind in "biu":
        assert_array_equal_np(got, expected)
    else:
        assert_allclose_np(got, expected, rtol=1e-5 if expected.dtype == np.float32 else 1e-12, atol=1e-6)
    # strided and broadcast operands
    views = [cp.asarray(h)[:, ::-2] for h in host]
    with np.errstate(all="ignore"):
        expected = np.asarray(ref(*[h[:, ::-2] for h in host]))
    got = v(*views)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if nargs == 2:
        got = v(cp.asarray(host[0]), cp.asarray(host[1][:1]))
        assert got.shape == (5, 33)


@gpu
def test_two_outputs_otypes_and_scalars(rng):
    a = random_array((40,), np.float32, rng)
    b = random_array((40,), np.float32, rng)
    s, p = cp.vectorize(_two_outputs)(cp.asarray(a), cp.asarray(b))
    assert_allclose_np(s, a + b)
    assert_allclose_np(p, a * b)
    got = cp.vectorize(_polar, otypes=[np.float16])(cp.asarray(a), cp.asarray(b))
    assert got.dtype == np.float16
    scalar = cp.vectorize(_piecewise)(2.0, 1.0)  # numpy.vectorize makes every argument an array
    assert scalar.shape == () and float(scalar) == _piecewise(2.0, 1.0)
