"""prod, mean, min/amin, max/amax, ptp, any, all and count_nonzero (functions and ndarray methods)
against NumPy: every dtype, every axis argument of ranks 0-3 (and a selection of rank 4), keepdims,
size-0 inputs, every layout, dtype= and out=, bad axes, NaN propagation and truthiness, and sizes
shaped like real workloads (one 1e7-element row, 200000 rows of 3).

This module also holds what test_reductions_stats.py and test_reductions_arg.py share: the axis
sweeps (run_sweep), the data builders and the error bounds of the accumulating reductions
(reduction_compare).
"""
import contextlib
import itertools

import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, INEXACT, LAYOUTS, SPECIAL_FLOATS, assert_allclose_np,
                     assert_array_equal_np, assert_raises_like, check_like_numpy, layout_pair,
                     numpy_outcome, random_array)
from test_reduction_sum import sum_tolerance

pytestmark = pytest.mark.gpu

# ndarray methods NumPy has (ptp, count_nonzero and the nan-functions are functions only).
METHODS = {"sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all"}
VAR_NAMES = {"var", "std", "nanvar", "nanstd"}

# --------------------------------------------------------------------------------------------------
# axis arguments


def axis_specs(ndim):
    """Every axis argument of a rank-`ndim` reduction: None, each axis as a positive and as a
    negative int, and every tuple of distinct axes, () included, once in increasing order and once
    reversed with its first entry negative."""
    specs = [None] + list(range(ndim)) + list(range(-ndim, 0))
    for r in range(ndim + 1):
        for combo in itertools.combinations(range(ndim), r):
            specs.append(combo)
            if combo:
                flipped = combo[::-1]
                specs.append((flipped[0] - ndim,) + flipped[1:])
    return specs


def int_axis_specs(ndim):
    """The axis arguments of argmin/argmax: None and each axis as a positive and a negative int."""
    return [None] + list(range(ndim)) + list(range(-ndim, 0))


RANK4_AXES = [None, 0, 2, -1, (), (1, 3), (3, -4), (0, 2, 3), (-1, 1, 2), (0, 1, 2, 3)]
RANK4_INT_AXES = [None, 0, 2, -1, -4]

# Shapes of each sweep group; ranks 0-3 get every axis argument, rank 4 a selection.
SWEEP_SHAPES = {
    "rank0-2": [(), (7,), (5, 6)],
    "rank3": [(3, 4, 5)],
    "rank4": [(2, 3, 2, 3)],
    "empty": [(0,), (0, 4), (3, 0), (2, 0, 3)],
}
SWEEP_GROUPS = list(SWEEP_SHAPES)


def sweep_axes(shape, int_only=False):
    if len(shape) == 4:
        return RANK4_INT_AXES if int_only else RANK4_AXES
    return int_axis_specs(len(shape)) if int_only else axis_specs(len(shape))


@contextlib.contextmanager
def case(**info):
    """Name the sub-case (shape, axis, ...) in the failure report of a test that loops over many."""
    try:
        yield
    except BaseException as exc:
        exc.add_note("case: " + ", ".join(f"{k}={v!r}" for k, v in info.items()))
        raise


def expect_raises(exc_type, call, what):
    """call() raises exc_type (NumPy's own class, e.g. numpy.exceptions.AxisError)."""
    try:
        call()
    except exc_type:
        return
    except Exception as exc:  # noqa: BLE001 - reported as the wrong exception
        pytest.fail(f"{what}: expected {exc_type.__name__}, got {type(exc).__name__}: {exc}")
    pytest.fail(f"{what}: expected {exc_type.__name__}, nothing was raised")


# --------------------------------------------------------------------------------------------------
# data


def is_inexact(dtype):
    return np.dtype(dtype).kind in "fc"


def sprinkle(host, rng, values, fraction=0.1):
    """A copy of host with about `fraction` of its elements replaced by picks from `values` (for
    complex dtypes, in the real or in the imaginary part)."""
    host = np.array(host, copy=True)
    if host.size == 0:
        return host
    mask = rng.random(host.shape) < fraction
    picks = rng.choice(np.asarray(values, dtype=np.float64), size=host.shape)
    with np.errstate(all="ignore"):
        if host.dtype.kind == "f":
            host[mask] = picks[mask]
        else:
            part = rng.random(host.shape) < 0.5
            host.real[mask & part] = picks[mask & part]
            host.imag[mask & ~part] = picks[mask & ~part]
    return host


def plant_nan_lines(host):
    """host with one all-NaN line along the last axis and one along the first axis."""
    host = np.array(host, copy=True)
    if host.ndim and host.size:
        host[(0,) * (host.ndim - 1) + (slice(None),)] = np.nan
        host[(slice(None),) + (-1,) * (host.ndim - 1)] = np.nan
    return host


def prod_data(shape, dtype, rng, *, special=False):
    """Data whose products neither overflow nor underflow in any order (magnitudes within
    exp(+-0.25) for floats, nonzero -3..3 for integers, which wrap identically in any order).
    special: about 10% nan, inf, -inf, -0.0, 0.0 (real floats; their products do not depend on
    the order either)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return random_array(shape, dtype, rng)
    if dtype.kind in "iu":
        return random_array(shape, dtype, rng, low=-3, high=3, nonzero=True)
    magnitude = np.exp(rng.uniform(-0.25, 0.25, size=shape))
    if dtype.kind == "f":
        host = (magnitude * rng.choice([-1.0, 1.0], size=shape)).astype(dtype)
    else:
        host = (magnitude * np.exp(1j * rng.uniform(0, 2 * np.pi, size=shape))).astype(dtype)
    if special:
        host = sprinkle(host, rng, SPECIAL_FLOATS)
    return np.asarray(host)


def sparse_data(shape, dtype, rng, zero_fraction):
    """Random values (nan, inf, -0.0 among them for floats) of which about `zero_fraction`
    (a number or an array broadcasting to shape) are zero."""
    host = random_array(shape, dtype, rng, special=True)
    return np.asarray(np.where(rng.random(shape) < zero_fraction, np.zeros((), host.dtype), host))


def graded_sparse_data(shape, dtype, rng):
    """Zero with a probability growing from 0 to 1 along the last axis: all-nonzero and all-zero
    slices along the other axes."""
    fraction = np.linspace(-0.1, 1.1, shape[-1]) if len(shape) else 0.5
    return sparse_data(shape, dtype, rng, fraction)


def ties_data(shape, dtype, rng, *, special=False):
    """Values from a handful (-2..2; both signs of zero for floats; lexicographic ties for
    complex), so equal values recur along every axis."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return random_array(shape, dtype, rng, low=-2, high=2)
    real = rng.integers(-2, 3, size=shape).astype(np.float64)
    real = np.where(real == 0, rng.choice([0.0, -0.0], size=shape), real)
    if dtype.kind == "c":
        real = real + 1j * rng.integers(-1, 2, size=shape)
    host = np.asarray(real.astype(dtype))
    return sprinkle(host, rng, (np.nan, np.inf, -np.inf)) if special else host


def without_nan(host, fill):
    if host.dtype.kind not in "fc":
        return host
    return np.where(np.isnan(host), np.asarray(fill, host.dtype), host)


# --------------------------------------------------------------------------------------------------
# error bounds of the accumulating reductions; all take (host, axis, keepdims, result_dtype)


def reduced_count(host, axis, keepdims, ignore_nan=False):
    """Elements per output (the non-NaN ones with ignore_nan), shaped like the result."""
    valid = ~np.isnan(host) if ignore_nan and host.dtype.kind in "fc" else np.ones(host.shape, bool)
    return np.sum(valid, axis=axis, keepdims=keepdims, dtype=np.int64)


def nansum_tolerance(host, axis, keepdims, result_dtype):
    return sum_tolerance(without_nan(host, 0), axis, keepdims, result_dtype)


def mean_tolerance(host, axis, keepdims, result_dtype, ignore_nan=False):
    """The sum's bound over the count."""
    data = without_nan(host, 0) if ignore_nan else host
    count = reduced_count(host, axis, keepdims, ignore_nan)
    return sum_tolerance(data, axis, keepdims, result_dtype) / np.maximum(count, 1)


def prod_tolerance(host, axis, keepdims, result_dtype, ignore_nan=False):
    """Each multiplication rounds once (relative eps/2, complex about 2 eps): n eps |prod| for short
    products (float16 along outer axes: NumPy rounds every step), 8 sqrt(n) eps for long ones, whose
    rounding errors are independent."""
    result_dtype = np.dtype(result_dtype)
    if result_dtype.kind not in "fc":
        return 0.0
    data = without_nan(host, 1) if ignore_nan else host
    wide = data.astype(np.complex128 if data.dtype.kind == "c" else np.float64)
    magnitude = np.prod(np.abs(wide), axis=axis, keepdims=keepdims)
    n = np.maximum(reduced_count(host, axis, keepdims), 1).astype(np.float64)
    steps = np.minimum(n + 2, 8 * np.sqrt(n) + 8)
    eps = np.finfo(result_dtype.type(0).real.dtype).eps
    return (4 if result_dtype.kind == "c" else 1) * eps * steps * magnitude


def var_tolerance(host, axis, keepdims, result_dtype, ddof=0, ignore_nan=False, std=False):
    """Two-pass (or Welford) variance error: a few eps per step times the sum of squared deviations,
    plus the effect of the mean's error (n delta**2) and of rounding the inputs (eps sqrt(S2 Sx2)).
    A one-pass E[x**2] - E[x]**2 exceeds it when the mean is large against the spread.  float16:
    NumPy computes everything in float16, rounding at every step along outer axes."""
    result_dtype = np.dtype(result_dtype)
    if result_dtype.kind not in "fc":
        return 0.0
    wide = host.astype(np.complex128 if host.dtype.kind == "c" else np.float64)
    valid = ~np.isnan(wide) if ignore_nan else np.ones(wide.shape, bool)
    wide = np.where(valid, wide, 0)
    count = np.sum(valid, axis=axis, keepdims=keepdims, dtype=np.int64)
    mean = np.sum(wide, axis=axis, keepdims=True) / np.maximum(
        np.sum(valid, axis=axis, keepdims=True), 1)
    s2 = np.sum(np.where(valid, np.abs(wide - mean) ** 2, 0), axis=axis, keepdims=keepdims)
    s1 = np.sum(np.abs(wide), axis=axis, keepdims=keepdims)
    sx2 = np.sum(np.abs(wide) ** 2, axis=axis, keepdims=keepdims)
    real = np.dtype(result_dtype.type(0).real.dtype)
    eps = np.finfo(real).eps
    n = np.maximum(count, 1).astype(np.float64)
    steps = n + 2 if real == np.float16 else np.log2(n) + 2
    mean_error = 2 * eps * steps * s1 / n
    denominator = np.maximum(count - ddof, 0)
    tol = (4 * eps * (steps + 2) * s2 + n * mean_error ** 2
           + 4 * eps * np.sqrt(s2 * sx2)) / denominator
    if not std:
        return tol
    return np.fmin(np.sqrt(tol), 2 * tol / np.sqrt(s2 / denominator))  # fmin: 0/0 is no bound


REDUCTION_TOLERANCE = {
    "sum": sum_tolerance,
    "nansum": nansum_tolerance,
    "prod": prod_tolerance,
    "nanprod": lambda *a: prod_tolerance(*a, ignore_nan=True),
    "mean": mean_tolerance,
    "nanmean": lambda *a: mean_tolerance(*a, ignore_nan=True),
    "var": var_tolerance,
    "std": lambda *a, **k: var_tolerance(*a, std=True, **k),
    "nanvar": lambda *a, **k: var_tolerance(*a, ignore_nan=True, **k),
    "nanstd": lambda *a, **k: var_tolerance(*a, ignore_nan=True, std=True, **k),
}


def assert_count_equal(got, ref):
    """count_nonzero: where NumPy returns a scalar (axis=None, or every axis), cuarray may return a
    Python/NumPy int or a 0-d int64 array; otherwise an int64 array like NumPy's."""
    if np.ndim(ref) == 0 and not isinstance(got, cp.ndarray):
        assert isinstance(got, (int, np.integer)) and not isinstance(got, (bool, np.bool_)), (
            f"count_nonzero returned {type(got)}")
        assert int(got) == int(ref), f"count_nonzero: cuarray {got} != numpy {ref}"
        return
    assert_array_equal_np(got, ref)


def reduction_compare(name, host, axis=None, keepdims=False, **kwargs):
    """The comparison of cp.<name>(g, axis=axis, keepdims=keepdims, **kwargs) with NumPy's result:
    exact for selections, logical reductions and counts (and integer results), within the
    accumulation error bound for sums, products, means and variances."""
    if name == "count_nonzero":
        return assert_count_equal
    tolerance = REDUCTION_TOLERANCE.get(name)
    if tolerance is None:
        return assert_array_equal_np
    extra = {}
    if name in VAR_NAMES:
        extra["ddof"] = kwargs.get("correction", kwargs.get("ddof", 0))

    def compare(got, ref):
        ref = np.asarray(ref)
        with np.errstate(all="ignore"):
            atol = tolerance(host, axis, keepdims, ref.dtype, **extra)
        assert_allclose_np(got, ref, atol=atol)
    return compare


def check_reduction(name, host, g, *, method=True, compare=None, **kwargs):
    """np.<name>(host, **kwargs) against cp.<name>(g, **kwargs), and the ndarray methods when NumPy
    has one (and method is true); errors must match NumPy's builtin exception bases."""
    if compare is None:
        compare = reduction_compare(name, host, **kwargs)
    check_like_numpy(lambda: getattr(np, name)(host, **kwargs),
                     lambda: getattr(cp, name)(g, **kwargs), compare)
    if method and name in METHODS:
        with case(via="method"):
            check_like_numpy(lambda: getattr(host, name)(**kwargs),
                             lambda: getattr(g, name)(**kwargs), compare)


def run_sweep(name, group, datasets, *, int_axes=False, **kwargs):
    """Every shape of SWEEP_SHAPES[group], every (label, host) of datasets(shape), every axis
    argument and both keepdims: check_reduction(name, ...)."""
    for shape in SWEEP_SHAPES[group]:
        for label, host in datasets(shape):
            g = cp.asarray(host)
            for axis in sweep_axes(shape, int_axes):
                for keepdims in (False, True):
                    with case(name=name, input=host.dtype.name, shape=shape, data=label, axis=axis,
                              keepdims=keepdims, **kwargs):
                        check_reduction(name, host, g, axis=axis, keepdims=keepdims, **kwargs)


# --------------------------------------------------------------------------------------------------
# the sweeps

BASIC = ["prod", "mean", "min", "max", "ptp", "any", "all", "count_nonzero"]


def basic_datasets(name, dtype, rng):
    def build(shape):
        if name == "prod":
            sets = [("near 1", prod_data(shape, dtype, rng))]
            if np.dtype(dtype).kind == "f":
                sets.append(("nan/inf/0", prod_data(shape, dtype, rng, special=True)))
            return sets
        if name == "mean":
            return [("random", random_array(shape, dtype, rng))]
        if name in ("min", "max", "ptp"):
            return [("random with nan/inf/-0.0", random_array(shape, dtype, rng, special=True))]
        return [("mostly zero", sparse_data(shape, dtype, rng, 0.9)),
                ("mostly nonzero", sparse_data(shape, dtype, rng, 0.05))]
    return build


@pytest.mark.parametrize("group", SWEEP_GROUPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", BASIC)
def test_sweep(name, dtype, group, rng):
    """Function and method, every dtype, every axis argument, keepdims; NumPy's result dtype
    (prod: int64/uint64 for small ints and bool; mean: float64 for ints and bool, float16 for
    float16; any/all: bool; count_nonzero: int64) or NumPy's error (ptp of bool, min/max of an
    empty reduction)."""
    run_sweep(name, group, basic_datasets(name, dtype, rng))


@pytest.mark.parametrize("name", ["amin", "amax"])
def test_amin_amax_aliases(name, rng):
    for dtype in ALL_DTYPES:
        host = random_array((3, 4, 5), dtype, rng, special=True)
        g = cp.asarray(host)
        for axis in (None, 0, -1, (0, 2)):
            for keepdims in (False, True):
                with case(dtype=dtype.name, axis=axis, keepdims=keepdims):
                    check_reduction(name, host, g, axis=axis, keepdims=keepdims)


LAYOUT_DTYPES = [np.dtype(d) for d in (np.bool_, np.int16, np.uint32, np.float32, np.complex64)]
LAYOUT_AXES = [None, 0, -1, (0, 2), (1, 2)]
LAYOUT_DATA = {
    "prod": prod_data,
    "mean": lambda shape, dtype, rng: random_array(shape, dtype, rng),
    "min": lambda shape, dtype, rng: random_array(shape, dtype, rng),
    "max": lambda shape, dtype, rng: random_array(shape, dtype, rng),
    "ptp": lambda shape, dtype, rng: random_array(shape, dtype, rng),
    "any": graded_sparse_data,
    "all": graded_sparse_data,
    "count_nonzero": graded_sparse_data,
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", BASIC)
def test_layouts(name, layout, rng):
    """C, F, transposed, stepped, reversed, broadcast (stride 0), 0-d and empty inputs."""
    for dtype in LAYOUT_DTYPES:
        ref_in, g = layout_pair(layout, (5, 6, 7), make=lambda s: LAYOUT_DATA[name](s, dtype, rng))
        for axis in LAYOUT_AXES:
            for keepdims in (False, True):
                with case(dtype=dtype.name, axis=axis, keepdims=keepdims):
                    check_reduction(name, ref_in, g, axis=axis, keepdims=keepdims)


# --------------------------------------------------------------------------------------------------
# dtype= and out=

PROD_DTYPE_ARGS = [np.dtype(d) for d in (np.bool_, np.int8, np.int32, np.uint16, np.uint64,
                                         np.float16, np.float32, np.float64, np.complex64,
                                         np.complex128)]
MEAN_DTYPE_ARGS = [np.dtype(d) for d in (np.int8, np.int64, np.float16, np.float32, np.float64,
                                         np.complex64, np.complex128)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["prod", "mean"])
def test_dtype_argument(name, dtype, rng):
    """dtype= is the accumulator and result dtype (inputs cast unsafely, as NumPy does; mean with an
    integer dtype truncates the quotient)."""
    host = (prod_data((6, 8), dtype, rng) if name == "prod"
            else random_array((6, 8), dtype, rng, low=-100, high=100))
    g = cp.asarray(host)
    for to in PROD_DTYPE_ARGS if name == "prod" else MEAN_DTYPE_ARGS:
        for axis, keepdims in ((None, False), (0, False), (1, True), ((0, 1), False)):
            with case(dtype_arg=to.name, axis=axis, keepdims=keepdims):
                check_reduction(name, host, g, axis=axis, keepdims=keepdims, dtype=to)


def test_mean_accumulates_wider_than_float16():
    """1 + 4095 * 2**-11: a float16 accumulator loses every addend; NumPy accumulates in float32."""
    host = np.full(4096, 2.0**-11, dtype=np.float16)
    host[0] = 1.0
    g = cp.asarray(host)
    assert_allclose_np(cp.mean(g), np.mean(host))
    assert_allclose_np(g.reshape(64, 64).mean(axis=1), host.reshape(64, 64).mean(axis=1))


@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)])
def test_mean_of_large_integers_does_not_wrap(dtype):
    """NumPy sums integers in float64 for mean: 1000 * 2**62 must not wrap around."""
    host = np.full((2, 1000), 2**62, dtype=dtype)
    host[1] = np.iinfo(dtype).max
    g = cp.asarray(host)
    for axis in (None, 1):
        with case(axis=axis):
            check_reduction("mean", host, g, axis=axis)


OUT_CASES = [(0, False), (1, True), (None, False), (None, True), ((0, 1), False), (-1, False)]


def out_data(name, shape, rng):
    return (prod_data(shape, np.float64, rng) if name == "prod"
            else random_array(shape, np.float64, rng))


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std"])
def test_out_argument(name, rng):
    """out= of the result's shape is written and returned (function and method), in its own dtype
    (float32: NumPy accumulates in it; complex128) or contiguous or not; a wrong shape raises."""
    host = out_data(name, (4, 6), rng)
    g = cp.asarray(host)
    for axis, keepdims in OUT_CASES:
        shape = np.shape(getattr(np, name)(host, axis=axis, keepdims=keepdims))
        for out_dtype in (np.float64, np.float32, np.complex128):
            for via in ("function", "method"):
                with case(axis=axis, keepdims=keepdims, out_dtype=np.dtype(out_dtype).name,
                          via=via):
                    np_out, cp_out = np.empty(shape, out_dtype), cp.empty(shape, dtype=out_dtype)
                    kw = dict(axis=axis, keepdims=keepdims)
                    np_fn, cp_fn = getattr(np, name), getattr(cp, name)
                    if via == "method":
                        np_fn = cp_fn = lambda a, **k: getattr(a, name)(**k)
                    ref, exc = numpy_outcome(lambda: np_fn(host, out=np_out, **kw))
                    if exc is not None:
                        assert_raises_like(exc, lambda: cp_fn(g, out=cp_out, **kw))
                        continue
                    assert ref is np_out  # guards the oracle
                    got = cp_fn(g, out=cp_out, **kw)
                    assert got is cp_out, f"{name}(out=) returned {type(got)}, not out"
                    reduction_compare(name, host, axis, keepdims)(cp_out, np_out)
    # a strided out (every other element of a longer array): written in place, the rest untouched
    base = cp.zeros((12,), dtype=np.float64)
    got = getattr(cp, name)(g, axis=0, out=base[1::2])
    assert got.shape == (6,)
    back = cp.asnumpy(base)
    assert np.all(back[0::2] == 0), "out= wrote outside the view"
    reduction_compare(name, host, 0, False)(base[1::2], getattr(np, name)(host, axis=0))
    # wrong shapes: NumPy raises ValueError
    for axis, keepdims, bad_shape in ((0, False, (5,)), (0, False, (1, 6)), (1, True, (4,)),
                                      (None, False, (1,))):
        with case(axis=axis, keepdims=keepdims, out_shape=bad_shape):
            check_like_numpy(
                lambda: getattr(np, name)(host, axis=axis, keepdims=keepdims,
                                          out=np.empty(bad_shape)),
                lambda: getattr(cp, name)(g, axis=axis, keepdims=keepdims,
                                          out=cp.empty(bad_shape, dtype=np.float64)),
                reduction_compare(name, host, axis, keepdims))


@pytest.mark.parametrize("name", ["min", "max", "amin", "amax", "ptp", "any", "all"])
def test_out_argument_of_selections(name, rng):
    """min/max/ptp/any/all(out=) with out of NumPy's result dtype: written and returned."""
    host = sparse_data((4, 6), np.float32, rng, 0.5) if name in ("any", "all") else \
        random_array((4, 6), np.float32, rng)
    g = cp.asarray(host)
    for axis, keepdims in OUT_CASES:
        with case(axis=axis, keepdims=keepdims):
            ref = getattr(np, name)(host, axis=axis, keepdims=keepdims)
            out = cp.empty(np.shape(ref), dtype=np.asarray(ref).dtype)
            got = getattr(cp, name)(g, axis=axis, keepdims=keepdims, out=out)
            assert got is out, f"{name}(out=) returned {type(got)}, not out"
            assert_array_equal_np(out, ref)
            if name in METHODS:
                out2 = cp.empty(np.shape(ref), dtype=np.asarray(ref).dtype)
                assert getattr(g, name)(axis=axis, keepdims=keepdims, out=out2) is out2
                assert_array_equal_np(out2, ref)


# --------------------------------------------------------------------------------------------------
# axis errors, empty reductions, NaN and truthiness

BAD_AXES = [3, -4, (0, 3), (-4, 1)]
DUPLICATE_AXES = [(0, 0), (1, -2), (2, 0, -1)]


@pytest.mark.parametrize("name", BASIC + ["amin", "amax"])
def test_bad_axis(name, rng):
    """Out-of-range axes raise numpy.exceptions.AxisError, repeated ones ValueError."""
    host = random_array((2, 3, 4), np.float32, rng)
    g = cp.asarray(host)
    calls = [("function", lambda a, axis: getattr(np, name)(a, axis=axis),
              lambda axis: getattr(cp, name)(g, axis=axis))]
    if name in METHODS:
        calls.append(("method", lambda a, axis: getattr(a, name)(axis=axis),
                      lambda axis: getattr(g, name)(axis=axis)))
    for via, np_call, cp_call in calls:
        for axis in BAD_AXES:
            expect_raises(np.exceptions.AxisError, lambda: np_call(host, axis), "numpy (oracle)")
            expect_raises(np.exceptions.AxisError, lambda: cp_call(axis), f"{via} axis={axis!r}")
        for axis in DUPLICATE_AXES:
            expect_raises(ValueError, lambda: np_call(host, axis), "numpy (oracle)")
            expect_raises(ValueError, lambda: cp_call(axis), f"{via} axis={axis!r}")


def check_empty_reduction_raises(name, int_dtype, empty_kept_dtype):
    """No identity: an empty reduction raises ValueError; an empty kept axis gives an empty
    result (shared with the arg reductions)."""
    fn = getattr(cp, name)
    expect_raises(ValueError, lambda: fn(cp.zeros((0,), dtype=np.float32)), "shape (0,)")
    expect_raises(ValueError, lambda: fn(cp.zeros((3, 0), dtype=int_dtype), axis=1), "(3, 0) axis 1")
    expect_raises(ValueError, lambda: fn(cp.zeros((3, 0), dtype=int_dtype)), "(3, 0) axis None")
    assert_array_equal_np(fn(cp.zeros((0, 3), dtype=empty_kept_dtype), axis=1),
                          getattr(np, name)(np.zeros((0, 3), dtype=empty_kept_dtype), axis=1))


@pytest.mark.parametrize("name", ["min", "max", "amin", "amax", "ptp"])
def test_empty_reduction_raises(name):
    check_empty_reduction_raises(name, np.int32, np.int32)


@pytest.mark.parametrize("dtype", INEXACT)
def test_min_max_nan_propagates(dtype, rng):
    """A NaN anywhere in a slice (first, last, middle, only in the imaginary part) makes it NaN,
    also in long rows that several blocks reduce."""
    host = random_array((6, 3000), dtype, rng)
    host[1, 0] = np.nan
    host[2, 2999] = np.nan
    host[3, 1500] = np.nan
    if host.dtype.kind == "c":
        host.imag[4, 777] = np.nan
    host[5, 10] = np.inf
    g = cp.asarray(host)
    for name in ("min", "max", "ptp"):
        for axis in (None, 0, 1, -1):
            with case(name=name, axis=axis):
                check_reduction(name, host, g, axis=axis)


TRUTHINESS = [
    (np.float64, [np.nan]), (np.float64, [-0.0, 0.0]), (np.float64, [0.0, np.nan]),
    (np.float32, [-0.0, np.inf]), (np.float16, [6e-8, 0.0]), (np.float64, [5e-324, -0.0]),
    (np.complex64, [0j, complex(-0.0, -0.0)]), (np.complex128, [complex(0, np.nan)]),
    (np.complex128, [complex(0, 1), 0j]), (np.complex64, [complex(0, -0.0), complex(1e-30, 0)]),
    (np.int8, [0, -128]), (np.uint64, [0, 2**63]), (np.bool_, [False, False]), (np.bool_, [True]),
]


@pytest.mark.parametrize("dtype, values", TRUTHINESS,
                         ids=[f"{np.dtype(d).name}-{v}" for d, v in TRUTHINESS])
def test_truthiness(dtype, values):
    """NaN is truthy, -0.0 is not, complex is nonzero when either part is, subnormals count."""
    host = np.array(values, dtype=dtype)
    g = cp.asarray(host)
    for name in ("any", "all", "count_nonzero"):
        for axis in (None, 0):
            with case(name=name, axis=axis):
                check_reduction(name, host, g, axis=axis)


def test_count_nonzero_of_a_wide_array(rng):
    """axis=None of a large array: the count as NumPy's int (or a 0-d int64 array)."""
    host = sparse_data((1000, 1001), np.float64, rng, 0.7)
    assert_count_equal(cp.count_nonzero(cp.asarray(host)), np.count_nonzero(host))


# --------------------------------------------------------------------------------------------------
# shapes of real workloads: one long row, many short rows

LONG = 10_000_000


def long_row(name, rng):
    if name == "prod":  # a product of about exp(N(0, 3)): no overflow, every block matters
        return np.exp(rng.normal(0.0, 1e-3, LONG)).astype(np.float32)
    if name in ("any", "count_nonzero"):
        host = np.zeros(LONG, np.float32)
        host[[9_876_543, 4_000_001]] = [np.nan, -0.5]
        return host
    if name == "all":
        host = np.ones(LONG, np.float32)
        host[9_876_543] = -0.0
        return host
    host = rng.uniform(1.0, 2.0, LONG).astype(np.float32)
    host[[7_654_321, 123]] = [0.25, 3.5]
    return host


def float64_reference(name, host, axis):
    """NumPy's float64 result for prod/mean (cast back to float32, the result dtype of float32
    input), NumPy's own result for the exact reductions."""
    if name in ("prod", "mean"):
        return getattr(np, name)(host.astype(np.float64), axis=axis).astype(np.float32)
    return getattr(np, name)(host, axis=axis)


@pytest.mark.parametrize("name", BASIC)
def test_long_row(name, rng):
    """1e7 float32 elements (a naive float32 running sum of values in [1, 2) is off by far more than
    the tolerance; any dropped or repeated block changes the result)."""
    host = long_row(name, rng)
    g = cp.asarray(host)
    for axis in (None, 0):
        with case(axis=axis):
            got = getattr(cp, name)(g, axis=axis)
            reduction_compare(name, host, axis)(got, float64_reference(name, host, axis))
    if name == "any":
        assert not bool(cp.any(cp.zeros(LONG, dtype=np.float32)))
    if name == "all":
        assert bool(cp.all(cp.ones(LONG, dtype=np.float32)))


@pytest.mark.parametrize("axis", [1, 0])
@pytest.mark.parametrize("name", BASIC)
def test_many_short_rows(name, axis, rng):
    """(200000, 3) float32 reduced along the short rows and along the tall columns."""
    shape = (200_000, 3)
    if name == "prod":
        host = np.exp(rng.normal(0.0, 1e-3, shape)).astype(np.float32)
    elif name == "mean":
        host = rng.uniform(1.0, 2.0, shape).astype(np.float32)
    elif name in ("any", "all", "count_nonzero"):
        host = sparse_data(shape, np.float32, rng, 0.5)
        host[:, 0] = 0  # an all-zero column
        host[:, 1] = np.where(host[:, 1] == 0, np.float32(1), host[:, 1])  # an all-nonzero one
    else:
        host = random_array(shape, np.float32, rng)
        host[123_456, 2] = np.nan
    g = cp.asarray(host)
    got = getattr(cp, name)(g, axis=axis)
    reduction_compare(name, host, axis)(got, float64_reference(name, host, axis))
