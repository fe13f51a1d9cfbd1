"""Products against NumPy: matmul (every dtype, layouts, stacks, broadcasting, 1-D rules, out=,
dtype=, casting=, integer wraparound, the `@` operators), dot, vdot, inner, outer, tensordot,
kron, cross, vecdot, matvec, vecmat, cuarray.linalg's products, NumPy dispatch, and every error
case with NumPy's exception type. Float results are compared with a tolerance scaled by the sum
of |products| (what rounding in a length-k sum can reach)."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp

from helpers import ALL_DTYPES, INTEGER, SHAPED_LAYOUTS, expect_error, layout_pair, random_array

gpu = pytest.mark.gpu

PRODUCT_DTYPES = ALL_DTYPES
_EPS = {"e": 2.0 ** -10, "f": 2.0 ** -23, "d": 2.0 ** -52, "F": 2.0 ** -23, "D": 2.0 ** -52}


def _data(shape, dtype, rng):
    """Random operands: integers over their whole range (so that sums wrap), floats of moderate size."""
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        return random_array(shape, dtype, rng, low=-2, high=2)
    return random_array(shape, dtype, rng)


def _assert_product(got, ref, a, b, sum_len):
    """Exact for bool/integers; for floats |got - ref| <= c * eps * k * (|a| @ |b|) elementwise bound."""
    got = cp.asnumpy(got) if isinstance(got, cp.ndarray) else np.asarray(got)
    ref = np.asarray(ref)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(got, ref)
        return
    scale = np.max(np.abs(a.astype(np.complex128))) * np.max(np.abs(b.astype(np.complex128))) if a.size and b.size else 0
    atol = 4 * _EPS[ref.dtype.char] * max(sum_len, 1) * scale + 1e-30
    np.testing.assert_allclose(got.astype(np.complex128), ref.astype(np.complex128), rtol=0, atol=atol)


def _reference_matmul(a, b, **kwargs):
    """NumPy's matmul; float16 in float64 then rounded (NumPy's float16 loop rounds every partial sum,
    cuBLAS accumulates in float32: both are within the tolerance of the exact value)."""
    if a.dtype == np.float16 and b.dtype == np.float16 and "dtype" not in kwargs:
        return np.matmul(a.astype(np.float64), b.astype(np.float64)).astype(np.float16)
    return np.matmul(a, b, **kwargs)


SHAPE_PAIRS = [
    ((4, 5), (5, 3)), ((7,), (7,)), ((3, 4), (4,)), ((4,), (4, 6)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((3, 0, 4), (4, 2)), ((1, 1), (1, 1)),
    ((6, 1), (1, 6)), ((3, 2, 1, 4), (1, 2, 4, 3)),
]


@gpu
@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
def test_matmul_every_dtype_and_shape(dtype, rng):
    for sa, sb in SHAPE_PAIRS:
        a, b = _data(sa, dtype, rng), _data(sb, dtype, rng)
        got = cp.matmul(cp.asarray(a), cp.asarray(b))
        _assert_product(got, _reference_matmul(a, b), a, b, sa[-1])


@gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32, np.uint8, np.bool_])
@pytest.mark.parametrize("layout_a,layout_b", list(itertools.product(SHAPED_LAYOUTS, repeat=2)))
def test_matmul_layouts(dtype, layout_a, layout_b, rng):
    """C, F, transposed, stepped, negative-stride and broadcast (stride-0) operands."""
    a, ga = layout_pair(layout_a, (3, 4, 5), dtype, rng, **({"low": -2, "high": 2} if np.dtype(dtype).kind in "fc" else {}))
    b, gb = layout_pair(layout_b, (3, 5, 6), dtype, rng, **({"low": -2, "high": 2} if np.dtype(dtype).kind in "fc" else {}))
    _assert_product(ga @ gb, np.matmul(a, b), a, b, 5)
    _assert_product(cp.matmul(gb.swapaxes(-1, -2), ga.swapaxes(-1, -2)),
                    np.matmul(b.swapaxes(-1, -2), a.swapaxes(-1, -2)), a, b, 5)


@gpu
@pytest.mark.parametrize("dtype", INTEGER)
def test_integer_matmul_wraps_around(dtype, rng):
    """Full-range integers: every sum overflows, NumPy's result is the wrapped one; large k crosses
    the kernel's tiles."""
    a, b = _data((33, 300), dtype, rng), _data((300, 65), dtype, rng)
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(a) @ cp.asarray(b)), a @ b)
    s, t = _data((5, 17, 9), dtype, rng), _data((9, 130), dtype, rng)
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(s) @ cp.asarray(t)), s @ t)


@gpu
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_])
def test_byte_matmul_on_tensor_cores(dtype, rng):
    """Sizes that meet cuBLAS's int8 GEMM rules (multiples of 4): int32 sums cast back as NumPy's
    wraparound (or != 0 for bool); plain, transposed and stacked operands."""
    a, b = _data((64, 128), dtype, rng), _data((128, 32), dtype, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    np.testing.assert_array_equal(cp.asnumpy(ga @ gb), a @ b)
    np.testing.assert_array_equal(cp.asnumpy(gb.T @ ga.T), b.T @ a.T)
    s, t = _data((3, 16, 64), dtype, rng), _data((3, 64, 8), dtype, rng)
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(s) @ cp.asarray(t)), s @ t)
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(s) @ cp.asarray(t[0])), s @ t[0])


@gpu
@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_wide_integer_matmul_on_int8_digits(dtype, rng):
    """Sizes where 16- to 64-bit products run as int8 tensor-core GEMMs of base-256 digits (n, k
    multiples of 4, enough work): full-range values, so every sum wraps; transposed operands too."""
    a, b = _data((128, 512), dtype, rng), _data((512, 256), dtype, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    np.testing.assert_array_equal(cp.asnumpy(ga @ gb), a @ b)
    bt, at = cp.asarray(np.asfortranarray(b.T)), cp.asarray(a.T.copy()).T  # F-ordered and transposed views
    np.testing.assert_array_equal(cp.asnumpy(cp.matmul(at, cp.asarray(b))), a @ b)
    np.testing.assert_array_equal(cp.asnumpy(cp.matmul(bt, ga.T)), b.T @ a.T)
    v = _data((512,), dtype, rng)  # a 1-D a: one row, whose leading dimension cuBLAS takes from k
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(v) @ gb), v @ b)


@gpu
@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_stacked_wide_integer_matmul_on_int8_digits(dtype, rng):
    """Stacks the cost estimate sends to the digit path (digit_path_pays) run as one strided batch
    per GEMM: uniform stacks (odd m), a matrix broadcast against a stack on either side, reversed and
    transposed stacks; the extremes of the dtype included. A partly broadcast pair falls back to the
    integer kernel and must agree too."""
    info = np.iinfo(dtype)
    a, b = _data((16, 63, 256), dtype, rng), _data((16, 256, 68), dtype, rng)
    a[0, 0, :4] = [info.min, info.max, info.min, info.max]
    b[0, :4, 0] = [info.max, info.max, info.min, 1]
    ga, gb = cp.asarray(a), cp.asarray(b)
    np.testing.assert_array_equal(cp.asnumpy(ga @ gb), a @ b)
    np.testing.assert_array_equal(cp.asnumpy(ga @ gb[3]), a @ b[3])
    np.testing.assert_array_equal(cp.asnumpy(ga[5] @ gb), a[5] @ b)
    np.testing.assert_array_equal(cp.asnumpy(ga[::-1] @ gb), a[::-1] @ b)
    bt = cp.asarray(np.ascontiguousarray(b.transpose(0, 2, 1)))
    np.testing.assert_array_equal(cp.asnumpy(ga @ bt.transpose(0, 2, 1)), a @ b)
    c, d = a.reshape(4, 4, 63, 256)[:, :1], b.reshape(4, 4, 256, 68)[:1]
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(c) @ cp.asarray(d)), c @ d)


@gpu
def test_large_float_products_use_gemm_accuracy(rng):
    """k = 2048 float32 without TF32 stays near FP32 rounding (TF32 would miss by ~1e-3)."""
    assert not cp.cuda.cublas.allow_tf32()
    a, b = _data((64, 2048), np.float32, rng), _data((2048, 48), np.float32, rng)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    got = cp.asnumpy(cp.asarray(a) @ cp.asarray(b)).astype(np.float64)
    assert np.max(np.abs(got - ref)) <= 1e-4 * np.max(np.abs(ref))


@gpu
def test_tf32_switch(rng):
    a, b = _data((64, 512), np.float32, rng), _data((512, 64), np.float32, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    cp.cuda.cublas.set_allow_tf32(True)
    try:
        assert cp.cuda.cublas.allow_tf32()
        got = cp.asnumpy(ga @ gb)
    finally:
        cp.cuda.cublas.set_allow_tf32(False)
    np.testing.assert_allclose(got, a @ b, rtol=0, atol=2e-2 * np.max(np.abs(a @ b)))


@gpu
def test_mixed_dtypes_promote(rng):
    for da, db in [(np.int8, np.uint8), (np.float32, np.float64), (np.int32, np.float32), (np.bool_, np.int16),
                   (np.float16, np.complex64), (np.uint64, np.int64)]:
        a, b = _data((3, 4), da, rng), _data((4, 2), db, rng)
        _assert_product(cp.matmul(cp.asarray(a), cp.asarray(b)), np.matmul(a, b), a, b, 4)


@gpu
def test_matmul_out_dtype_casting(rng):
    a, b = _data((2, 3, 4), np.float32, rng), _data((4, 5), np.float32, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    out = cp.empty((2, 3, 5), np.float64)
    assert cp.matmul(ga, gb, out=out) is out
    assert out.dtype == np.float64  # NumPy's 'ff->f' loop, cast into out
    _assert_product(out.astype(np.float32), np.matmul(a, b, out=np.empty((2, 3, 5))).astype(np.float32), a, b, 4)
    out32 = cp.empty((2, 3, 5), np.float32)
    assert cp.matmul(ga, gb, out=(out32,)) is out32
    _assert_product(out32, a @ b, a, b, 4)
    # A non-contiguous out gets the product through a cast copy.
    wide = cp.zeros((2, 3, 10), np.float32)
    cp.matmul(ga, gb, out=wide[..., ::2])
    _assert_product(wide[..., ::2], a @ b, a, b, 4)
    _assert_product(cp.matmul(ga, gb, dtype=np.float64), np.matmul(a, b, dtype=np.float64), a, b, 4)
    _assert_product(cp.matmul(ga, gb, dtype="f8", casting="safe"), np.matmul(a, b, dtype="f8", casting="safe"), a, b, 4)
    # Output overlapping an input: NumPy's result as if computed first.
    sq = _data((4, 4), np.float64, rng)
    gsq = cp.asarray(sq)
    cp.matmul(gsq, gsq, out=gsq)
    _assert_product(gsq, sq @ sq, sq, sq, 4)
    # Errors, NumPy's types.
    expect_error(lambda: np.matmul(a, b, out=np.empty((2, 3, 5), np.int64)),
                 lambda: cp.matmul(ga, gb, out=cp.empty((2, 3, 5), np.int64)), "Cannot cast ufunc 'matmul' output")
    expect_error(lambda: np.matmul(a, b, dtype=np.int32), lambda: cp.matmul(ga, gb, dtype=np.int32),
                 "Cannot cast ufunc 'matmul' input 0")
    expect_error(lambda: np.matmul(a, b, dtype=np.float16, casting="safe"),
                 lambda: cp.matmul(ga, gb, dtype=np.float16, casting="safe"), "with casting rule 'safe'")
    expect_error(lambda: np.matmul(a, b, out=np.empty((2, 3, 4), np.float32)),
                 lambda: cp.matmul(ga, gb, out=cp.empty((2, 3, 4), np.float32)),
                 "Output operand 0 has a mismatch in its core dimension 1")
    expect_error(lambda: np.matmul(a, b, out=np.empty((3, 3, 5), np.float32)),
                 lambda: cp.matmul(ga, gb, out=cp.empty((3, 3, 5), np.float32)))


@gpu
def test_matmul_axes_and_order(rng):
    a, b = _data((4, 2, 3), np.float64, rng), _data((3, 5, 2), np.float64, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    axes = [(0, 2), (0, 1), (1, 0)]  # a's core dims are (4, 3): rows on axis 0, columns on axis 2
    _assert_product(cp.matmul(ga, gb, axes=axes), np.matmul(a, b, axes=axes), a, b, 3)
    f = cp.matmul(ga[:, 0, :], gb[:, :, 0], order="F")  # (4, 3) @ (3, 5)
    assert f.flags.f_contiguous
    _assert_product(f, np.matmul(a[:, 0, :], b[:, :, 0], order="F"), a, b, 3)


@gpu
def test_matmul_shape_errors(rng):
    cases = [((), (3,)), ((3,), ()), ((2, 3), (2, 3)), ((3,), (4,)), ((2, 2, 3), (3, 3, 2)), ((5, 2, 3), (4, 3, 2)),
             ((4,), (2, 3, 4))]
    for sa, sb in cases:
        a, b = _data(sa, np.float64, rng), _data(sb, np.float64, rng)
        _, exc = None, None
        try:
            np.matmul(a, b)
        except ValueError as e:
            exc = e
        assert exc is not None
        with pytest.raises(ValueError) as info:
            cp.matmul(cp.asarray(a), cp.asarray(b))
        assert str(info.value) == str(exc)


@gpu
def test_matmul_operators(rng):
    a, b = _data((3, 4), np.float64, rng), _data((4, 4), np.float64, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    _assert_product(ga @ gb, a @ b, a, b, 4)
    x, gx = a.copy(), ga.copy()
    x @= b
    gx @= gb
    _assert_product(gx, x, a, b, 4)
    expect_error(lambda: a @ 2, lambda: ga @ 2, "does not have enough dimensions")
    expect_error(lambda: 2 @ a, lambda: 2 @ ga, "does not have enough dimensions")
    y, gy = a.copy(), ga.copy()
    expect_error(lambda: y.__imatmul__(a.T), lambda: gy.__imatmul__(ga.T), "mismatch in its core dimension")
    _assert_product(ga.dot(gb), a.dot(b), a, b, 4)
    with pytest.raises(TypeError):
        ga @ b  # host data never moves implicitly


@gpu
def test_numpy_dispatch(rng):
    a, b = _data((2, 3, 4), np.float32, rng), _data((4, 3), np.float32, rng)
    v = _data((4,), np.float32, rng)
    ga, gb, gv = cp.asarray(a), cp.asarray(b), cp.asarray(v)
    for np_result, ref in [(np.matmul(ga, gb), a @ b), (np.dot(ga, gb), np.dot(a, b)), (np.kron(gb, gv), np.kron(b, v)),
                           (np.tensordot(ga, gb, axes=([2, 1], [0, 1])), np.tensordot(a, b, axes=([2, 1], [0, 1]))),
                           (np.vecdot(ga, gv), np.vecdot(a, v)), (np.inner(ga, gv), np.inner(a, v)),
                           (np.outer(gv, gv), np.outer(v, v)), (np.vdot(gv, gv), np.vdot(v, v)),
                           (np.linalg.multi_dot([gb, ga[0], gb]), np.linalg.multi_dot([b, a[0], b])),
                           (np.linalg.matrix_power(ga[:, :, :3], 3), np.linalg.matrix_power(a[:, :, :3], 3)),
                           (np.matvec(ga, gv), np.matvec(a, v))]:
        assert isinstance(np_result, cp.ndarray), type(np_result)
        _assert_product(np_result, ref, np.abs(a) + 1, np.abs(a) + 1, 64)


@gpu
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int16, np.bool_])
def test_dot_family(dtype, rng):
    def d(*shape):
        return _data(shape, dtype, rng)

    cases = [
        ("dot", lambda xp, x, y: xp.dot(x, y), [(d(5), d(5)), (d(3, 5), d(5)), (d(5), d(5, 2)), (d(2, 3, 5), d(4, 5, 2)),
                                                (d(), d(3, 4)), (d(3, 4), d()), (d(3, 5), d(5, 0))]),
        ("vdot", lambda xp, x, y: xp.vdot(x, y), [(d(6), d(6)), (d(2, 3), d(6)), (d(3, 2), d(2, 3))]),
        ("inner", lambda xp, x, y: xp.inner(x, y), [(d(5), d(5)), (d(3, 5), d(4, 5)), (d(2, 3, 5), d(5)), (d(), d(3))]),
        ("outer", lambda xp, x, y: xp.outer(x, y), [(d(3), d(4)), (d(2, 2), d(3))]),
        ("tensordot", lambda xp, x, y: xp.tensordot(x, y), [(d(3, 4, 5), d(4, 5, 2)), (d(4, 5), d(4, 5))]),
        ("tensordot1", lambda xp, x, y: xp.tensordot(x, y, axes=1), [(d(3, 4), d(4, 2))]),
        ("tensordot0", lambda xp, x, y: xp.tensordot(x, y, axes=0), [(d(3), d(2))]),
        ("tensordot_pairs", lambda xp, x, y: xp.tensordot(x, y, axes=([0, 2], [2, 0])), [(d(3, 4, 5), d(5, 2, 3))]),
        ("kron", lambda xp, x, y: xp.kron(x, y), [(d(2, 3), d(3, 2)), (d(2), d(2, 3)), (d(2, 1, 2), d(3)), (d(), d(2))]),
        ("vecdot", lambda xp, x, y: xp.vecdot(x, y), [(d(5), d(5)), (d(3, 5), d(5)), (d(2, 1, 5), d(4, 5))]),
        ("vecdot_axis", lambda xp, x, y: xp.vecdot(x, y, axis=0), [(d(5, 3), d(5, 3))]),
        ("matvec", lambda xp, x, y: xp.matvec(x, y), [(d(3, 5), d(5)), (d(2, 3, 5), d(2, 5))]),
        ("vecmat", lambda xp, x, y: xp.vecmat(x, y), [(d(5), d(5, 3)), (d(2, 5), d(2, 5, 3))]),
    ]
    for name, f, pairs in cases:
        for x, y in pairs:
            ref = f(np, x, y)
            got = f(cp, cp.asarray(x), cp.asarray(y))
            _assert_product(got, ref, x, y, max(x.size, y.size, 1))


@gpu
def test_cross(rng):
    for sa, sb in [((3,), (3,)), ((4, 3), (3,)), ((2, 3), (2, 2)), ((2,), (3,)), ((5, 2), (5, 2))]:
        a, b = _data(sa, np.float64, rng), _data(sb, np.float64, rng)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2.0 deprecates 2-component vectors
                ref = np.cross(a, b)
        except ValueError:  # and a later NumPy refuses them: so must we, with its message
            with pytest.raises(ValueError, match="3-dimensional vectors"):
                cp.cross(cp.asarray(a), cp.asarray(b))
            continue
        with pytest.warns(DeprecationWarning) if 2 in (sa[-1], sb[-1]) else warnings.catch_warnings():
            got = cp.cross(cp.asarray(a), cp.asarray(b))
        _assert_product(got, ref, a, b, 2)
    a, b = _data((3, 4), np.int32, rng), _data((3, 4), np.int32, rng)
    np.testing.assert_array_equal(cp.asnumpy(cp.cross(cp.asarray(a), cp.asarray(b), axis=0)), np.cross(a, b, axis=0))
    np.testing.assert_array_equal(cp.asnumpy(cp.linalg.cross(cp.asarray(a[:, :3].T), cp.asarray(b[:, :3].T))),
                                  np.linalg.cross(a[:, :3].T, b[:, :3].T))
    expect_error(lambda: np.cross(np.ones(4), np.ones(3)), lambda: cp.cross(cp.ones(4), cp.ones(3)),
                 "incompatible dimensions for cross product" if np.lib.NumpyVersion(np.__version__) < "2.5.0"
                 else "3-dimensional vectors, but they are 4 and 3")
    expect_error(lambda: np.linalg.cross(np.ones(2), np.ones(2)), lambda: cp.linalg.cross(cp.ones(2), cp.ones(2)),
                 "must be (arrays of) 3-dimensional vectors")


@gpu
def test_product_errors(rng):
    a, b = _data((2, 3), np.float64, rng), _data((2, 3), np.float64, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    expect_error(lambda: np.dot(a, b), lambda: cp.dot(ga, gb), "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)")
    expect_error(lambda: np.inner(a, b.T), lambda: cp.inner(ga, gb.T), "not aligned")
    expect_error(lambda: np.vdot(np.ones(3), np.ones(4)), lambda: cp.vdot(cp.ones(3), cp.ones(4)), "cannot reshape")
    expect_error(lambda: np.tensordot(a, b, axes=([0], [1])), lambda: cp.tensordot(ga, gb, axes=([0], [1])),
                 "shape-mismatch for sum")
    expect_error(lambda: np.tensordot(a, b, axes=3), lambda: cp.tensordot(ga, gb, axes=3), "tuple index out of range")
    expect_error(lambda: np.vecdot(np.ones(3), np.ones(4)), lambda: cp.vecdot(cp.ones(3), cp.ones(4)),
                 "vecdot: Input operand 1 has a mismatch in its core dimension 0")
    expect_error(lambda: np.matvec(np.ones((2, 3)), np.ones(4)), lambda: cp.matvec(cp.ones((2, 3)), cp.ones(4)),
                 "matvec: Input operand 1 has a mismatch")
    expect_error(lambda: np.linalg.outer(a, b[0]), lambda: cp.linalg.outer(ga, gb[0]),
                 "Input arrays must be one-dimensional")
    expect_error(lambda: np.linalg.matrix_transpose(np.ones(3)), lambda: cp.linalg.matrix_transpose(cp.ones(3)),
                 "Input array must be at least 2-dimensional")
    expect_error(lambda: np.linalg.matrix_power(np.ones(3), 2), lambda: cp.linalg.matrix_power(cp.ones(3), 2),
                 "Array must be at least two-dimensional")
    expect_error(lambda: np.linalg.matrix_power(a, 2), lambda: cp.linalg.matrix_power(ga, 2),
                 "Last 2 dimensions of the array must be square")
    expect_error(lambda: np.linalg.matrix_power(np.ones((2, 2)), 2.0), lambda: cp.linalg.matrix_power(cp.ones((2, 2)), 2.0),
                 "exponent must be an integer")
    with pytest.raises(np.linalg.LinAlgError):
        cp.linalg.matrix_power(ga, 2)
    expect_error(lambda: np.linalg.multi_dot([a]), lambda: cp.linalg.multi_dot([ga]), "Expecting at least two arrays.")


@gpu
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex64])
def test_linalg_products(dtype, rng):
    sq = _data((3, 4, 4), dtype, rng) if np.dtype(dtype).kind != "i" else random_array((3, 4, 4), dtype, rng, low=-3, high=3)
    g = cp.asarray(sq)
    def close(got, ref):
        got, ref = cp.asnumpy(got), np.asarray(ref)
        assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
        if ref.dtype.kind in "iu":
            np.testing.assert_array_equal(got, ref)
        else:  # powers amplify rounding: relative to the largest element
            tol = 1e-4 if ref.dtype in (np.float32, np.complex64) else 1e-12
            np.testing.assert_allclose(got, ref, rtol=0, atol=tol * max(np.max(np.abs(ref)), 1))

    for n in (0, 1, 2, 3, 6):
        close(cp.linalg.matrix_power(g, n), np.linalg.matrix_power(sq, n))
    if hasattr(cp.linalg, "inv") and np.dtype(dtype).kind in "fc":
        well = sq + 8 * np.eye(4, dtype=dtype)
        close(cp.linalg.matrix_power(cp.asarray(well), -2), np.linalg.matrix_power(well, -2))
    chain = [_data(s, dtype, rng) for s in [(10,), (10, 3), (3, 30), (30, 2), (2,)]]
    for arrays in (chain, chain[1:-1], chain[:-1], chain[1:]):
        ref = np.linalg.multi_dot(arrays)
        _assert_product(cp.linalg.multi_dot([cp.asarray(x) for x in arrays]), ref,
                        np.abs(chain[1]) + 1, np.abs(chain[2]) + 1, 10 ** 4)
    m = _data((2, 3, 4), dtype, rng)
    gm = cp.asarray(m)
    np.testing.assert_array_equal(cp.asnumpy(cp.linalg.matrix_transpose(gm)), np.linalg.matrix_transpose(m))
    np.testing.assert_array_equal(cp.asnumpy(cp.linalg.diagonal(gm, offset=1)), np.linalg.diagonal(m, offset=1))
    _assert_product(cp.linalg.trace(gm), np.linalg.trace(m), m, np.ones(1), 4)
    _assert_product(cp.linalg.matmul(gm, cp.linalg.matrix_transpose(gm)), np.linalg.matmul(m, np.linalg.matrix_transpose(m)), m, m, 4)
    _assert_product(cp.linalg.tensordot(gm, gm, axes=3), np.linalg.tensordot(m, m, axes=3), m, m, 24)
    _assert_product(cp.linalg.vecdot(gm, gm, axis=1), np.linalg.vecdot(m, m, axis=1), m, m, 3)
    _assert_product(cp.linalg.outer(gm[0, 0], gm[1, 1]), np.linalg.outer(m[0, 0], m[1, 1]), m, m, 1)


@gpu
@given(st.data())
def test_matmul_broadcasting_property(data):
    """Random batch shapes that broadcast (size-1 and missing dims on either side) and random core sizes."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    nd = data.draw(st.integers(0, 3))
    batch = [data.draw(st.integers(1, 3)) for _ in range(nd)]
    ba = [d if data.draw(st.booleans()) else 1 for d in batch][data.draw(st.integers(0, nd)):]
    bb = [d if data.draw(st.booleans()) else 1 for d in batch][data.draw(st.integers(0, nd)):]
    m, k, n = (data.draw(st.integers(0, 9)) for _ in range(3))
    a_vec, b_vec = data.draw(st.booleans()) and not ba, data.draw(st.booleans()) and not bb
    sa = (k,) if a_vec else tuple(ba) + (m, k)
    sb = (k,) if b_vec else tuple(bb) + (k, n)
    dtype = data.draw(st.sampled_from([np.float64, np.complex64, np.int8]))
    a, b = _data(sa, dtype, rng), _data(sb, dtype, rng)
    transpose_a = data.draw(st.booleans()) and len(sa) >= 2
    ga = cp.asarray(np.ascontiguousarray(a.swapaxes(-1, -2))).swapaxes(-1, -2) if transpose_a else cp.asarray(a)
    _assert_product(cp.matmul(ga, cp.asarray(b)), np.matmul(a, b), a, b, k)


# ---- host-only: no GPU needed ----

def test_matmul_object_is_ufunc_like():
    assert cp.matmul.__name__ == "matmul" and repr(cp.matmul) == "<ufunc 'matmul'>"
    assert (cp.matmul.nin, cp.matmul.nout, cp.matmul.nargs) == (2, 1, 3)
    assert cp.matmul.signature == np.matmul.signature
    assert set(cp.matmul.types) <= set(np.matmul.types) and "dd->d" in cp.matmul.types and "bb->b" in cp.matmul.types
    assert cp.vecdot.signature == np.vecdot.signature and cp.matvec.signature == np.matvec.signature
    with pytest.raises(ValueError):
        cp.matmul.reduce(None)


def test_host_arrays_are_refused():
    with pytest.raises(TypeError, match="Unsupported type"):
        cp.matmul(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(TypeError, match="Unsupported type"):
        cp.dot([1, 2], [3, 4])
    with pytest.raises(ValueError, match="Expecting at least two arrays"):
        cp.linalg.multi_dot([])


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.int64])
def test_digit_split_identity(dtype):
    """The identity digit_gemm.cpp computes, checked in NumPy: balanced base-256 digits of the biased
    operands (A's planes (m, w, k) high digit first, B's transposed (n, w, k) low first) multiplied
    blockwise in int32 and summed with shifts equal NumPy's wrapped product."""
    rng = np.random.default_rng(3)
    info, w = np.iinfo(dtype), np.dtype(dtype).itemsize
    u = np.dtype(f"u{w}")
    a = rng.integers(info.min, info.max, (5, 12), dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, (12, 8), dtype=dtype, endpoint=True)

    def planes(x, perm, high_first):
        y = x.view(u) + u.type(int("80" * w, 16))
        p = (y.view(np.uint8).reshape(x.shape + (w,)) ^ np.uint8(0x80)).view(np.int8).transpose(perm)
        return np.ascontiguousarray(p[:, ::-1, :] if high_first else p)

    ap, bp = planes(a, (0, 2, 1), True), planes(b, (1, 2, 0), False)  # (m, w, k) high first; (n, w, k)
    total = np.zeros((5, 8), u)
    for s in range(w):
        sums = ap[:, w - 1 - s:, :].reshape(5, -1).astype(np.int32) @ bp[:, :s + 1, :].reshape(8, -1).T.astype(np.int32)
        total = total + (sums.astype(u) << u.type(8 * s))
    np.testing.assert_array_equal(total.view(dtype), a @ b)


def test_multi_dot_order_is_numpys():
    from cuarray.linalg._products import _chain_order
    try:
        from numpy.linalg._linalg import _multi_dot_matrix_chain_order
    except ImportError:
        pytest.skip("this NumPy has no _multi_dot_matrix_chain_order to compare with")
    rng = np.random.default_rng(0)
    for _ in range(20):
        dims = rng.integers(1, 50, size=rng.integers(3, 7))
        shapes = [(int(dims[i]), int(dims[i + 1])) for i in range(len(dims) - 1)]
        expected = _multi_dot_matrix_chain_order([np.empty(s) for s in shapes])
        got = _chain_order(shapes)
        for i in range(len(shapes)):
            for j in range(i + 1, len(shapes)):
                assert got[i][j] == expected[i, j]


def test_tf32_is_off_unless_asked():
    assert cp.cuda.cublas.allow_tf32() is False
    cp.cuda.cublas.set_allow_tf32(True)
    try:
        assert cp.cuda.cublas.allow_tf32() is True
    finally:
        cp.cuda.cublas.set_allow_tf32(False)
