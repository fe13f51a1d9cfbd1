"""var, std (ddof=, correction=, dtype=, out= in test_reductions_basic.py) and the nan-functions
nansum, nanprod, nanmean, nanvar, nanstd, nanmin, nanmax against NumPy: every dtype, every axis
argument of ranks 0-3 (a selection of rank 4), keepdims, size-0 inputs, every layout, NaN/inf/-0.0
inputs and all-NaN slices, the accuracy of variances of data with a large mean, and sizes shaped
like real workloads (one 1e7-element row, 200000 rows of 3).

Result dtypes follow NumPy: var/std of complex are real, of bool and ints float64, of float16
float16; the nan-functions of integer and bool inputs are the plain functions.
"""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, INEXACT, LAYOUTS, layout_pair, random_array
from test_reductions_basic import (LONG, SWEEP_GROUPS, VAR_NAMES, case, check_reduction, is_inexact,
                                   plant_nan_lines, prod_data, reduction_compare, run_sweep,
                                   sprinkle)

pytestmark = pytest.mark.gpu

STATS = ["var", "std", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax"]


def stats_base(name, shape, dtype, rng):
    """NaN-free data for `name`.  Variances of float16 stay within +-4: NumPy squares the deviations
    in float16, so larger values would overflow to inf in NumPy only."""
    if name in ("nanprod",):
        return prod_data(shape, dtype, rng)
    if name in VAR_NAMES and np.dtype(dtype) == np.float16:
        return random_array(shape, dtype, rng, low=-4, high=4)
    return random_array(shape, dtype, rng)


def stats_datasets(name, dtype, rng):
    def build(shape):
        base = stats_base(name, shape, dtype, rng)
        if name in ("var", "std") or not is_inexact(dtype):
            return [("random", base)]
        specials = (np.nan, np.nan, np.inf, -np.inf, -0.0, 0.0)
        if name == "nanprod" and np.dtype(dtype).kind == "c":
            specials = (np.nan, -0.0, 0.0)  # complex products with inf depend on the order
        return [("nan/inf/-0.0", sprinkle(base, rng, specials, 0.2)),
                ("nan, all-NaN lines", plant_nan_lines(sprinkle(base, rng, (np.nan,), 0.2)))]
    return build


@pytest.mark.parametrize("group", SWEEP_GROUPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", STATS)
def test_sweep(name, dtype, group, rng):
    """Function (and method for var/std), every dtype, every axis argument, keepdims.  All-NaN
    slices: nansum 0, nanprod 1, nanmean/nanvar/nanstd/nanmin/nanmax NaN; var/std of an empty
    slice NaN; nanmin/nanmax of an empty reduction ValueError."""
    run_sweep(name, group, stats_datasets(name, dtype, rng))


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.bool_, np.int32, np.uint8, np.float16,
                                                         np.float32, np.complex64)])
@pytest.mark.parametrize("name", sorted(VAR_NAMES))
def test_ddof(name, dtype, rng):
    """ddof 0, 1, 2, fractional, equal to and beyond the count (var/std: inf or NaN from dividing
    by max(n - ddof, 0); nanvar/nanstd: NaN)."""
    for shape in ((1, 5), (4, 5), (0, 3)):
        host = stats_base(name, shape, dtype, rng)
        if name.startswith("nan") and is_inexact(dtype):
            host = sprinkle(host, rng, (np.nan,), 0.2)
        g = cp.asarray(host)
        for ddof in (0, 1, 2, 0.5, 5, 6):
            for axis in (None, 0, 1, -1, (0, 1)):
                with case(shape=shape, ddof=ddof, axis=axis):
                    check_reduction(name, host, g, axis=axis, ddof=ddof)


@pytest.mark.parametrize("name", sorted(VAR_NAMES))
def test_correction_alias(name, rng):
    """correction= (the Array API name) is ddof=; giving both raises ValueError."""
    host = random_array((4, 5), np.float64, rng)
    if name.startswith("nan"):
        host = sprinkle(host, rng, (np.nan,), 0.2)
    g = cp.asarray(host)
    for correction in (0, 1, 2.5):
        for axis in (None, 1):
            with case(correction=correction, axis=axis):
                check_reduction(name, host, g, method=False, axis=axis, correction=correction)
                reduction_compare(name, host, axis, ddof=correction)(
                    getattr(cp, name)(g, axis=axis, correction=correction),
                    getattr(np, name)(host, axis=axis, ddof=correction))
    with case(ddof=1, correction=1):
        check_reduction(name, host, g, method=False, ddof=1, correction=1)


VAR_DTYPE_ARGS = [np.dtype(d) for d in (np.float16, np.float32, np.float64, np.complex64,
                                        np.complex128)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["var", "std"])
def test_dtype_argument(name, dtype, rng):
    """dtype= is the accumulator and result dtype (NumPy: mean and squares in dtype).  Not checked:
    complex input with a real dtype (NumPy drops the imaginary part of the mean but not of the
    deviations) and integer dtypes (NumPy truncates the mean; std then fails for axis=int only)."""
    host = random_array((6, 8), dtype, rng, low=-4, high=4)
    g = cp.asarray(host)
    for to in VAR_DTYPE_ARGS:
        if np.dtype(dtype).kind == "c" and to.kind != "c":
            continue
        for axis, keepdims in ((None, False), (0, False), (1, True), ((0, 1), False)):
            for ddof in (0, 1):
                with case(dtype_arg=to.name, axis=axis, keepdims=keepdims, ddof=ddof):
                    check_reduction(name, host, g, axis=axis, keepdims=keepdims, dtype=to,
                                    ddof=ddof)


LAYOUT_DTYPES = [np.dtype(d) for d in (np.int16, np.float32, np.float64, np.complex64)]
LAYOUT_AXES = [None, 0, -1, (0, 2), (1, 2)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", STATS)
def test_layouts(name, layout, rng):
    """C, F, transposed, stepped, reversed, broadcast (stride 0: variance 0 up to rounding), 0-d
    and empty inputs."""
    for dtype in LAYOUT_DTYPES:
        def make(shape):
            host = stats_base(name, shape, dtype, rng)
            return sprinkle(host, rng, (np.nan,), 0.15) if name.startswith("nan") and \
                is_inexact(dtype) else host
        ref_in, g = layout_pair(layout, (5, 6, 7), make=make)
        for axis in LAYOUT_AXES:
            for keepdims in (False, True):
                with case(dtype=dtype.name, axis=axis, keepdims=keepdims):
                    check_reduction(name, ref_in, g, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin",
                                  "nanmax"])
def test_all_nan_slices(name, dtype):
    """Row 1 entirely NaN, column 2 entirely NaN, the whole array NaN, NaN only in the imaginary
    part (a complex NaN)."""
    host = np.arange(1, 21, dtype=np.float64).reshape(4, 5).astype(dtype)
    host[1] = np.nan
    host[:, 2] = np.nan
    if host.dtype.kind == "c":
        host.imag[3, 4] = np.nan
    g = cp.asarray(host)
    for axis in (None, 0, 1, -1):
        with case(axis=axis):
            check_reduction(name, host, g, axis=axis)
    everything = np.full((3, 2), np.nan, dtype=dtype)
    for axis in (None, 0, 1):
        with case(all_nan=True, axis=axis):
            check_reduction(name, everything, cp.asarray(everything), axis=axis)


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_of_nan_and_inf(name, dtype):
    """A NaN or an infinity in a slice makes its variance NaN (as NumPy's two passes do)."""
    host = np.linspace(-2, 2, 24).reshape(4, 6).astype(dtype)
    host[0, 1] = np.nan
    host[1, 5] = np.inf
    host[2, 0] = -np.inf
    g = cp.asarray(host)
    for axis in (None, 0, 1):
        with case(axis=axis):
            check_reduction(name, host, g, axis=axis)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64)])
@pytest.mark.parametrize("name", sorted(VAR_NAMES))
def test_var_of_data_with_a_large_mean(name, dtype, rng):
    """Mean 1e3 (float32) / 1e8 (float64), spread 1: a one-pass E[x**2] - E[x]**2 in the input's
    precision loses most digits; two passes or Welford's updates keep them."""
    offset = 1e3 if dtype == np.float32 else 1e8
    host = (offset + rng.standard_normal((8, 4096))).astype(dtype)
    if name.startswith("nan"):
        host = sprinkle(host, rng, (np.nan,), 0.05)
    g = cp.asarray(host)
    for axis in (None, 0, 1, -1):
        with case(axis=axis):
            got = getattr(cp, name)(g, axis=axis)
            ref = getattr(np, name)(host.astype(np.float64), axis=axis).astype(dtype)
            reduction_compare(name, host, axis)(got, ref)


# --------------------------------------------------------------------------------------------------
# shapes of real workloads

LARGE_NAMES = ["var", "std", "nansum", "nanmean", "nanvar", "nanmin", "nanmax"]


def float64_reference(name, host, axis):
    """NumPy's result computed from the float64 values, in the float32 result dtype."""
    return np.asarray(getattr(np, name)(host.astype(np.float64), axis=axis)).astype(np.float32)


@pytest.mark.parametrize("name", LARGE_NAMES)
def test_long_row(name, rng):
    """1e7 float32 elements around 1000 (spread 1); 1% NaN for the nan-functions."""
    host = (1000.0 + rng.standard_normal(LONG)).astype(np.float32)
    if name.startswith("nan"):
        host[rng.integers(0, LONG, LONG // 100)] = np.nan
        host[[0, LONG - 1]] = np.nan
    g = cp.asarray(host)
    for axis in (None, 0):
        with case(axis=axis):
            reduction_compare(name, host, axis)(getattr(cp, name)(g, axis=axis),
                                                float64_reference(name, host, axis))


@pytest.mark.parametrize("axis", [1, 0])
@pytest.mark.parametrize("name", LARGE_NAMES)
def test_many_short_rows(name, axis, rng):
    """(200000, 3) float32 reduced along the short rows and along the tall columns; NaNs (some
    rows entirely NaN) for the nan-functions."""
    shape = (200_000, 3)
    host = rng.uniform(-1.0, 3.0, shape).astype(np.float32)
    if name.startswith("nan"):
        host = sprinkle(host, rng, (np.nan,), 0.3)
        host[[5, 199_999]] = np.nan
    g = cp.asarray(host)
    reduction_compare(name, host, axis)(getattr(cp, name)(g, axis=axis),
                                        float64_reference(name, host, axis))
    if name in ("var", "std"):
        ref = np.asarray(getattr(np, name)(host.astype(np.float64), axis=axis, ddof=1))
        reduction_compare(name, host, axis, ddof=1)(getattr(cp, name)(g, axis=axis, ddof=1),
                                                    ref.astype(np.float32))

