"""NumPy's remaining functions against NumPy on random data (GPU): isclose and friends, convolve,
correlate, interp, sinc, i0, real_if_close, unwrap, gradient, trapezoid, cov, corrcoef, packbits,
unpackbits, the windows, vander and mask_indices, apply_along_axis/apply_over_axes, the index tricks
that build arrays, and __array_function__ dispatch. Host-only checks are in
test_numpy_functions_host.py; the polynomial API in test_polynomial.py; vectorize in test_vectorize.py."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp
from cuarray._math import signal as _signal
from cuarray._math import signal_fft as _signal_fft

from helpers import (ALL_DTYPES, FLOAT, INEXACT, INTEGER, NUMERIC, assert_allclose_np, assert_array_equal_np,
                     check_like_numpy, expect_error, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu


def _views(host):
    """(numpy view, cuarray view) pairs of host: contiguous, strided and reversed."""
    dev = cp.asarray(host)
    yield host, dev
    yield host[::2], dev[::2]
    yield host[::-1], dev[::-1]


def _is_device_bool(got, expected):
    assert type(got) is cp.ndarray and got.shape == () and got.dtype == np.bool_
    assert bool(got) == bool(expected)


# --- isclose, allclose, array_equal, array_equiv ----------------------------------------------------

def _near(rng, a):
    """a perturbed: equal, within the default tolerances, well outside them, and special values."""
    a = np.asarray(a)
    if a.dtype.kind not in "fc":
        return np.where(rng.random(a.shape) < 0.5, a, a + np.ones((), a.dtype)).astype(a.dtype)
    scale = rng.choice(np.array([0.0, 1e-7, 1e-3, -1e-2]), size=a.shape)
    b = (a * (1 + scale)).astype(a.dtype)
    specials = rng.random(a.shape) < 0.1
    return np.where(specials, np.array(np.nan, a.dtype), b).astype(a.dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_matches_numpy(rng, dtype, equal_nan):
    a = random_array((3, 40), dtype, rng, special=True)
    b = _near(rng, a)
    for (na, ca), (nb, cb) in zip(_views(a), _views(b)):
        assert_array_equal_np(cp.isclose(ca, cb, equal_nan=equal_nan), np.isclose(na, nb, equal_nan=equal_nan))
    # broadcasting, tolerances of their own, Python scalars (weak) on either side
    assert_array_equal_np(cp.isclose(cp.asarray(a), cp.asarray(b[:1]), rtol=1e-2, atol=0.5),
                          np.isclose(a, b[:1], rtol=1e-2, atol=0.5))
    assert_array_equal_np(cp.isclose(cp.asarray(a), 1), np.isclose(a, 1))
    assert_array_equal_np(cp.isclose(2.5, cp.asarray(b)), np.asarray(np.isclose(2.5, b)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_isclose_tolerance_arrays_and_scalars(rng, dtype):
    a = random_array((50,), dtype, rng)
    b = _near(rng, a)
    atol = np.abs(random_array((50,), np.float64, rng))
    assert_array_equal_np(cp.isclose(cp.asarray(a), cp.asarray(b), atol=cp.asarray(atol)), np.isclose(a, b, atol=atol))
    assert_array_equal_np(cp.isclose(cp.asarray(a[0]), cp.asarray(b[0])), np.asarray(np.isclose(a[0], b[0])))


def test_isclose_integer_extremes_and_infinities():
    a = np.array([np.iinfo(np.int64).min, 0, 5], np.int64)
    assert_array_equal_np(cp.isclose(cp.asarray(a), cp.asarray(a)), np.isclose(a, a))
    f = np.array([np.inf, -np.inf, np.inf, np.nan, 1.0])
    g = np.array([np.inf, np.inf, 1.0, np.nan, np.inf])
    for equal_nan in (False, True):
        assert_array_equal_np(cp.isclose(cp.asarray(f), cp.asarray(g), equal_nan=equal_nan),
                              np.isclose(f, g, equal_nan=equal_nan))


def test_isclose_non_finite_tolerance_warns_like_numpy():
    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
        cp.isclose(cp.ones(3), cp.ones(3), atol=np.nan)
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        cp.isclose(cp.ones(3), cp.ones(3), rtol=np.inf)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_allclose_is_a_device_bool(rng, dtype):
    a = random_array((64,), dtype, rng)
    for b in (a.copy(), _near(rng, a)):
        got = cp.allclose(cp.asarray(a), cp.asarray(b))
        _is_device_bool(got, np.allclose(a, b))
        _is_device_bool(cp.allclose(cp.asarray(a), cp.asarray(b), equal_nan=True), np.allclose(a, b, equal_nan=True))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_array_equal_and_equiv(rng, dtype):
    a = random_array((4, 6), dtype, rng, special=True)
    b = a.copy()
    if a.dtype.kind != "b":
        b[1, 2] = b[1, 3]
    for x, y in [(a, a.copy()), (a, b), (a, a[:2]), (a, a[:, ::-1])]:
        _is_device_bool(cp.array_equal(cp.asarray(x), cp.asarray(y)), np.array_equal(x, y))
        _is_device_bool(cp.array_equal(cp.asarray(x), cp.asarray(y), equal_nan=True),
                        np.array_equal(x, y, equal_nan=True))
        _is_device_bool(cp.array_equiv(cp.asarray(x), cp.asarray(y)), np.array_equiv(x, y))
    row = a[:1]
    tiled = np.repeat(row, 3, axis=0)
    _is_device_bool(cp.array_equiv(cp.asarray(row), cp.asarray(tiled)), np.array_equiv(row, tiled))
    _is_device_bool(cp.array_equiv(cp.asarray(a), cp.asarray(a[:, :2])), False)


def test_array_equal_nan_positions_complex():
    a = np.array([1 + 1j, complex(np.nan, 1), 3])
    b = np.array([1 + 1j, complex(1, np.nan), 3])
    _is_device_bool(cp.array_equal(cp.asarray(a), cp.asarray(b), equal_nan=True), np.array_equal(a, b, equal_nan=True))
    _is_device_bool(cp.array_equal(cp.asarray(a), cp.asarray(b)), np.array_equal(a, b))


def test_isclose_dispatches_from_numpy(rng):
    a, b = random_array((10,), np.float32, rng), random_array((10,), np.float32, rng)
    got = np.isclose(cp.asarray(a), cp.asarray(b))
    assert type(got) is cp.ndarray
    assert_array_equal_np(got, np.isclose(a, b))


# --- convolve, correlate ------------------------------------------------------------------------------

def _compare_sums(got, ref, a, v, fn, mode):
    """Sums of products in another order: integers and bools exactly, inexact results within the
    rounding error bound of a sum of products of that length.

    Each output is a dot product of up to m = min(len(a), len(v)) terms; summed in any order in
    precision eps its error is at most about m * eps/2 * sum|a_i v_j| (Higham, gamma_m), for NumPy's
    order and for cuarray's, so they may differ by m * eps * sum|a_i v_j|: the bound for every
    precision (a GPU run found a float64 output of 700 terms 16 eps away). float16, whose float32
    sums are rounded to float16 once, stays at 8 eps of its own."""
    ref = np.asarray(ref)
    if ref.dtype.kind in "biu":
        assert_array_equal_np(got, ref)
        return
    eps = np.finfo(ref.dtype).eps
    terms = 8 if ref.dtype == np.float16 else min(np.size(a), np.size(v))
    scale = fn(np.abs(a).astype(np.float64), np.abs(v).astype(np.float64), mode)
    assert_allclose_np(got, ref, rtol=0, atol=terms * eps * scale + np.finfo(ref.dtype).tiny)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_and_correlate_match_numpy(rng, dtype, mode):
    low, high = (-20, 20) if np.dtype(dtype).kind in "iu" else (None, None)
    for n, m in [(50, 7), (7, 50), (16, 16), (1, 5), (9, 1)]:
        a = random_array((n,), dtype, rng, low=low, high=high)
        v = random_array((m,), dtype, rng, low=low, high=high)
        for fn_np, fn_cp in ((np.convolve, cp.convolve), (np.correlate, cp.correlate)):
            ref = fn_np(a, v, mode)
            _compare_sums(fn_cp(cp.asarray(a), cp.asarray(v), mode), ref, a, v, fn_np, mode)


@pytest.mark.parametrize("pair", [(np.int8, np.float32), (np.uint8, np.int16), (np.float16, np.complex64),
                                  (np.bool_, np.int64), (np.float32, np.float64)])
def test_convolve_mixed_dtypes_and_views(rng, pair):
    a = random_array((41,), pair[0], rng, low=-10, high=10)
    v = random_array((9,), pair[1], rng, low=-10, high=10)
    for (na, ca) in _views(a):
        for fn_np, fn_cp in ((np.convolve, cp.convolve), (np.correlate, cp.correlate)):
            for mode in ("full", 1, "valid"):
                ref = fn_np(na, v[::-1], mode)
                _compare_sums(fn_cp(ca, cp.asarray(v)[::-1], mode), ref, na, v[::-1], fn_np, mode)


def test_convolve_integers_wrap_as_numpy():
    a = np.array([1, 2, 3, 100, 127], np.int8)
    v = np.array([120, 100], np.int8)
    assert_array_equal_np(cp.convolve(cp.asarray(a), cp.asarray(v)), np.convolve(a, v))
    assert_array_equal_np(cp.correlate(cp.asarray(a), cp.asarray(v), "full"), np.correlate(a, v, "full"))


def _compare_fft(got, ref, a, v, fn, mode):
    """An FFT convolution against NumPy's direct sums: NumPy's own error (as _compare_sums) plus the
    FFT's, which is normwise. A transform of length L in precision eps is accurate to c1 eps log2(L)
    of the 2-norm (Higham, Accuracy and Stability, 24.1: c1 ~ 3.3 for radix 2). The error of a's
    spectrum reaches the outputs times max|V| <= |v|_1, v's times |a|_1, the inverse's is relative
    to |a * v|_2 <= |a|_2 |v|_1, and the product adds one rounding: every output may be off by
    about (2 c1 + 1) eps log2(L) |a|_2 |v|_1 + c1 eps log2(L) |a|_1 |v|_2; 8 covers both terms."""
    ref = np.asarray(ref)
    eps = np.finfo(ref.dtype).eps
    size = len(a) + len(v) - 1
    a64, v64 = np.abs(a).astype(np.float64), np.abs(v).astype(np.float64)
    norms = np.linalg.norm(a64) * v64.sum() + a64.sum() * np.linalg.norm(v64)
    scale = fn(a64, v64, mode)
    atol = min(len(a), len(v)) * eps * scale + 8 * eps * np.log2(max(size, 2)) * norms
    assert_allclose_np(got, ref, rtol=0, atol=atol)


_BY_METHOD = {np.convolve: _signal._convolve, np.correlate: _signal._cross_correlate}


def test_convolve_long_input_short_kernel(rng):
    # Both methods on the same input, and the automatic choice (the FFT here).
    a = random_array((200_003,), np.float32, rng)
    v = random_array((1001,), np.float32, rng)
    ref = np.convolve(a, v)
    _compare_sums(_signal._convolve(cp.asarray(a), cp.asarray(v), "full", "direct"), ref, a, v, np.convolve, "full")
    _compare_fft(_signal._convolve(cp.asarray(a), cp.asarray(v), "full", "fft"), ref, a, v, np.convolve, "full")
    assert _signal._method(a.size, v.size, 2, np.dtype(np.float32)) == "fft"
    _compare_fft(cp.convolve(cp.asarray(a), cp.asarray(v)), ref, a, v, np.convolve, "full")


def _block_lengths(n, m, mode):
    """The FFT method's block lengths worth forcing for inputs of n and m: the model's (None), the
    whole-array transform, overlap-save with m just below the block (1 and 2 outputs a block: at
    least 2 points, cuFFT's shortest useful length), with blocks that divide the outputs evenly and
    with a short last block."""
    longer, shorter = max(n, m), min(n, m)
    length, _ = _signal._extent(_signal._mode(mode), longer, shorter)
    even = next(step for step in range(max(length // 3, 1), length + 1) if length % step == 0)
    uneven = length // 3 + 1 if length % (length // 3 + 1) else length // 3 + 2
    whole = _signal_fft.fast_length(length + shorter - 1)
    blocks = [max(shorter, 2), shorter + 1, shorter - 1 + even, shorter - 1 + uneven]
    return [None, whole] + sorted({b for b in blocks if b < whole})


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fft_method_matches_numpy(rng, dtype, mode):
    # Forced FFT (whole-array and overlap-save blocks) and forced direct on the same inputs:
    # lengths with either one longer (swapped convolve, reversed correlate), equal, a one-element
    # kernel, a prime padded length.
    for n, m in [(3000, 700), (700, 3000), (1000, 1000), (4097, 1), (5, 3), (2, 1009), (2500, 37)]:
        a = random_array((n,), dtype, rng)
        v = random_array((m,), dtype, rng)
        for fn_np, by_method in _BY_METHOD.items():
            ref = fn_np(a, v, mode)
            for block in _block_lengths(n, m, mode):
                got = by_method(cp.asarray(a), cp.asarray(v), mode, "fft", block)
                assert got.dtype == ref.dtype and got.shape == ref.shape, block
                _compare_fft(got, ref, a, v, fn_np, mode)
            _compare_sums(by_method(cp.asarray(a), cp.asarray(v), mode, "direct"), ref, a, v, fn_np, mode)


def test_overlap_save_long_input(rng):
    # The benchmark's shape, scaled down: many blocks of the model's length, every mode, both functions.
    for dtype in (np.float64, np.complex64):
        a = random_array((300_001,), dtype, rng)
        v = random_array((999,), dtype, rng)
        assert _signal_fft.block_length(300_001 + 998, 999, np.dtype(dtype).itemsize) < 300_001
        for fn_np, by_method in _BY_METHOD.items():
            for mode in ("full", "same", "valid"):
                ref = fn_np(a, v, mode)
                _compare_fft(by_method(cp.asarray(a), cp.asarray(v), mode, "fft"), ref, a, v, fn_np, mode)


@pytest.mark.parametrize("pair", [(np.int16, np.float32), (np.float32, np.complex128), (np.int64, np.float64),
                                  (np.complex64, np.float32)])
def test_fft_method_mixed_dtypes_and_views(rng, pair):
    a = random_array((301,), pair[0], rng, low=-10, high=10)
    v = random_array((97,), pair[1], rng, low=-10, high=10)
    for (na, ca) in _views(a):
        for fn_np, by_method in _BY_METHOD.items():
            for mode in ("full", 1, "valid"):
                ref = fn_np(na, v[::-1], mode)
                _compare_fft(by_method(ca, cp.asarray(v)[::-1], mode, "fft"), ref, na, v[::-1], fn_np, mode)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fft_method_keeps_numpys_non_finite_results(rng, dtype):
    # An infinity or NaN spreads over a whole transform: the guarded direct kernel recomputes, so
    # NaN and inf land where NumPy's sums put them.
    a = random_array((2000,), dtype, rng)
    v = random_array((300,), dtype, rng)
    a[[0, 700, 1999]] = [np.inf, np.nan, -np.inf]
    finite_v = v.copy()
    v[150] = np.inf  # a non-finite kernel too, alone and with non-finite input
    for first, second in ((a, finite_v), (a, v), (random_array((2000,), dtype, rng), v)):
        for fn_np, by_method in _BY_METHOD.items():
            for mode in ("full", "same", "valid"):
                with np.errstate(invalid="ignore"):
                    ref = fn_np(first, second, mode)
                    scale = fn_np(np.nan_to_num(np.abs(first), posinf=0), np.nan_to_num(np.abs(second), posinf=0),
                                  mode)
                eps = np.finfo(ref.dtype).eps
                for block in _block_lengths(first.size, second.size, mode):
                    got = by_method(cp.asarray(first), cp.asarray(second), mode, "fft", block)
                    assert_allclose_np(got, ref, rtol=0, atol=4 * second.size * eps * scale + np.finfo(ref.dtype).tiny)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n,m", [(1031, 8), (1032, 8), (2048, 9), (5000, 257), (3000, 700), (4096, 1000)])
def test_tiled_interior_and_general_edges(rng, dtype, n, m):
    # Long enough for the tiled kernel (whole windows), with partial tiles, several tap chunks and
    # the edges on the general kernel; non-finite values near both ends and in the middle.
    a = random_array((n,), dtype, rng)
    v = random_array((m,), dtype, rng)
    a[[0, 3, n // 2, n - 2]] = [np.inf, np.nan, -np.inf, np.inf]
    for mode in ("full", "same", "valid"):
        for fn_np, by_method in _BY_METHOD.items():
            ref = fn_np(a, v, mode)
            with np.errstate(invalid="ignore"):
                scale = fn_np(np.nan_to_num(np.abs(a), posinf=0), np.abs(v), mode)
            got = by_method(cp.asarray(a), cp.asarray(v), mode, "direct")
            assert_allclose_np(got, ref, rtol=0, atol=4 * m * np.finfo(dtype).eps * scale + np.finfo(dtype).tiny)
    # the swapped correlate (second input longer) is the reversed tiled result
    ref = np.correlate(v, a, "full")
    got = cp.correlate(cp.asarray(v), cp.asarray(a), "full")
    scale = np.correlate(np.abs(v), np.nan_to_num(np.abs(a), posinf=0), "full")
    assert_allclose_np(got, ref, rtol=0, atol=4 * m * np.finfo(dtype).eps * scale + np.finfo(dtype).tiny)


def test_convolve_errors_like_numpy():
    one = cp.ones(3)
    # NumPy >= 2.4 checks a, then v, before swapping (numpy#30277); 2.0-2.3 swapped first. The message
    # is the installed NumPy's, whichever order it has.
    for na, nv in ((0, 3), (3, 0), (0, 0)):
        _, exc = numpy_outcome(lambda: np.convolve(np.ones(na), np.ones(nv)))
        expect_error(lambda: np.convolve(np.ones(na), np.ones(nv)), lambda: cp.convolve(cp.ones(na), cp.ones(nv)),
                     str(exc))
    expect_error(lambda: np.convolve([[1.0]], [1.0]), lambda: cp.convolve(cp.ones((1, 1)), one), "too deep")
    expect_error(lambda: np.correlate([], [1.0]), lambda: cp.correlate(cp.ones(0), one),
                 "first array argument cannot be empty")
    expect_error(lambda: np.correlate([1.0], []), lambda: cp.correlate(one, cp.ones(0)),
                 "second array argument cannot be empty")


# --- interp -------------------------------------------------------------------------------------------------

def _interp_compare(got, ref, fp):
    scale = np.max(np.abs(fp)) if np.size(fp) else 1.0
    assert_allclose_np(got, np.asarray(ref), atol=8 * np.finfo(np.float64).eps * scale)


@pytest.mark.parametrize("dtype", INTEGER[:2] + FLOAT + [np.dtype(np.bool_)])
def test_interp_matches_numpy(rng, dtype):
    xp = np.sort(random_array((30,), np.float64, rng, ties=True))
    fp = random_array((30,), np.float64, rng)
    x = random_array((7, 40), dtype, rng, low=-150, high=150)
    if x.dtype.kind == "f":
        x.flat[:4] = [np.nan, np.inf, -np.inf, xp[3]]
    for nx_, cx in _views(x):
        _interp_compare(cp.interp(cx, cp.asarray(xp), cp.asarray(fp)), np.interp(nx_, xp, fp), fp)
        _interp_compare(cp.interp(cx, cp.asarray(xp), cp.asarray(fp), left=-1.5, right=2),
                        np.interp(nx_, xp, fp, left=-1.5, right=2), fp)


def test_interp_edges_duplicates_single_point_and_nan_values(rng):
    xp = np.array([0.0, 1.0, 1.0, 2.0, 3.0])
    fp = np.array([0.0, np.inf, 5.0, np.nan, 1.0])
    x = np.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, np.nan])
    assert_allclose_np(cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp)), np.interp(x, xp, fp))
    for xv in (np.array([-1.0, 2.0, 3.0, np.nan]),):
        assert_allclose_np(cp.interp(cp.asarray(xv), cp.asarray([2.0]), cp.asarray([7.0])), np.interp(xv, [2.0], [7.0]))
    inf_slope = np.array([np.inf, np.inf])
    assert_allclose_np(cp.interp(cp.asarray([0.25, 0.5]), cp.asarray([0.0, 1.0]), cp.asarray(inf_slope)),
                       np.interp([0.25, 0.5], [0.0, 1.0], inf_slope))


def test_interp_complex_period_and_scalars(rng):
    xp = np.sort(random_array((20,), np.float64, rng))
    fp = random_array((20,), np.complex128, rng)
    x = random_array((100,), np.float64, rng, low=-200, high=200)
    _interp_compare(cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp)), np.interp(x, xp, fp), fp)
    _interp_compare(cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp), left=1j, right=2 - 1j),
                    np.interp(x, xp, fp, left=1j, right=2 - 1j), fp)
    angles = np.array([-180.0, -170, -185, 185, -10, -5, 0, 365, 190])
    values = rng.standard_normal(9)
    xs = np.linspace(-400, 400, 77)
    _interp_compare(cp.interp(cp.asarray(xs), cp.asarray(angles), cp.asarray(values), period=360),
                    np.interp(xs, angles, values, period=360), values)
    got = cp.interp(1.5, cp.asarray([1.0, 2.0]), cp.asarray([1.0, 3.0]))
    assert got.shape == () and got.dtype == np.float64 and float(got) == 2.0


def test_interp_errors_like_numpy():
    x = cp.ones(3)
    expect_error(lambda: np.interp([1.0], [], []), lambda: cp.interp(x, cp.ones(0), cp.ones(0)),
                 "array of sample points is empty")
    expect_error(lambda: np.interp([1.0], [1.0, 2.0], [1.0]), lambda: cp.interp(x, cp.ones(2), cp.ones(1)),
                 "fp and xp are not of the same length")
    expect_error(lambda: np.interp([1.0], [[1.0, 2.0]], [[1.0, 2.0]]),
                 lambda: cp.interp(x, cp.ones((1, 2)), cp.ones((1, 2))), "too deep")


# --- sinc, i0, real_if_close, unwrap ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", INTEGER[:2] + FLOAT + INEXACT[3:])
def test_sinc_matches_numpy(rng, dtype):
    x = random_array((200,), dtype, rng, low=-20, high=20, zeros=True)
    for nx_, cx in _views(x):
        ref = np.sinc(nx_)
        rtol = {np.float16: 4e-3, np.float32: 1e-5, np.complex64: 1e-5}.get(ref.dtype.type, 1e-12)
        assert_allclose_np(cp.sinc(cx), ref, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float16, np.float32, np.float64])
def test_i0_matches_numpy(rng, dtype):
    bound = 10 if np.dtype(dtype) == np.float16 else 30  # i0(30) overflows float16
    x = random_array((300,), dtype, rng, low=-bound, high=bound, zeros=True)
    ref = np.i0(x)
    rtol = {np.float16: 2e-2, np.float32: 2e-5}.get(ref.dtype.type, 1e-13)
    assert_allclose_np(cp.i0(cp.asarray(x)), ref, rtol=rtol)
    assert_allclose_np(cp.i0(cp.asarray(x)[::-3]), np.i0(x[::-3]), rtol=rtol)
    expect_error(lambda: np.i0(np.ones(2, complex)), lambda: cp.i0(cp.ones(2, complex)), "complex")


def test_real_if_close(rng):
    r = random_array((20,), np.float64, rng)
    for imag in (0.0, 1e-14, 1e-3):
        z = r + 1j * imag
        got, ref = cp.real_if_close(cp.asarray(z)), np.real_if_close(z)
        assert_array_equal_np(got, ref)
        z64 = z.astype(np.complex64)
        assert_array_equal_np(cp.real_if_close(cp.asarray(z64), tol=1e6), np.real_if_close(z64, tol=1e6))
    assert_array_equal_np(cp.real_if_close(cp.asarray(r)), np.real_if_close(r))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_unwrap_matches_numpy(rng, dtype):
    if np.dtype(dtype).kind == "i":
        p = rng.integers(-20, 20, size=(4, 30)).astype(dtype)
        kwargs = [dict(period=6), dict(period=7, axis=0), dict(period=6, discont=2)]
    else:
        p = (np.cumsum(rng.standard_normal((4, 30)), axis=1) * 3).astype(dtype)
        kwargs = [{}, dict(axis=0), dict(discont=4.0), dict(period=360)]
    for kw in kwargs:
        ref = np.unwrap(p, **kw)
        got = cp.unwrap(cp.asarray(p), **kw)
        if ref.dtype.kind in "iu":
            assert_array_equal_np(got, ref)
        else:
            assert_allclose_np(got, ref, rtol=1e-5 if ref.dtype == np.float32 else 1e-12,
                               atol=1e-4 if ref.dtype == np.float32 else 1e-10)


# --- gradient, trapezoid --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float16, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(rng, dtype, edge_order):
    f = random_array((6, 9), dtype, rng, low=-50, high=50)
    cf = cp.asarray(f)
    xs = np.cumsum(rng.uniform(0.5, 2.0, size=9))
    cases = [((), {}), ((2.0,), {}), ((1.5, 0.5), {}), ((xs,), dict(axis=1)), ((xs, 2.0), dict(axis=(1, 0))),
             ((np.arange(9.0),), dict(axis=-1))]
    for args, kw in cases:
        ref = np.gradient(f, *args, edge_order=edge_order, **kw)
        got = cp.gradient(cf, *[cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args],
                          edge_order=edge_order, **kw)
        refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
        assert isinstance(got, tuple) == isinstance(ref, tuple) and len(gots) == len(refs)
        for g, r in zip(gots, refs):
            rtol = 4e-3 if r.dtype == np.float16 else 1e-5 if r.dtype == np.float32 else 1e-12
            assert_allclose_np(g, r, rtol=rtol, atol=rtol * 100)


def test_gradient_errors_like_numpy():
    f = cp.ones((2, 5))
    expect_error(lambda: np.gradient(np.ones((2, 5)), 1, 2, 3), lambda: cp.gradient(f, 1, 2, 3),
                 "invalid number of arguments")
    expect_error(lambda: np.gradient(np.ones((2, 5)), axis=0, edge_order=2),
                 lambda: cp.gradient(f, axis=0, edge_order=2),
                 "Shape of array too small")
    expect_error(lambda: np.gradient(np.ones(5), np.arange(4.0)), lambda: cp.gradient(cp.ones(5), cp.arange(4.0)),
                 "distances must match")


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64])
def test_trapezoid_matches_numpy(rng, dtype):
    y = random_array((5, 12), dtype, rng, low=-10, high=10)
    x1 = np.sort(rng.uniform(0, 10, 12))
    x2 = np.sort(rng.uniform(0, 10, (5, 12)), axis=1)
    cases = [((), {}), ((), dict(dx=0.5)), ((), dict(axis=0)), ((x1,), {}), ((x2,), {})]
    for args, kw in cases:
        ref = np.trapezoid(y, *args, **kw)
        got = cp.trapezoid(cp.asarray(y), *[cp.asarray(a) for a in args], **kw)
        rtol = 1e-5 if ref.dtype in (np.float32, np.complex64) else 1e-12
        assert_allclose_np(got, ref, rtol=rtol, atol=rtol * 10)
    assert_allclose_np(cp.trapezoid(cp.asarray(y)[:, ::-1]), np.trapezoid(y[:, ::-1]), rtol=1e-5, atol=1e-4)


# --- cov, corrcoef ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_cov_matches_numpy(rng, dtype):
    m = random_array((4, 25), dtype, rng, low=-10, high=10)
    y = random_array((2, 25), dtype, rng, low=-10, high=10)
    fw = rng.integers(0, 4, 25)
    aw = rng.uniform(0.1, 2.0, 25)
    cases = [((), {}), ((), dict(bias=True)), ((), dict(ddof=3)), ((y,), {}), ((), dict(rowvar=False)),
             ((), dict(fweights=fw)), ((), dict(aweights=aw)), ((), dict(fweights=fw, aweights=aw, ddof=1)),
             ((), dict(dtype=np.float32))]
    for args, kw in cases:
        ref = np.cov(m, *args, **kw)
        dev_kw = {k: (cp.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        got = cp.cov(cp.asarray(m), *[cp.asarray(a) for a in args], **dev_kw)
        rtol = 2e-4 if ref.dtype in (np.float32, np.complex64) else 1e-11
        assert_allclose_np(got, ref, rtol=rtol, atol=rtol)
    ref = np.cov(m[0])
    assert_allclose_np(cp.cov(cp.asarray(m)[0]), ref, rtol=1e-4, atol=1e-4)


def test_cov_errors_and_warning_like_numpy():
    m = cp.ones((2, 3))
    expect_error(lambda: np.cov(np.ones((2, 2, 2))), lambda: cp.cov(cp.ones((2, 2, 2))), "more than 2 dimensions")
    expect_error(lambda: np.cov(np.ones((2, 3)), fweights=[1, 2.5, 1]),
                 lambda: cp.cov(m, fweights=cp.asarray([1, 2.5, 1])), "fweights must be integer")
    expect_error(lambda: np.cov(np.ones((2, 3)), aweights=[1, -1, 1]),
                 lambda: cp.cov(m, aweights=cp.asarray([1.0, -1, 1])), "aweights cannot be negative")
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        cp.cov(cp.ones((2, 1)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_corrcoef_matches_numpy(rng, dtype):
    x = random_array((3, 30), dtype, rng)
    y = random_array((3, 30), dtype, rng)
    for args, kw in [((), {}), ((y,), {}), ((), dict(rowvar=False))]:
        ref = np.corrcoef(x, *args, **kw)
        got = cp.corrcoef(cp.asarray(x), *[cp.asarray(a) for a in args], **kw)
        rtol = 1e-4 if ref.dtype in (np.float32, np.complex64) else 1e-11
        assert_allclose_np(got, ref, rtol=rtol, atol=rtol)


# --- packbits, unpackbits ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.uint64])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_matches_numpy(rng, dtype, bitorder):
    a = (rng.integers(-2, 3, size=(5, 13, 3)) * (rng.random((5, 13, 3)) < 0.5)).astype(dtype)
    ca = cp.asarray(a)
    for axis in (None, 0, 1, -1):
        assert_array_equal_np(cp.packbits(ca, axis=axis, bitorder=bitorder),
                              np.packbits(a, axis=axis, bitorder=bitorder))
        assert_array_equal_np(cp.packbits(ca[::-1, ::2], axis=axis, bitorder=bitorder),
                              np.packbits(a[::-1, ::2], axis=axis, bitorder=bitorder))
    assert_array_equal_np(cp.packbits(cp.asarray(np.zeros((0, 3), bool))), np.packbits(np.zeros((0, 3), bool)))
    assert_array_equal_np(cp.packbits(cp.asarray(np.array(True))), np.packbits(np.array(True)))


@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits_matches_numpy(rng, bitorder):
    a = rng.integers(0, 256, size=(4, 6), dtype=np.uint8)
    ca = cp.asarray(a)
    for axis in (None, 0, 1):
        for count in (None, 0, 3, 17, 100, -3):
            if count is not None and axis is not None and -count > 8 * a.shape[axis]:
                continue
            ref = np.unpackbits(a, axis=axis, count=count, bitorder=bitorder)
            assert_array_equal_np(cp.unpackbits(ca, axis=axis, count=count, bitorder=bitorder), ref)
            assert_array_equal_np(cp.unpackbits(ca.T[::-1], axis=axis, count=count, bitorder=bitorder),
                                  np.unpackbits(a.T[::-1], axis=axis, count=count, bitorder=bitorder))
    # a round trip
    bits = rng.integers(0, 2, size=(3, 21)).astype(np.uint8)
    packed = cp.packbits(cp.asarray(bits), axis=1, bitorder=bitorder)
    assert_array_equal_np(cp.unpackbits(packed, axis=1, count=21, bitorder=bitorder), bits)


def test_packbits_errors_like_numpy():
    expect_error(lambda: np.packbits(np.ones(3, np.float32)), lambda: cp.packbits(cp.ones(3, np.float32)),
                 "integer or boolean")
    expect_error(lambda: np.unpackbits(np.ones(3, np.int32)), lambda: cp.unpackbits(cp.ones(3, np.int32)),
                 "unsigned byte")
    expect_error(lambda: np.packbits(np.ones(3, np.int32), axis=2), lambda: cp.packbits(cp.ones(3, np.int32), axis=2))
    expect_error(lambda: np.unpackbits(np.ones(2, np.uint8), count=-17),
                 lambda: cp.unpackbits(cp.ones(2, np.uint8), count=-17), "-count larger than number of elements")


# --- windows, vander, mask_indices -------------------------------------------------------------------------

@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 16, 51])
def test_windows_match_numpy(M):
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        assert_allclose_np(getattr(cp, name)(M), getattr(np, name)(M), rtol=1e-13, atol=1e-15)
    if M >= 1:
        for beta in (0.0, 5.0, 14.0):
            assert_allclose_np(cp.kaiser(M, beta), np.kaiser(M, beta), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float32, np.float64, np.complex64])
def test_vander_matches_numpy(rng, dtype):
    x = random_array((6,), dtype, rng, low=-5, high=5)
    for N in (None, 0, 1, 4, 8):
        for increasing in (False, True):
            ref = np.vander(x, N, increasing)
            got = cp.vander(cp.asarray(x), N, increasing)
            if ref.dtype.kind in "biu":
                assert_array_equal_np(got, ref)
            else:
                assert_allclose_np(got, ref)
    assert_allclose_np(cp.vander(cp.asarray(x)[::-2]), np.vander(x[::-2]))
    expect_error(lambda: np.vander(np.ones((2, 2))), lambda: cp.vander(cp.ones((2, 2))), "one-dimensional")


def test_mask_indices_matches_numpy():
    for k in (-1, 0, 2):
        for fn_np, fn_cp in ((np.triu, cp.triu), (np.tril, cp.tril)):
            ref = np.mask_indices(4, fn_np, k)
            got = cp.mask_indices(4, fn_cp, k)
            for g, r in zip(got, ref):
                assert_array_equal_np(g, r)


# --- apply_along_axis, apply_over_axes ---------------------------------------------------------------------

def test_apply_along_axis_matches_numpy(rng):
    a = random_array((3, 4, 5), np.float64, rng)
    ca = cp.asarray(a)
    for axis in (0, 1, -1):
        assert_allclose_np(cp.apply_along_axis(cp.sum, axis, ca), np.apply_along_axis(np.sum, axis, a))
        assert_allclose_np(cp.apply_along_axis(lambda v: v[::-1] * 2, axis, ca),
                           np.apply_along_axis(lambda v: v[::-1] * 2, axis, a))
        assert_allclose_np(cp.apply_along_axis(lambda v: cp.outer(v, v[:2]), axis, ca),
                           np.apply_along_axis(lambda v: np.outer(v, v[:2]), axis, a))
    assert_allclose_np(cp.apply_along_axis(lambda v, s: v * s, 1, ca, 3.0),
                       np.apply_along_axis(lambda v, s: v * s, 1, a, 3.0))
    expect_error(lambda: np.apply_along_axis(np.sum, 0, np.ones((3, 0))),
                 lambda: cp.apply_along_axis(cp.sum, 0, cp.ones((3, 0))),
                 "Cannot apply_along_axis when any iteration dimensions are 0")


def test_apply_over_axes_matches_numpy(rng):
    a = random_array((2, 3, 4), np.float32, rng)
    for axes in (0, [0, 2], (1, -1)):
        assert_allclose_np(cp.apply_over_axes(cp.sum, cp.asarray(a), axes), np.apply_over_axes(np.sum, a, axes),
                           rtol=1e-5)
    expect_error(lambda: np.apply_over_axes(lambda x, ax: x.sum(axis=ax)[None, None], np.ones((2, 3)), 0),
                 lambda: cp.apply_over_axes(lambda x, ax: x.sum(axis=ax)[None, None], cp.ones((2, 3)), 0),
                 "function is not returning an array of the correct shape")


# --- index tricks that build arrays ------------------------------------------------------------------------

@pytest.mark.parametrize("key", [np.s_[0:5], np.s_[-1:1:0.25], np.s_[0:1:5j], np.s_[0:4, 1:3],
                                 np.s_[0:2:0.5, -3:3:4j], np.s_[1:4:2, 0:1:3j, 2:5]])
def test_mgrid_ogrid_match_numpy(key):
    ref = np.mgrid[key]
    got = cp.mgrid[key]
    assert_allclose_np(got, ref)
    refs, gots = np.ogrid[key], cp.ogrid[key]
    if isinstance(refs, tuple):
        assert isinstance(gots, tuple) and len(gots) == len(refs)
        for g, r in zip(gots, refs):
            assert_allclose_np(g, r)
    else:
        assert_allclose_np(gots, refs)


def test_r_and_c_match_numpy(rng):
    a = random_array((3,), np.float32, rng)
    b = random_array((2, 3), np.int16, rng)
    ca, cb = cp.asarray(a), cp.asarray(b)
    assert_allclose_np(cp.r_[ca, 0, 1:4, -1:1:5j], np.r_[a, 0, 1:4, -1:1:5j])
    assert_array_equal_np(cp.r_[cp.asarray([1, 2]), 7, 8], np.r_[np.array([1, 2]), 7, 8])
    assert_allclose_np(cp.r_["0,2", ca, ca], np.r_["0,2", a, a])
    assert_allclose_np(cp.r_["0,2,0", ca, ca], np.r_["0,2,0", a, a])
    assert_allclose_np(cp.r_["1,2,0", ca, ca], np.r_["1,2,0", a, a])
    assert_array_equal_np(cp.r_["-1", cb, cb], np.r_["-1", b, b])
    assert_allclose_np(cp.c_[ca, ca * 2], np.c_[a, a * 2])
    assert_allclose_np(cp.c_[cb, cb.astype(np.float32)], np.c_[b, b.astype(np.float32)])
    assert_allclose_np(cp.c_[cp.asarray([[1, 2, 3]]), 0, 0, cp.asarray([[4, 5, 6]])],
                       np.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])])


def test_diag_indices_select_the_diagonal(rng):
    a = random_array((4, 4, 4), np.float64, rng)
    for got, ref in zip(cp.diag_indices(4, 3), np.diag_indices(4, 3)):
        assert_array_equal_np(got, ref)
    ca = cp.asarray(a)
    assert_array_equal_np(ca[cp.diag_indices_from(ca)], a[np.diag_indices_from(a)])


def test_ndenumerate_and_broadcast(rng):
    a = random_array((2, 3), np.int32, rng)
    assert list(cp.ndenumerate(cp.asarray(a))) == list(np.ndenumerate(a))
    x, y = cp.asarray(a), cp.ones((4, 1, 3))
    b = cp.broadcast(x, y)
    ref = np.broadcast(a, np.ones((4, 1, 3)))
    assert (b.shape, b.size, b.ndim, b.nd, b.numiter) == (ref.shape, ref.size, ref.ndim, ref.nd, ref.numiter)
    assert [v.shape for v in b.values] == [(4, 2, 3)] * 2
    assert_array_equal_np(b.values[0], np.broadcast_to(a, (4, 2, 3)))


# --- dispatch from NumPy --------------------------------------------------------------------------------

def test_numpy_calls_dispatch_to_cuarray(rng):
    a = random_array((20,), np.float64, rng)
    ca = cp.asarray(a)
    for name, args in [("convolve", (ca, ca[:3])), ("correlate", (ca, ca[:3])), ("interp", (ca, cp.sort(ca), ca)),
                       ("sinc", (ca,)), ("i0", (ca,)), ("gradient", (ca,)), ("trapezoid", (ca,)),
                       ("cov", (ca,)), ("unwrap", (ca,)), ("vander", (ca[:4],)), ("allclose", (ca, ca)),
                       ("array_equal", (ca, ca)), ("polyval", (ca[:3], ca))]:
        got = getattr(np, name)(*args)
        assert isinstance(got, (cp.ndarray, tuple)), name
    got = np.packbits(cp.asarray(a > 0))
    assert type(got) is cp.ndarray
    assert_array_equal_np(got, np.packbits(a > 0))


@given(st.integers(1, 60), st.integers(1, 60), st.sampled_from(["full", "same", "valid"]))
def test_convolve_property_integer_sums_exact(n, m, mode):
    rng = np.random.default_rng(n * 100 + m)
    a = rng.integers(-100, 100, n).astype(np.int64)
    v = rng.integers(-100, 100, m).astype(np.int64)
    check_like_numpy(lambda: np.convolve(a, v, mode), lambda: cp.convolve(cp.asarray(a), cp.asarray(v), mode))
    check_like_numpy(lambda: np.correlate(a, v, mode), lambda: cp.correlate(cp.asarray(a), cp.asarray(v), mode))
