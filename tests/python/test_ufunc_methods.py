"""ufunc.at, ufunc.outer and ufunc.reduceat against NumPy: every binary ufunc and dtype through
ufunc.at with heavily repeated (and negative) indices, the atomic paths (hardware add/min/max,
compare-and-swap on 1/2/4/8-byte words, the complex128 lock), NumPy's index forms and casting
rules, outer across dtypes and ranks, reduceat's unordered-index semantics across axes and dtypes,
and the exception types of bad input.
"""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, BOOL, FLOAT, INEXACT, INTEGER, assert_allclose_np, assert_array_equal_np,
                     assert_raises_like, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu

BINARY = sorted(name for name, u in cp._core.ufuncs.items() if not name.startswith("_") and u.nin == 2 and u.nout == 1)
UNARY = sorted(name for name, u in cp._core.ufuncs.items() if not name.startswith("_") and u.nin == 1 and u.nout == 1)
# Binary ufuncs for which applying b1 then b2 equals b2 then b1 (exactly, for the values used
# below): these take a different value per index; the rest apply one constant repeatedly.
COMMUTING = {"add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin", "bitwise_and", "bitwise_or",
             "bitwise_xor", "logical_and", "logical_or", "logical_xor", "gcd", "lcm"}
# Per-step tolerances for inexact results (device libm vs NumPy's, applied a few times).
RTOL = {"e": 4e-3, "f": 2e-5, "d": 1e-12, "F": 2e-5, "D": 1e-12}


def _compare(got, ref):
    if ref.dtype.kind in "fc":
        assert_allclose_np(got, ref, rtol=RTOL[ref.dtype.char])
    else:
        assert_array_equal_np(got, ref)


def _target(dtype, rng, size):
    """Values that keep repeated ufunc steps in range: small integers, floats with NaN/inf/-0.0."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return random_array(size, dtype, rng, low=0 if dtype.kind == "u" else -20, high=20)
    if dtype.kind in "fc":
        return random_array(size, dtype, rng, low=-4, high=4, special=True)
    return random_array(size, dtype, rng)


def _values(name, dtype, rng, size):
    """b for ufunc.at: exact small values (sums and products commute exactly) or one constant."""
    dtype = np.dtype(dtype)
    if name in COMMUTING:
        if dtype.kind == "b":
            return random_array(size, dtype, rng)
        if dtype.kind in "iu":
            return random_array(size, dtype, rng, low=1, high=3)
        picks = np.array([-2, -1, -0.5, 0.5, 1, 2])
        v = rng.choice(picks, size=size)
        if dtype.kind == "c":
            v = v + 1j * rng.choice(picks, size=size)
        return v.astype(dtype)
    return dtype.type(True if dtype.kind == "b" else 3 if dtype.kind in "iu" else 1.5)


@pytest.mark.parametrize("name", BINARY)
def test_at_repeated_indices_every_dtype(name, rng):
    n = 7
    for dtype in ALL_DTYPES:
        a = _target(dtype, rng, n)
        idx = rng.integers(-n, n, size=6 * n)  # every slot hit several times, negatives included
        b = _values(name, dtype, rng, idx.size)
        ref = a.copy()
        _, exc = numpy_outcome(lambda: getattr(np, name).at(ref, idx, b))
        got = cp.asarray(a)
        b_gpu = cp.asarray(b) if isinstance(b, np.ndarray) else b
        if exc is not None:
            assert_raises_like(exc, lambda: getattr(cp, name).at(got, cp.asarray(idx), b_gpu))
            continue
        getattr(cp, name).at(got, cp.asarray(idx), b_gpu)
        _compare(got, ref)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.bool_, np.float16, np.int32,
                                   np.uint64, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum"])
def test_at_contended_slots(name, dtype, rng):
    """Thousands of updates into three neighbouring elements: the 4-byte-word CAS of 1- and 2-byte
    types must not lose a neighbour's update, nor the hardware atomics or the complex128 lock."""
    dtype = np.dtype(dtype)
    a = np.zeros(3, dtype) if name == "add" else np.ones(3, dtype)
    idx = rng.integers(0, 3, size=5000)
    if name == "multiply":
        b = rng.choice(np.array([1, -1], dtype=np.int8), size=idx.size).astype(dtype)
    else:
        b = rng.integers(0, 2, size=idx.size).astype(dtype)
    ref = a.copy()
    getattr(np, name).at(ref, idx, b)
    got = cp.asarray(a)
    getattr(cp, name).at(got, cp.asarray(idx), cp.asarray(b))
    assert_array_equal_np(got, ref)


def test_at_scalar_increment_example():
    a = cp.zeros(5, dtype=cp.int64)
    cp.add.at(a, cp.asarray([0, 1, 1, 4, 4, 4, -1]), 1)
    assert_array_equal_np(a, np.array([1, 2, 0, 0, 4]))


# Unary ufuncs whose loops are exact: their ufunc.at on integers equals NumPy's exactly. The others
# evaluate a float function (within 2 ulp of NumPy's) whose result is truncated back to the integer
# target, which can move it by one.
EXACT_UNARY = {"absolute", "bitwise_count", "ceil", "conjugate", "fabs", "floor", "invert", "isfinite", "isinf",
               "isnan", "logical_not", "negative", "positive", "reciprocal", "rint", "sign", "signbit", "square",
               "trunc"}


def _compare_repeated_complex(got, ref):
    """Complex results of a float function applied up to three times: an overflowed part is
    infinite in both, but its sign follows the cos/sin of an imaginary part that earlier steps made
    ~1e11, where the functions' 2-ulp differences are thousands: only where the infinities are is
    compared there."""
    host = cp.asnumpy(got)
    assert host.dtype == ref.dtype
    for part in (np.real, np.imag):
        g, r = part(host), part(ref)
        assert np.array_equal(np.isinf(g), np.isinf(r)), (host, ref)
        finite = np.isfinite(r) & np.isfinite(g)
        np.testing.assert_allclose(g[finite], r[finite], rtol=RTOL[ref.dtype.char])


@pytest.mark.parametrize("name", UNARY)
def test_at_unary(name, rng):
    for dtype in ALL_DTYPES:
        a = _target(dtype, rng, 6)
        idx = np.array([0, 0, 2, -1, 3, 3, 3])
        ref = a.copy()
        _, exc = numpy_outcome(lambda: getattr(np, name).at(ref, idx))
        got = cp.asarray(a)
        if exc is not None:
            assert_raises_like(exc, lambda: getattr(cp, name).at(got, cp.asarray(idx)))
            continue
        getattr(cp, name).at(got, cp.asarray(idx))
        if dtype.kind in "iu" and name not in EXACT_UNARY:
            assert got.dtype == ref.dtype
            assert np.all(np.abs(cp.asnumpy(got).astype(np.int64) - ref.astype(np.int64)) <= 1), (cp.asnumpy(got), ref)
        elif dtype.kind == "c" and name not in EXACT_UNARY:
            _compare_repeated_complex(got, ref)
        else:
            _compare(got, ref)


def _index_cases():
    i = np.array([0, 2, 2, 1])
    j = np.array([[2, 0], [2, 2]])
    return [
        (i,),
        ([0, 0, 1],),
        (slice(1, None), i[:2]),
        (Ellipsis, [4, 4, 0]),
        (i, slice(None), [1, 1, 1, 2]),       # separated arrays: broadcast dims first
        (1, slice(None), [2, 2]),             # an integer next to an array
        (slice(None), 1, [2, 2]),
        (j, slice(None, None, -2)),
        (None, i),
        (np.array([True, False, True]),),
        (np.array([[True, False, False, True]] * 3),),
        (slice(None, None, 2),),
        (2, 3),
        (-1, [-4, -4]),
    ]


@pytest.mark.parametrize("case", range(len(_index_cases())))
def test_at_index_forms(case, rng):
    index = _index_cases()[case]
    base = random_array((3, 4, 5), np.float64, rng, low=-5, high=5)
    for layout in ("c", "transposed"):
        a = base if layout == "c" else np.ascontiguousarray(base.transpose(2, 0, 1)).transpose(1, 2, 0)
        ref = a.copy()
        np.add.at(ref, index, 1.0)
        got = cp.asarray(a)
        if layout == "transposed":
            got = cp.asarray(np.ascontiguousarray(a.transpose(2, 0, 1))).transpose(1, 2, 0)
        gpu_index = tuple(cp.asarray(x) if isinstance(x, np.ndarray) else x for x in index)
        cp.add.at(got, gpu_index, 1.0)
        assert_array_equal_np(got, ref)


def test_at_broadcast_values_and_strided_operands(rng):
    a = random_array((4, 6), np.int32, rng, low=-9, high=9)
    idx = np.array([1, 3, 3, 1, 0])
    b = random_array((4, 1), np.int32, rng, low=-3, high=3)
    ref = a.copy()
    np.add.at(ref, (slice(None), idx), b)
    got = cp.asarray(a)
    cp.add.at(got, (slice(None), cp.asarray(np.repeat(idx, 2))[::2]), cp.asarray(b))
    assert_array_equal_np(got, ref)
    # A strided target view and b of the selection's full shape.
    big = random_array((8, 6), np.float32, rng, low=-9, high=9)
    ref = big.copy()
    np.multiply.at(ref[::2], (idx, slice(1, 5)), np.full((5, 4), 2, np.float32))
    got = cp.asarray(big)
    cp.multiply.at(got[::2], (cp.asarray(idx), slice(1, 5)), cp.full((5, 4), 2, dtype=cp.float32))
    assert_array_equal_np(got, ref)


def test_at_aliasing_operands():
    a = np.array([0, 1, 1, 2, 0, 3], dtype=np.int64)
    ref = a.copy()
    np.add.at(ref, ref, ref)
    got = cp.asarray(a)
    cp.add.at(got, got, got)
    assert_array_equal_np(got, ref)


@pytest.mark.parametrize("a_dtype,b", [
    (np.int64, 1.5), (np.int8, 300), (np.uint8, -3), (np.float32, 2 ** -24 + 2 ** -50),
    (np.int8, np.float16(1.5)), (np.float16, 0.1), (np.int64, np.array([1.5, 2.5, 0.7])),
])
def test_at_casting_like_numpy(a_dtype, b):
    """Python scalars count as arrays of their default dtype; the result is cast back unsafely."""
    a = np.array([3, 1, 2], dtype=a_dtype)
    idx = np.array([0, 0, 2])
    for name in ("add", "multiply"):
        ref = a.copy()
        with np.errstate(all="ignore"):
            getattr(np, name).at(ref, idx, b)
        got = cp.asarray(a)
        getattr(cp, name).at(got, cp.asarray(idx), cp.asarray(b) if isinstance(b, np.ndarray) else b)
        assert_array_equal_np(got, ref)


def test_at_out_of_range_raises_before_writing():
    a = cp.arange(5)
    with pytest.raises(IndexError, match="out of bounds"):
        cp.add.at(a, cp.asarray([0, 1, 5]), 1)
    with pytest.raises(IndexError, match="out of bounds"):
        cp.add.at(a, cp.asarray([0, -6]), 1)
    with pytest.raises(IndexError, match="out of bounds"):
        cp.add.at(a, cp.asarray(np.array([0, 2 ** 63], dtype=np.uint64)), 1)
    with pytest.raises(IndexError):
        cp.add.at(a, 7, 1)
    assert_array_equal_np(a, np.arange(5))


@pytest.mark.parametrize("call,exc", [
    (lambda a: cp.negative.at(a, [0], 1), ValueError),
    (lambda a: cp.add.at(a, [0]), ValueError),
    (lambda a: cp.divmod.at(a, [0], 1), ValueError),
    (lambda a: cp.add.at(a, [0, 1], cp.asarray([1, 2, 3])), ValueError),
    (lambda a: cp.add.at(a, np.array([0.0]), 1), IndexError),
    (lambda a: cp.add.at(a, (0, 0), 1), IndexError),
    (lambda a: cp.add.at(a, cp.asarray([0.5]), 1), IndexError),
    (lambda a: cp.left_shift.at(a.astype(cp.float64), [0], 1), TypeError),
    (lambda a: cp.subtract.at(a.astype(cp.bool_), [0], True), TypeError),
    (lambda a: cp.add.at(cp.zeros((2, 3)), ([0, 1], [0, 1, 2]), 1), IndexError),
])
def test_at_errors(call, exc):
    with pytest.raises(exc):
        call(cp.arange(4))


def test_at_empty():
    a = cp.arange(4.0)
    cp.add.at(a, cp.asarray(np.array([], dtype=np.int64)), 1.0)
    cp.add.at(a, [], 1.0)
    assert_array_equal_np(a, np.arange(4.0))
    e = cp.zeros((0, 3))
    cp.add.at(e, (slice(None), [0, 1]), 1.0)
    assert e.shape == (0, 3)


# --------------------------------------------------------------------------------------------------
# outer

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "less", "arctan2", "left_shift",
                                  "logical_xor"])
def test_outer_dtypes(name, rng):
    for da in ALL_DTYPES:
        for db in (da, np.dtype(np.float32), np.dtype(np.int16)):
            a = random_array((3,), da, rng, low=0, high=5)
            b = random_array((2, 2), db, rng, low=0, high=5)
            ref, exc = numpy_outcome(lambda: getattr(np, name).outer(a, b))
            if exc is not None:
                assert_raises_like(exc, lambda: getattr(cp, name).outer(cp.asarray(a), cp.asarray(b)))
                continue
            got = getattr(cp, name).outer(cp.asarray(a), cp.asarray(b))
            assert_allclose_np(got, ref) if ref.dtype.kind in "fc" else assert_array_equal_np(got, ref)


def test_outer_shapes_layouts_and_kwargs(rng):
    a = random_array((4, 3), np.float64, rng)
    b = random_array((5,), np.float64, rng)
    assert_allclose_np(cp.multiply.outer(cp.asarray(a).T, cp.asarray(b)[::-2]), np.multiply.outer(a.T, b[::-2]))
    assert_array_equal_np(cp.add.outer(cp.asarray(np.int8([1, 2])), 1), np.add.outer(np.int8([1, 2]), 1))
    assert_array_equal_np(cp.add.outer(2, 3), np.asarray(np.add.outer(2, 3)))
    assert_array_equal_np(cp.add.outer(cp.zeros((0, 2)), cp.ones(3)), np.add.outer(np.zeros((0, 2)), np.ones(3)))
    out = cp.empty((4, 3, 5), dtype=cp.float32)
    r = cp.add.outer(cp.asarray(a), cp.asarray(b), out=out, casting="unsafe")
    assert r is out
    assert_allclose_np(out, np.add.outer(a, b).astype(np.float32))
    assert_array_equal_np(cp.add.outer(cp.arange(3), cp.arange(2), dtype=cp.float64),
                          np.add.outer(np.arange(3), np.arange(2), dtype=np.float64))
    q, r = cp.divmod.outer(cp.arange(1, 4), cp.arange(1, 3))
    q_ref, r_ref = np.divmod.outer(np.arange(1, 4), np.arange(1, 3))
    assert_array_equal_np(q, q_ref)
    assert_array_equal_np(r, r_ref)
    with pytest.raises(ValueError, match="binary"):
        cp.negative.outer(cp.arange(2), cp.arange(2))


# --------------------------------------------------------------------------------------------------
# reduceat

@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract", "logical_and",
                                  "bitwise_or", "fmax", "divide", "equal"])
def test_reduceat_dtypes(name, rng):
    idx = [0, 4, 1, 5, 5, 7, 2]
    for dtype in ALL_DTYPES:
        a = random_array((8,), dtype, rng, low=-3, high=3, special=dtype.kind in "fc")
        ref, exc = numpy_outcome(lambda: getattr(np, name).reduceat(a, idx))
        if exc is not None:
            assert_raises_like(exc, lambda: getattr(cp, name).reduceat(cp.asarray(a), idx))
            continue
        got = getattr(cp, name).reduceat(cp.asarray(a), idx)
        _compare(got, ref)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_reduceat_axes_and_layouts(axis, rng):
    base = random_array((6, 5, 7), np.float64, rng)
    for view in (lambda x: x, lambda x: x.transpose(1, 2, 0)[::-1], lambda x: x[::2, 1:, ::3]):
        a_np = view(base)
        n = a_np.shape[axis]
        idx = np.array([0, n - 1, 1, 1, n // 2])
        ref = np.add.reduceat(a_np, idx, axis=axis)
        got = cp.add.reduceat(view(cp.asarray(base)), cp.asarray(idx), axis=axis)
        assert_array_equal_np(got, ref)


def test_reduceat_numpy_doc_example_and_options():
    x = np.linspace(0, 15, 16).reshape(4, 4)
    idx = [0, 3, 1, 2, 0]
    assert_array_equal_np(cp.add.reduceat(cp.asarray(x), idx), np.add.reduceat(x, idx))
    assert_array_equal_np(cp.multiply.reduceat(cp.asarray(x), [0, 3], axis=1), np.multiply.reduceat(x, [0, 3], axis=1))
    a = np.arange(8, dtype=np.int8)
    assert_array_equal_np(cp.add.reduceat(cp.asarray(a), [0, 4], dtype=cp.float32),
                          np.add.reduceat(a, [0, 4], dtype=np.float32))
    assert_array_equal_np(cp.add.reduceat(cp.asarray(a), np.array([0, 2], dtype=np.uint32)),
                          np.add.reduceat(a, np.array([0, 2], dtype=np.uint32)))
    out = cp.zeros(2)
    assert cp.add.reduceat(cp.asarray(a), [0, 4], out=out) is out
    assert_array_equal_np(out, np.add.reduceat(a, [0, 4], out=np.zeros(2)))
    assert_array_equal_np(cp.add.reduceat(cp.asarray(a), []), np.add.reduceat(a, []))
    assert_array_equal_np(cp.add.reduceat(cp.zeros((2, 0)), [0]), np.add.reduceat(np.zeros((2, 0)), [0]))
    # Long segments: float add follows NumPy's pairwise summation tree, so results are identical.
    for dtype in (np.float16, np.float32, np.float64):
        big = (np.random.default_rng(5).standard_normal(100000) * 100).astype(dtype)
        for idx in ([0, 99999, 5], [0, 8, 9, 137, 129, 1000, 1001]):
            assert_array_equal_np(cp.add.reduceat(cp.asarray(big), idx), np.add.reduceat(big, idx))
    neg_zero = np.array([-0.0, -0.0, -0.0])
    assert_array_equal_np(cp.add.reduceat(cp.asarray(neg_zero), [0]), np.add.reduceat(neg_zero, [0]),
                          signed_zeros=True)
    ints = np.arange(100000, dtype=np.int32)
    assert_array_equal_np(cp.add.reduceat(cp.asarray(ints), [0, 99999, 5]), np.add.reduceat(ints, [0, 99999, 5]))


@pytest.mark.parametrize("call,exc", [
    (lambda: cp.add.reduceat(cp.arange(8), [0, 8]), IndexError),
    (lambda: cp.add.reduceat(cp.arange(8), [-1]), IndexError),
    (lambda: cp.add.reduceat(cp.zeros((0, 3)), [0]), IndexError),
    (lambda: cp.add.reduceat(cp.asarray(np.array(5)), [0]), TypeError),
    (lambda: cp.negative.reduceat(cp.arange(8), [0]), ValueError),
    (lambda: cp.divmod.reduceat(cp.arange(8), [0]), ValueError),
    (lambda: cp.add.reduceat(cp.zeros((2, 3)), [0], axis=2), np.exceptions.AxisError),
    (lambda: cp.add.reduceat(cp.arange(8), np.array([0.0])), TypeError),
    (lambda: cp.add.reduceat(cp.arange(8), np.array([0], dtype=np.uint64)), TypeError),
    (lambda: cp.equal.reduceat(cp.arange(8), [0]), TypeError),
])
def test_reduceat_errors(call, exc):
    with pytest.raises(exc):
        call()
