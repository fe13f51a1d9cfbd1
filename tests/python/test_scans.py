"""cumsum, cumprod, nancumsum, nancumprod, cumulative_sum, cumulative_prod, ufunc.accumulate, diff and
ediff1d against NumPy: every dtype, every axis of ranks 0-4, every layout, size-0 inputs, many short
rows, long rows around the tile sizes of each plan, one row of 1e7, dtype= and out=, in-place scans
and NumPy's exception types.

NumPy adds left to right in the result dtype; cuarray scans in parallel (and float16 in float32). So
float sums and products are compared with a float64/complex128 recomputation from the same
elements within the error bound of a scan of that length (NumPy's own result gives the dtype and
shape); everything else (integers, bools, min/max, the sequential fold of non-associative ufuncs)
must equal NumPy's.
"""
import warnings

import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, LAYOUTS, assert_allclose_np, assert_array_equal_np, assert_raises_like,
                     check_like_numpy, layout_pair, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu

SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]
PRODUCTS = {"cumprod", "nancumprod", "multiply"}

# Elements per tile and per warp-row chunk of the engine (src/ops/engines/scan/scan.cpp): a tile is 8 warps of
# `chunks` chunks of 32 * vec elements (16 elements per lane; 8 for complex128).
TILE = {np.dtype(np.float32): 4096, np.dtype(np.float64): 4096, np.dtype(np.int8): 4096,
        np.dtype(np.float16): 4096, np.dtype(np.complex128): 2048, np.dtype(np.bool_): 4096}


def scan_data(name, shape, dtype, rng, special=False):
    """Random data a scan of `name` keeps in range: products of values near 1 (no overflow, no
    underflow over the lengths tested), sums of anything."""
    if name in PRODUCTS and np.dtype(dtype).kind in "fc":
        low, high = (0.8, 1.25) if np.dtype(dtype) == np.float16 else (0.5, 1.5)
        host = random_array(shape, dtype, rng, low=low, high=high)
        if np.dtype(dtype).kind == "c" and host.size:
            host = (host / np.abs(host)).astype(dtype)  # unit modulus
        if special and host.size:
            host.flat[rng.integers(0, host.size, size=max(1, host.size // 8))] = np.nan
        return host
    if name in PRODUCTS and np.dtype(dtype).kind in "iu":
        return random_array(shape, dtype, rng, low=-3 if np.dtype(dtype).kind == "i" else 0, high=3)
    return random_array(shape, dtype, rng, special=special and np.dtype(dtype).kind == "f")


def _wide(dtype):
    return np.complex128 if np.dtype(dtype).kind == "c" else np.float64


def compare_scan(got, ref, name, host, axis=None, dtype=None):
    """got (cuarray) against NumPy's ref: exact for integer/bool results; for float results against
    a wide recomputation from the elements as the loop sees them (cast to the result dtype), within
    eps(accumulator) * (n + 8) * (cumsum of |x|) for sums and eps * (n + 8) relative for products."""
    ref = np.asarray(ref)
    if ref.dtype.kind not in "fc":
        assert_array_equal_np(got, ref)
        return
    func = getattr(np, {"add": "cumsum", "multiply": "cumprod"}.get(name, name))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex -> real casts of dtype=
        loop_elements = host.astype(dtype if dtype is not None else ref.dtype).astype(_wide(ref.dtype))
        if loop_elements.ndim == 0:
            loop_elements = loop_elements.reshape(1)
        wide = func(loop_elements, axis=axis)
    n = loop_elements.size if axis is None else loop_elements.shape[axis]
    part = np.dtype(ref.real.dtype)
    eps = np.finfo(np.float32 if part == np.float16 else part).eps
    expected = wide.astype(ref.dtype)
    if func in (np.cumprod, np.nancumprod):
        assert_allclose_np(got, expected, rtol=eps * (n + 8) + (1e-3 if part == np.float16 else 0))
        return
    magnitude = np.nancumsum(np.abs(loop_elements), axis=axis)
    atol = eps * (n + 8) * np.where(np.isfinite(magnitude), magnitude, 0)
    assert_allclose_np(got, expected, atol=atol.reshape(expected.shape))


def check_scan(name, host, gpu, **kw):
    """NumPy's exception type, or its dtype, shape and values (see compare_scan)."""
    ref, exc = numpy_outcome(lambda: getattr(np, name)(host, **kw))
    if exc is not None:
        assert_raises_like(exc, lambda: getattr(cp, name)(gpu, **kw))
        return None
    got = getattr(cp, name)(gpu, **kw)
    compare_scan(got, ref, name, host, kw.get("axis"), kw.get("dtype"))
    return got


def axis_args(ndim):
    return [None] + list(range(ndim)) + list(range(-ndim, 0)) + [ndim, -ndim - 1]


# --------------------------------------------------------------------------------------------------
# dtypes, axes, layouts


@pytest.mark.parametrize("name", SCANS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_every_dtype(name, dtype, rng):
    for shape in [(37,), (6, 7)]:
        host = scan_data(name, shape, dtype, rng, special=name.startswith("nan"))
        g = cp.asarray(host)
        for axis in [None] + list(range(len(shape))):
            check_scan(name, host, g, axis=axis)


@pytest.mark.parametrize("shape", [(), (5,), (4, 5), (3, 4, 5), (2, 3, 2, 3)], ids=str)
@pytest.mark.parametrize("dtype", [np.int16, np.float64], ids=str)
def test_axes_of_ranks_0_to_4(shape, dtype, rng):
    host = scan_data("cumsum", shape, dtype, rng)
    g = cp.asarray(host)
    for axis in axis_args(len(shape)):
        check_scan("cumsum", host, g, axis=axis)
        check_scan("cumprod", host, g, axis=axis)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.complex64], ids=str)
def test_layouts(layout, dtype, rng):
    np_view, cp_view = layout_pair(layout, (4, 5, 6), dtype, rng)
    for axis in axis_args(np_view.ndim)[:-2]:
        check_scan("cumsum", np_view, cp_view, axis=axis)


@pytest.mark.parametrize("shape, axis", [((0,), 0), ((0,), None), ((3, 0), 0), ((3, 0), 1), ((0, 4), 1),
                                         ((2, 0, 3), None), ((2, 0, 3), 2)], ids=str)
def test_size_zero(shape, axis):
    for dtype in (np.bool_, np.int32, np.float16, np.complex128):
        host = np.zeros(shape, dtype)
        for name in SCANS:
            check_scan(name, host, cp.asarray(host), axis=axis)


def test_methods(rng):
    host = random_array((5, 6), np.int32, rng)
    g = cp.asarray(host)
    assert_array_equal_np(g.cumsum(), host.cumsum())
    assert_array_equal_np(g.cumsum(axis=0), host.cumsum(axis=0))
    assert_array_equal_np(g.cumprod(1, np.int8), host.cumprod(1, np.int8))
    assert_array_equal_np(g.T.cumsum(0), host.T.cumsum(0))


# --------------------------------------------------------------------------------------------------
# plans: many short rows, columns, long rows at tile boundaries, one 1e7 row


@pytest.mark.parametrize("shape, axis", [
    ((200000, 3), 1),    # rows of 3: a thread per row
    ((20000, 37), 1),    # a warp per row
    ((300, 1000), 1),    # a warp per row, several chunks each
    ((3, 50000), 1),     # few long rows: tiles, several rows chained separately
    ((5000, 7), 0),      # an outer axis, few columns: strided tiles
    ((100, 10000), 0),   # an outer axis, many columns: a thread per column
    ((60, 50, 70), 1),   # a middle axis
], ids=str)
@pytest.mark.parametrize("dtype", [np.int32, np.float32], ids=str)
def test_plan_shapes(shape, axis, dtype, rng):
    host = rng.integers(-3, 4, size=shape).astype(dtype)  # small integers: float sums are exact
    got = cp.cumsum(cp.asarray(host), axis=axis)
    assert_array_equal_np(got, np.cumsum(host, axis=axis))
    got = cp.maximum.accumulate(cp.asarray(host), axis=axis)
    assert_array_equal_np(got, np.maximum.accumulate(host, axis=axis))


@pytest.mark.parametrize("dtype", sorted(TILE, key=str), ids=str)
def test_tile_boundaries(dtype, rng):
    tile = TILE[np.dtype(dtype)]
    lengths = sorted({17, 511, 512, 513, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile, 3 * tile + 1, 40 * tile + 3})
    for n in lengths:
        if np.dtype(dtype) == np.bool_:
            host = rng.integers(0, 2, size=n).astype(np.bool_)
        else:
            # Exact sums in every dtype (float16's prefix stays well inside +-2048).
            low = -1 if np.dtype(dtype) == np.float16 else -2
            host = rng.integers(low, -low + 1, size=n).astype(dtype)
        g = cp.asarray(host)
        assert_array_equal_np(cp.cumsum(g), np.cumsum(host))
        # Misaligned (offset by one element) and strided views take the element-load paths.
        assert_array_equal_np(cp.cumsum(g[1:]), np.cumsum(host[1:]))
        assert_array_equal_np(cp.cumsum(g[::2]), np.cumsum(host[::2]))
        assert_array_equal_np(cp.cumsum(g[::-1]), np.cumsum(host[::-1]))


def test_float16_against_float32_accumulation(rng):
    # cuarray combines float16 in float32 and rounds each output once; within a float16 ulp of
    # the exact prefix (NumPy rounds every step and drifts further).
    host = random_array(3000, np.float16, rng, low=-1, high=1)
    got = cp.cumsum(cp.asarray(host))
    exact = np.cumsum(host.astype(np.float64))
    assert_allclose_np(got, exact.astype(np.float16), atol=np.finfo(np.float32).eps * 3008 * np.cumsum(np.abs(host.astype(np.float64))))


def test_one_long_row(rng):
    n = 10_000_000
    host = rng.integers(-2, 3, size=n).astype(np.float32)  # the prefix stays far below 2**24: exact
    g = cp.asarray(host)
    assert_array_equal_np(cp.cumsum(g), np.cumsum(host))
    ints = host.astype(np.int32)
    assert_array_equal_np(cp.cumsum(cp.asarray(ints)), np.cumsum(ints))
    assert_array_equal_np(cp.maximum.accumulate(g), np.maximum.accumulate(host))


def test_long_rows_of_every_width(rng):
    n = 100_003
    for dtype in (np.int8, np.uint16, np.int64, np.float64, np.complex64, np.complex128):
        host = rng.integers(-2, 3, size=n).astype(dtype)
        assert_array_equal_np(cp.cumsum(cp.asarray(host)), np.cumsum(host))


# --------------------------------------------------------------------------------------------------
# nan-variants, dtype=, out=, in place


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128], ids=str)
def test_nan_variants(dtype, rng):
    for name in ("nancumsum", "nancumprod"):
        host = scan_data(name, (9, 40), dtype, rng, special=True)
        host.flat[::7] = np.nan
        g = cp.asarray(host)
        for axis in (None, 0, 1):
            check_scan(name, host, g, axis=axis)
    all_nan = np.full(5, np.nan, dtype)
    assert_array_equal_np(cp.nancumsum(cp.asarray(all_nan)), np.nancumsum(all_nan))
    assert_array_equal_np(cp.nancumprod(cp.asarray(all_nan)), np.nancumprod(all_nan))


@pytest.mark.parametrize("in_dtype, dtype", [(np.int8, np.int8), (np.uint8, np.int16), (np.int32, np.float32),
                                             (np.float64, np.float16), (np.bool_, np.bool_), (np.float32, np.int64),
                                             (np.complex64, np.complex128), (np.uint64, np.float64)], ids=str)
def test_dtype_argument(in_dtype, dtype, rng):
    # Small values: 30-element products stay finite in float32 (and overflow float16 where the
    # float64 recomputation does too).
    host = random_array((6, 5), in_dtype, rng, low=-3, high=3)
    g = cp.asarray(host)
    for name in ("cumsum", "cumprod"):
        for axis in (None, 1):
            check_scan(name, host, g, axis=axis, dtype=dtype)


def test_out_argument(rng):
    host = random_array((4, 6), np.int16, rng)
    g = cp.asarray(host)
    for out_dtype in (np.int64, np.int8, np.float32):
        out = cp.empty((4, 6), out_dtype)
        result = cp.cumsum(g, axis=1, out=out)
        assert result is out
        assert_array_equal_np(out, np.cumsum(host, axis=1, out=np.empty((4, 6), out_dtype)))
    out = cp.empty(24, np.int64)
    assert cp.cumsum(g, out=out) is out
    assert_array_equal_np(out, np.cumsum(host))
    for axis, bad_shape in ((1, (6, 4)), (None, (4, 6)), (None, (1, 24))):
        _, exc = numpy_outcome(lambda: np.cumsum(host, axis=axis, out=np.empty(bad_shape)))
        assert exc is not None
        assert_raises_like(exc, lambda: cp.cumsum(g, axis=axis, out=cp.empty(bad_shape)))
    # NumPy remaps an out= with extra trailing dims to its leading ones (index 0 along the rest).
    for axis, shape in ((None, (24, 1)), (None, (24, 2)), (1, (4, 6, 1))):
        ref_out, out = np.zeros(shape), cp.zeros(shape)
        np.cumsum(host, axis=axis, out=ref_out)
        assert cp.cumsum(g, axis=axis, out=out) is out
        assert_array_equal_np(out, ref_out)
    assert_raises_like(TypeError, lambda: cp.cumsum(g, out=np.empty(24)))
    assert_raises_like(TypeError, lambda: cp.cumsum(g, out=[0] * 24))


def test_in_place(rng):
    for shape, axis in (((50000,), 0), ((300, 40), 0), ((40, 300), 1), ((7,), 0)):
        host = random_array(shape, np.float64, rng, low=-5, high=5).round()
        g = cp.asarray(host)
        assert cp.cumsum(g, axis=axis, out=g) is g
        assert_array_equal_np(g, np.cumsum(host, axis=axis))
    # out overlapping the input one element further on: NumPy reads the input as it was.
    host = rng.integers(-9, 9, size=10000).astype(np.int64)
    g = cp.asarray(host)
    expected = host.copy()
    np.add.accumulate(expected[:-1], out=expected[1:])
    cp.add.accumulate(g[:-1], out=g[1:])
    assert_array_equal_np(g, expected)


def test_bad_arguments():
    g = cp.asarray(np.ones((2, 3)))
    host = np.ones((2, 3))
    for kw in ({"axis": (0, 1)}, {"axis": 1.5}, {"axis": 2}, {"axis": -3}, {"dtype": "foo"}):
        ref, exc = numpy_outcome(lambda: np.cumsum(host, **kw))
        assert exc is not None
        assert_raises_like(exc, lambda: cp.cumsum(g, **kw))
    zero_d = np.array(5.0)
    for axis in (None, 0, -1, 1, -2):
        check_scan("cumsum", zero_d, cp.asarray(zero_d), axis=axis)
        check_scan("nancumprod", zero_d, cp.asarray(zero_d), axis=axis)


def test_python_inputs():
    assert_array_equal_np(cp.cumsum([1, 2, 3]), np.cumsum([1, 2, 3]))
    assert_array_equal_np(cp.cumsum([True, False, True]), np.cumsum([True, False, True]))
    assert_array_equal_np(cp.cumprod(4.0), np.cumprod(4.0))


# --------------------------------------------------------------------------------------------------
# ufunc.accumulate

ASSOCIATIVE = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
               "bitwise_and", "bitwise_or", "bitwise_xor"]
# Folded left to right; values must be NumPy's step by step (transcendental ones within ulps).
SEQUENTIAL = ["subtract", "divide", "floor_divide", "remainder", "fmod", "power", "arctan2", "hypot", "logaddexp",
              "copysign", "equal", "less", "gcd", "lcm", "left_shift", "heaviside", "nextafter"]
INEXACT_STEPS = {"power", "arctan2", "hypot", "logaddexp"}


def accumulate_data(name, dtype, rng, shape):
    dtype = np.dtype(dtype)
    if name in ("power", "left_shift"):
        if dtype.kind in "fc":
            return scan_data("multiply", shape, dtype, rng)  # near 1 (unit modulus for complex)
        return random_array(shape, dtype, rng, low=0, high=3)
    if name in PRODUCTS | {"divide", "floor_divide", "remainder", "fmod"} and dtype.kind in "fc":
        return scan_data("multiply", shape, dtype, rng)
    if name in ("floor_divide", "remainder", "fmod", "gcd", "lcm", "divide") and dtype.kind in "iu":
        return random_array(shape, dtype, rng, low=1, high=9)
    return random_array(shape, dtype, rng, special=name in ("maximum", "minimum", "fmax", "fmin"))


@pytest.mark.parametrize("name", ASSOCIATIVE + SEQUENTIAL)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_accumulate(name, dtype, rng):
    for shape, axis in (((23,), 0), ((5, 9), 1), ((5, 9), 0), ((3, 4, 5), -2)):
        host = accumulate_data(name, dtype, rng, shape)
        np_u, cp_u = getattr(np, name), getattr(cp, name)
        ref, exc = numpy_outcome(lambda: np_u.accumulate(host, axis=axis))
        g = cp.asarray(host)
        if exc is not None:
            assert_raises_like(exc, lambda: cp_u.accumulate(g, axis=axis))
            continue
        got = cp_u.accumulate(g, axis=axis)
        if name in ("add", "multiply"):
            compare_scan(got, ref, name, host, axis)
        elif name in INEXACT_STEPS and ref.dtype.kind in "fc":
            # libm differences of an ulp compound over the steps; a wrong order is far off.
            rtol = {2: 2e-2, 4: 1e-3, 8: 1e-3 if ref.dtype.kind == "c" else 1e-9, 16: 1e-9}[ref.dtype.itemsize]
            assert_allclose_np(got, ref, rtol=rtol)
        else:
            assert_array_equal_np(got, ref)


@pytest.mark.parametrize("case", [
    ("add", np.int8, {"dtype": np.int8}), ("add", np.int8, {"dtype": np.float32}), ("add", np.int8, {"dtype": bool}),
    ("subtract", np.float64, {"dtype": np.float16}), ("subtract", np.bool_, {"dtype": np.int8}),
    ("divide", np.int64, {"dtype": np.int64}), ("arctan2", np.int8, {"dtype": np.int64}),
    # out= of another dtype: NumPy's buffered loop re-reads some prefixes from `out` (float sums into
    # an int out truncate at unpredictable steps); cuarray casts each prefix once. Integer wrapping
    # agrees either way.
    ("add", np.uint8, {"out": np.int16}), ("add", np.int16, {"out": np.uint8}), ("subtract", np.bool_, {"out": np.int8}),
    ("maximum", np.int64, {"out": np.float64}),
    ("multiply", np.bool_, {}), ("logical_and", np.float64, {}), ("equal", np.bool_, {}),
], ids=str)
def test_accumulate_dtype_and_out(case, rng):
    name, in_dtype, kw = case
    host = random_array((4, 12), in_dtype, rng, low=1, high=120)
    g = cp.asarray(host)
    np_kw, cp_kw = dict(kw), dict(kw)
    if "out" in kw:
        np_kw["out"] = np.zeros((4, 12), kw["out"])
        cp_kw["out"] = cp.zeros((4, 12), kw["out"])
    for axis in (0, 1):
        ref, exc = numpy_outcome(lambda: getattr(np, name).accumulate(host, axis=axis, **np_kw))
        if exc is not None:
            assert_raises_like(exc, lambda: getattr(cp, name).accumulate(g, axis=axis, **cp_kw))
            continue
        got = getattr(cp, name).accumulate(g, axis=axis, **cp_kw)
        if "out" in kw:
            assert got is cp_kw["out"]
        if name in ("add", "multiply") and ref.dtype.kind in "fc":
            compare_scan(got, ref, name, host, axis, kw.get("dtype"))
        else:
            assert_allclose_np(got, ref)


def test_accumulate_errors():
    host = np.arange(6.0).reshape(2, 3)
    g = cp.asarray(host)
    cases = [
        lambda xp, a: xp.sin.accumulate(a),                        # unary: ValueError
        lambda xp, a: xp.divmod.accumulate(a),                     # two outputs: ValueError
        lambda xp, a: xp.add.accumulate(a[0, 0]),                  # 0-d: TypeError
        lambda xp, a: xp.add.accumulate(a, axis=None),             # ValueError
        lambda xp, a: xp.add.accumulate(a, axis=(0, 1)),           # ValueError
        lambda xp, a: xp.add.accumulate(a, axis=2),                # AxisError
        lambda xp, a: xp.add.accumulate(a, axis=1.5),              # TypeError
        lambda xp, a: xp.equal.accumulate(a),                      # no uniform loop: TypeError
        lambda xp, a: xp.subtract.accumulate(a > 1),               # bool subtract: TypeError
        lambda xp, a: xp.add.accumulate(a, out=xp.zeros((3, 2))),  # ValueError
    ]
    for case in cases:
        _, exc = numpy_outcome(lambda: case(np, host))
        assert exc is not None
        assert_raises_like(exc, lambda: case(cp, g))
    assert_array_equal_np(cp.add.accumulate(g, axis=(1,)), np.add.accumulate(host, axis=(1,)))
    assert_array_equal_np(cp.add.accumulate([1, 2, 3]), np.add.accumulate([1, 2, 3]))


def test_numpy_dispatches_accumulate(rng):
    host = random_array(50, np.int32, rng)
    got = np.add.accumulate(cp.asarray(host))
    assert_array_equal_np(got, np.add.accumulate(host))


# --------------------------------------------------------------------------------------------------
# cumulative_sum / cumulative_prod (NumPy 2.1)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_functions(name, rng):
    np_f, cp_f = getattr(np, name), getattr(cp, name)
    for shape, axis in (((), None), ((), 0), ((7,), None), ((7,), -1), ((3, 4), 1), ((3, 4), 0), ((3, 4), None),
                        ((2, 0), 1), ((2, 3, 4), 2), ((3, 4), 2)):
        for dtype in (np.int8, np.bool_, np.float32):
            # Values whose sums and products are exact in float32 (products of {-1, 1, 2}).
            values = np.array([-1, 1, 2]) if "prod" in name else np.arange(-3, 4)
            host = rng.choice(values, size=shape).astype(dtype)
            g = cp.asarray(host)
            for include_initial in (False, True):
                check_like_numpy(lambda: np_f(host, axis=axis, include_initial=include_initial),
                                 lambda: cp_f(g, axis=axis, include_initial=include_initial),
                                 compare=assert_allclose_np)
    host = random_array((3, 5), np.int16, rng, low=-9, high=9)
    g = cp.asarray(host)
    out = cp.empty((3, 6), np.float64)
    assert cp_f(g, axis=1, include_initial=True, out=out) is out
    assert_array_equal_np(out, np_f(host, axis=1, include_initial=True, out=np.empty((3, 6))))
    assert_array_equal_np(cp_f(g, axis=0, dtype=np.int8), np_f(host, axis=0, dtype=np.int8))
    assert_raises_like(ValueError, lambda: cp_f(g, axis=1, include_initial=True, out=cp.empty((3, 5))))


# --------------------------------------------------------------------------------------------------
# diff, ediff1d


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_diff(dtype, rng):
    host = random_array((4, 7), dtype, rng)
    g = cp.asarray(host)
    for n in (0, 1, 2, 3, 8):
        for axis in (-1, 0, 1):
            check_like_numpy(lambda: np.diff(host, n=n, axis=axis), lambda: cp.diff(g, n=n, axis=axis))


def test_diff_prepend_append_and_errors(rng):
    host = rng.integers(-50, 50, size=(3, 5)).astype(np.int8)
    g = cp.asarray(host)
    cases = [dict(prepend=0), dict(append=1000), dict(prepend=0, append=np.array([[7], [8], [9]], np.int8)),
             dict(prepend=2.5, axis=0), dict(append=np.ones((1, 5), np.int16), axis=0)]
    for kw in cases:
        cp_kw = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        check_like_numpy(lambda: np.diff(host, **kw), lambda: cp.diff(g, **cp_kw))
    for call in (lambda xp, a: xp.diff(a[0, 0]), lambda xp, a: xp.diff(a, n=-1), lambda xp, a: xp.diff(a, axis=2)):
        _, exc = numpy_outcome(lambda: call(np, host))
        assert_raises_like(exc, lambda: call(cp, g))
    boolean = np.array([True, False, False, True])
    assert_array_equal_np(cp.diff(cp.asarray(boolean)), np.diff(boolean))


def test_ediff1d(rng):
    host = rng.integers(-50, 50, size=(3, 4)).astype(np.int8)
    g = cp.asarray(host)
    for kw in ({}, {"to_end": [1, 2]}, {"to_begin": -5}, {"to_end": 300, "to_begin": [1, 2, 3]}, {"to_end": 3.5}):
        check_like_numpy(lambda: np.ediff1d(host, **kw), lambda: cp.ediff1d(g, **kw))
    for arr in (np.array([1], np.int8), np.array([], np.float32), np.array([True, False])):
        check_like_numpy(lambda: np.ediff1d(arr), lambda: cp.ediff1d(cp.asarray(arr)))
        check_like_numpy(lambda: np.ediff1d(arr, to_begin=[0]), lambda: cp.ediff1d(cp.asarray(arr), to_begin=[0]))
