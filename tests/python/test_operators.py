"""Every Python operator (binary, reflected, in-place, unary, @) on every dtype pair and with Python
scalars, against NumPy: result dtype, values, and NumPy's exceptions (same_kind violations of
in-place operators, out-of-bounds Python ints)."""
import operator

import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, INEXACT, PY_SCALAR_TYPES, assert_allclose_np, assert_array_equal_np,
                     check_like_numpy, numpy_outcome, random_array)
from ufunc_domains import compare_ufunc, domain, inputs

pytestmark = pytest.mark.gpu

SHAPE = (3, 17)

# operator symbol -> (function, in-place function or None, ufunc whose domain and rules apply)
BINARY = {
    "+": (operator.add, operator.iadd, "add"),
    "-": (operator.sub, operator.isub, "subtract"),
    "*": (operator.mul, operator.imul, "multiply"),
    "/": (operator.truediv, operator.itruediv, "divide"),
    "//": (operator.floordiv, operator.ifloordiv, "floor_divide"),
    "%": (operator.mod, operator.imod, "remainder"),
    "**": (operator.pow, operator.ipow, "power"),
    "&": (operator.and_, operator.iand, "bitwise_and"),
    "|": (operator.or_, operator.ior, "bitwise_or"),
    "^": (operator.xor, operator.ixor, "bitwise_xor"),
    "<<": (operator.lshift, operator.ilshift, "left_shift"),
    ">>": (operator.rshift, operator.irshift, "right_shift"),
    "<": (operator.lt, None, "less"),
    "<=": (operator.le, None, "less_equal"),
    ">": (operator.gt, None, "greater"),
    ">=": (operator.ge, None, "greater_equal"),
    "==": (operator.eq, None, "equal"),
    "!=": (operator.ne, None, "not_equal"),
    "divmod": (divmod, None, "divmod"),
}
INPLACE = [sym for sym, (_, iop, _) in BINARY.items() if iop is not None]
PAIRS = [(a, b) for a in ALL_DTYPES for b in ALL_DTYPES]
SCALARS = {bool: True, int: 3, float: 1.5, complex: 1.5 - 0.5j}


@pytest.mark.parametrize("d1, d2", PAIRS)
@pytest.mark.parametrize("sym", list(BINARY))
def test_binary_operator(sym, d1, d2, rng):
    op, _, ufunc = BINARY[sym]
    x, y = inputs(ufunc, (d1, d2), SHAPE, rng)
    gx, gy = cp.asarray(x), cp.asarray(y)
    check_like_numpy(lambda: op(x, y), lambda: op(gx, gy), compare=compare_ufunc(ufunc, (d1, d2)))


@pytest.mark.parametrize("d1, d2", PAIRS)
@pytest.mark.parametrize("sym", INPLACE)
def test_inplace_operator(sym, d1, d2, rng):
    _, iop, ufunc = BINARY[sym]
    x, y = inputs(ufunc, (d1, d2), SHAPE, rng)
    gx, gy = cp.asarray(x), cp.asarray(y)
    ref, exc = numpy_outcome(lambda: iop(x.copy(), y))
    if exc is not None:  # e.g. int8 += float32: same_kind casting violation (UFuncTypeError)
        check_like_numpy(lambda: iop(x.copy(), y), lambda: iop(gx, gy))
        return
    ptr = gx.data.ptr
    result = iop(gx, gy)
    assert result is gx, "an in-place operator must return the same array object"
    assert gx.data.ptr == ptr and gx.dtype == d1
    compare_ufunc(ufunc, (d1, d2))(gx, ref)


@pytest.mark.parametrize("scalar_type", PY_SCALAR_TYPES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("sym", list(BINARY))
def test_operator_with_python_scalar(sym, dtype, scalar_type, rng):
    """array op scalar, scalar op array (reflected) and array op= scalar; scalars are weak (NEP 50)."""
    op, iop, ufunc = BINARY[sym]
    s = SCALARS[scalar_type]
    compare_fwd = compare_ufunc(ufunc, (dtype, scalar_type))
    compare_ref = compare_ufunc(ufunc, (scalar_type, dtype))
    left = random_array(SHAPE, dtype, rng, **domain(ufunc, 0).kwargs(dtype))
    right = random_array(SHAPE, dtype, rng, **domain(ufunc, 1).kwargs(dtype))
    gl, gr = cp.asarray(left), cp.asarray(right)
    check_like_numpy(lambda: op(left, s), lambda: op(gl, s), compare=compare_fwd)
    check_like_numpy(lambda: op(s, right), lambda: op(s, gr), compare=compare_ref)
    if iop is not None:
        check_like_numpy(lambda: iop(left.copy(), s), lambda: iop(gl.copy(), s), compare=compare_fwd)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_operator_with_numpy_scalar_on_the_left(dtype, rng):
    """np.float32(2) * gpu_array and friends defer to cuarray and give a cuarray result."""
    g_host = random_array(SHAPE, dtype, rng, low=1, high=5)
    g = cp.asarray(g_host)
    for scalar in (np.float32(2.5), np.int8(3), np.uint64(2), np.complex64(1j), np.bool_(True)):
        for op in (operator.add, operator.mul, operator.lt):
            check_like_numpy(lambda: op(scalar, g_host), lambda: op(scalar, g))


UNARY = {"-": (operator.neg, "negative"), "+": (operator.pos, "positive"),
         "abs": (abs, "absolute"), "~": (operator.invert, "invert")}


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("sym", list(UNARY))
def test_unary_operator(sym, dtype, rng):
    op, ufunc = UNARY[sym]
    host = random_array(SHAPE, dtype, rng, special=True)
    g = cp.asarray(host)
    check_like_numpy(lambda: op(host), lambda: op(g), compare=compare_ufunc(ufunc, (dtype,)))


def test_float32_times_python_float_stays_float32(rng):
    host = random_array(SHAPE, np.float32, rng)
    g = cp.asarray(host)
    for result, ref in [(g * 2.0, host * 2.0), (2.0 * g, 2.0 * host), (g + 1, host + 1),
                        (g / 3, host / 3), (g ** 2, host ** 2)]:
        assert result.dtype == np.float32
        assert_allclose_np(result, ref)
    h = cp.asarray(random_array(SHAPE, np.float16, rng))
    assert (h * 2.0).dtype == np.float16 and (h + 1j).dtype == np.complex64


@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.uint16)])
def test_out_of_bounds_python_int_raises_overflow(dtype, rng):
    host = random_array(SHAPE, dtype, rng)
    g = cp.asarray(host)
    big = int(np.iinfo(dtype).max) + 45  # 300 for uint8
    for op in (operator.add, operator.mul, operator.iadd, operator.lt):
        check_like_numpy(lambda: op(host.copy(), big), lambda: op(g.copy(), big))
    if dtype.kind == "u":
        check_like_numpy(lambda: host + (-1), lambda: g + (-1))
    with pytest.raises(OverflowError):
        g + big


def test_uint8_plus_300_raises_overflow_error():
    g = cp.asarray(np.arange(5, dtype=np.uint8))
    with pytest.raises(OverflowError):
        g + 300


@pytest.mark.parametrize("value_dtype", [np.dtype(np.float32), np.dtype(np.float64),
                                         np.dtype(np.complex64), np.dtype(np.int64)])
@pytest.mark.parametrize("target_dtype", [np.dtype(np.int32), np.dtype(np.float32),
                                          np.dtype(np.uint8)])
def test_imul_keeps_dtype_or_raises_like_numpy(target_dtype, value_dtype, rng):
    target = random_array(SHAPE, target_dtype, rng, low=0, high=10)
    value = random_array(SHAPE, value_dtype, rng, low=0, high=10)
    g, gv = cp.asarray(target), cp.asarray(value)
    ref, exc = numpy_outcome(lambda: operator.imul(target.copy(), value))
    if exc is not None:
        with pytest.raises(TypeError):
            g *= gv
        assert_array_equal_np(g, target)  # a refused in-place operation leaves the target alone
        return
    g *= gv
    assert g.dtype == target_dtype
    assert_allclose_np(g, ref)


def test_int_array_imul_python_float_raises(rng):
    g = cp.asarray(random_array(SHAPE, np.int32, rng))
    with pytest.raises(TypeError):
        g *= 2.5


def test_inplace_broadcasting(rng):
    a = random_array((4, 5), np.float64, rng)
    b = random_array((5,), np.float64, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    a += b
    ga += gb
    assert_array_equal_np(ga, a)
    check_like_numpy(lambda: operator.iadd(b.copy(), a), lambda: operator.iadd(gb.copy(), ga))


def test_chained_inplace_keeps_identity(rng):
    host = random_array((100,), np.float32, rng)
    g = cp.asarray(host)
    ident, ptr = g, g.data.ptr
    g += 1
    g *= 2
    g **= 2
    g -= 3.5
    host += 1
    host *= 2
    host **= 2
    host -= 3.5
    assert g is ident and g.data.ptr == ptr
    assert_array_equal_np(g, host)


MATMUL_SHAPES = [((3, 4), (4, 5)), ((4,), (4, 3)), ((3, 4), (4,)), ((5,), (5,)), ((2, 3, 4), (4, 2)),
                 ((0, 3), (3, 2)), ((3, 4), (5, 6))]


@pytest.mark.skip(reason="`@` arrives with the linalg issue (cuBLAS); issue 2 lets it wait")

@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=repr)
@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int32, np.int64, np.float32,
                                                         np.float64, np.complex64, np.complex128)])
def test_matmul_operator(dtype, shapes, rng):
    a = random_array(shapes[0], dtype, rng, low=-3, high=3)
    b = random_array(shapes[1], dtype, rng, low=-3, high=3)
    ga, gb = cp.asarray(a), cp.asarray(b)
    ref, exc = numpy_outcome(lambda: a @ b)
    if exc is not None:
        check_like_numpy(lambda: a @ b, lambda: ga @ gb)
        return
    # error bound of a dot product: a few ulps of the sum of |a_i * b_i|
    bound = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
    eps = np.finfo(np.dtype(dtype).type(0).real.dtype).eps if dtype in INEXACT else 0
    got = ga @ gb
    assert_allclose_np(got, ref, rtol=0, atol=8 * eps * bound)
