"""argmin, argmax (functions and ndarray methods), nanargmin and nanargmax against NumPy: every
dtype, axis None (the index into the C-order flattening, whatever the layout) and every int axis,
keepdims, ties (the first occurrence wins, also across blocks of long reductions), NaN
(argmin/argmax: the first NaN; nan-versions: ignored, an all-NaN slice raises ValueError),
-0.0 == 0.0, size-0 inputs (ValueError when a reduced slice is empty), out=, bad axes, and sizes
shaped like real workloads.  Results are int64 and compared exactly.
"""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, INEXACT, LAYOUTS, assert_array_equal_np, check_like_numpy,
                     layout_pair, random_array)
from test_reductions_basic import (LONG, SWEEP_GROUPS, case, check_empty_reduction_raises, check_reduction, expect_raises,
                                   is_inexact, plant_nan_lines, run_sweep, ties_data)

pytestmark = pytest.mark.gpu

ARG = ["argmin", "argmax", "nanargmin", "nanargmax"]


def arg_datasets(name, dtype, rng):
    def build(shape):
        sets = [("random (nan/inf/-0.0)", random_array(shape, dtype, rng, special=True)),
                ("ties", ties_data(shape, dtype, rng, special=True))]
        if name.startswith("nan") and is_inexact(dtype):
            sets.append(("ties, all-NaN lines", plant_nan_lines(ties_data(shape, dtype, rng))))
        return sets
    return build


@pytest.mark.parametrize("group", SWEEP_GROUPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ARG)
def test_sweep(name, dtype, group, rng):
    """Function (and method for argmin/argmax), every dtype, axis None and every int axis,
    keepdims; data with many equal values and with NaN/inf/-0.0."""
    run_sweep(name, group, arg_datasets(name, dtype, rng), int_axes=True)


LAYOUT_DTYPES = [np.dtype(d) for d in (np.bool_, np.uint8, np.int16, np.float32, np.complex64)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ARG)
def test_layouts(name, layout, rng):
    """axis=None indexes the C-order flattening of the view, not its memory order; broadcast axes
    tie everywhere (index 0)."""
    for dtype in LAYOUT_DTYPES:
        ref_in, g = layout_pair(layout, (5, 6, 7),
                                make=lambda s: ties_data(s, dtype, rng, special=True))
        for axis in (None, 0, 1, -1):
            for keepdims in (False, True):
                with case(dtype=dtype.name, axis=axis, keepdims=keepdims):
                    check_reduction(name, ref_in, g, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("name", ARG)
def test_nan_positions(name, dtype):
    """argmin/argmax: the index of the first NaN (a complex NaN: either part); nanargmin/nanargmax:
    NaNs ignored, ValueError if a slice is all NaN."""
    host = np.array([[1, 2, 3, 0, 5],
                     [np.nan, 1, np.nan, 7, -1],
                     [4, 4, 4, np.nan, 4],
                     [-0.0, 0.0, 2, 2, np.nan],
                     [np.inf, -np.inf, np.inf, -np.inf, 1]]).astype(dtype)
    if host.dtype.kind == "c":
        host.imag[0, 4] = np.nan
        host.imag[4, 2] = 1.0
    g = cp.asarray(host)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            with case(axis=axis, keepdims=keepdims):
                check_reduction(name, host, g, axis=axis, keepdims=keepdims)
    all_nan = host.copy()
    all_nan[2] = np.nan
    for axis in (None, 0, 1):
        with case(all_nan_row=True, axis=axis):
            check_reduction(name, all_nan, cp.asarray(all_nan), axis=axis)
    if name.startswith("nan"):
        expect_raises(ValueError, lambda: getattr(cp, name)(cp.asarray(all_nan), axis=1),
                      "all-NaN row, axis=1")


@pytest.mark.parametrize("name", ARG)
def test_empty_raises(name):
    """A reduced slice of size 0 raises ValueError; an empty kept axis gives an empty int64
    array."""
    check_empty_reduction_raises(name, np.int16, np.float64)


@pytest.mark.parametrize("name", ARG)
def test_axis_errors(name, rng):
    """Out-of-range axes raise numpy.exceptions.AxisError; a tuple axis TypeError (argmin takes one
    axis); a 0-d input takes axis 0 and -1 as NumPy does."""
    host = random_array((2, 3, 4), np.float32, rng)
    g = cp.asarray(host)
    for axis in (3, -4):
        expect_raises(np.exceptions.AxisError, lambda: getattr(np, name)(host, axis=axis), "numpy")
        expect_raises(np.exceptions.AxisError, lambda: getattr(cp, name)(g, axis=axis),
                      f"axis={axis}")
    with case(axis=(0,)):
        check_like_numpy(lambda: getattr(np, name)(host, axis=(0,)),
                         lambda: getattr(cp, name)(g, axis=(0,)))
    scalar = random_array((), np.float32, rng)
    for axis in (None, 0, -1, 1, -2):
        with case(shape=(), axis=axis):
            check_reduction(name, scalar, cp.asarray(scalar), axis=axis)


@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_out_argument(name, rng):
    """out= (int64, the result's shape) is written and returned, by the function and the method;
    an out of another integer dtype raises like NumPy."""
    host = ties_data((4, 6), np.float32, rng)
    g = cp.asarray(host)
    for axis, keepdims in ((0, False), (1, True), (None, False), (None, True), (-1, False)):
        with case(axis=axis, keepdims=keepdims):
            ref = getattr(np, name)(host, axis=axis, keepdims=keepdims)
            out = cp.empty(np.shape(ref), dtype=np.int64)
            assert getattr(cp, name)(g, axis=axis, keepdims=keepdims, out=out) is out
            assert_array_equal_np(out, ref)
            out2 = cp.empty(np.shape(ref), dtype=np.int64)
            assert getattr(g, name)(axis=axis, keepdims=keepdims, out=out2) is out2
            assert_array_equal_np(out2, ref)
    check_like_numpy(lambda: getattr(np, name)(host, axis=0, out=np.empty(6, np.int32)),
                     lambda: getattr(cp, name)(g, axis=0, out=cp.empty((6,), dtype=np.int32)))


# --------------------------------------------------------------------------------------------------
# shapes of real workloads: the first occurrence must win across blocks and splits

PLANTS = ["unique", "ties across blocks", "all equal", "nan"]


def long_row_data(name, plant, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        host = rng.uniform(-1.0, 1.0, LONG).astype(dtype)
        low, high = dtype.type(-2), dtype.type(2)
    else:
        host = rng.integers(-100, 101, LONG).astype(dtype)
        low, high = np.iinfo(dtype).min, np.iinfo(dtype).max
    extreme = low if "min" in name else high
    if plant == "unique":
        host[9_876_543] = extreme
    elif plant == "ties across blocks":
        host[[9_999_999, 6_500_001, 4_000_003, 1_234_567, 5_000_000]] = extreme
    elif plant == "all equal":
        host[:] = extreme
    else:
        host[[8_000_000, 3_333_333, 9_999_999]] = np.nan
        host[[5_000_000, 7_000_000]] = extreme
    return host


@pytest.mark.parametrize("plant, dtype", [(p, np.dtype(d)) for p in PLANTS
                                           for d in (np.float32, np.int8)
                                           if p != "nan" or d == np.float32])
@pytest.mark.parametrize("name", ARG)
def test_long_row(name, plant, dtype, rng):
    """1e7 elements: a unique extreme near the end, equal extremes in far-apart places (the first
    one wins), every element equal (0), NaNs among them."""
    host = long_row_data(name, plant, dtype, rng)
    g = cp.asarray(host)
    for axis in (None, 0):
        with case(axis=axis):
            check_reduction(name, host, g, axis=axis)
    check_reduction(name, host, g, axis=None, keepdims=True)


@pytest.mark.parametrize("axis", [1, 0])
@pytest.mark.parametrize("name", ARG)
def test_many_short_rows(name, axis, rng):
    """(200000, 3) float32: rows of values 0..2 (ties in most rows) and, for the tall columns,
    equal extremes planted far apart; NaNs in one row and in one column."""
    shape = (200_000, 3)
    host = rng.integers(0, 3, shape).astype(np.float32)
    extreme = np.float32(-1 if "min" in name else 5)
    for j in range(3):
        host[[150_000 + j, 60_000 + 7 * j, 199_999], j] = extreme
    host[[1_000, 123_456], 2] = np.nan  # column 2 only: the first NaN wins, or NaNs are skipped
    host[77_777, :2] = np.nan
    g = cp.asarray(host)
    for keepdims in (False, True):
        with case(keepdims=keepdims):
            check_reduction(name, host, g, axis=axis, keepdims=keepdims)
