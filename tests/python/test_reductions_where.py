"""where= and initial= of the reductions, and var/std's mean=, against NumPy: masks of every
density (broadcast, non-contiguous, 0-d), every dtype, axes, empty slices, and NumPy's errors
(a non-bool mask, min/max with a mask but no initial, an out-of-range integer initial)."""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, INEXACT, check_like_numpy, random_array
from test_reductions_basic import reduction_compare

pytestmark = pytest.mark.gpu

WHERE_NAMES = ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all", "nansum", "nanprod", "nanmean",
               "nanvar", "nanstd", "nanmin", "nanmax"]
INITIAL_NAMES = ["sum", "prod", "min", "max", "nansum", "nanprod", "nanmin", "nanmax"]
NEEDS_INITIAL = {"min", "max", "nanmin", "nanmax"}


# Reductions that accumulate (rounding differs from NumPy's order).
ACCUMULATING = {"sum", "prod", "nansum", "nanprod", "mean", "nanmean", "var", "std", "nanvar", "nanstd"}


def _masked_compare(host):
    """Accumulating reductions under a mask: the error bounds of test_reductions_basic assume every
    element counts (a masked-out NaN would poison them), so compare within a relative tolerance of
    the dtype instead. float16: NumPy accumulates variances in float16 itself."""
    rtol = {np.float16: 4e-3, np.float32: 2e-5, np.complex64: 2e-5}.get(host.dtype.type, 1e-10)

    def compare(got, ref):
        assert cp.asnumpy(got).dtype == np.asarray(ref).dtype
        np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=rtol, atol=1e-6, equal_nan=True)
    return compare


def _check(name, host, axis, **kwargs):
    """np.<name>(host, ...) against cp.<name>(device copy, ...), masks moved to the device."""
    gpu_kwargs = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    if "where" in kwargs and name in ACCUMULATING:
        compare = _masked_compare(host)
    else:
        compare = reduction_compare(name, host, axis=axis)
    with np.errstate(all="ignore"):
        check_like_numpy(lambda: getattr(np, name)(host, axis=axis, **kwargs),
                         lambda: getattr(cp, name)(cp.asarray(host), axis=axis, **gpu_kwargs), compare)


@pytest.mark.parametrize("name", WHERE_NAMES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_where_masks(name, dtype, rng):
    host = random_array((4, 5, 6), dtype, rng, special=np.dtype(dtype).kind == "f")
    if name in ("prod", "nanprod") and host.dtype.kind == "c":
        # Unit-modulus factors: an overflowing complex product's inf/nan parts depend on the
        # multiplication order, which NumPy leaves unspecified.
        host = (host / np.where(host == 0, 1, np.abs(host))).astype(dtype)
    extra = {"initial": 3} if name in NEEDS_INITIAL else {}
    for density in (0.0, 0.3, 1.0):
        mask = rng.random((4, 5, 6)) < density
        for axis in (None, 0, 2, (0, 2)):
            _check(name, host, axis, where=mask, **extra)
    # A broadcast mask (one per last-axis position) and a non-contiguous one.
    _check(name, host, 1, where=rng.random(6) < 0.5, **extra)
    _check(name, host, -1, where=(rng.random((6, 5, 4)) < 0.5).T, **extra)


@pytest.mark.parametrize("name", ["sum", "mean", "var", "min", "any", "nanmean"])
def test_where_scalars_and_errors(name, rng):
    host = random_array((3, 4), np.float32, rng)
    extra = {"initial": 0.5} if name in NEEDS_INITIAL else {}
    for where in (True, False, np.True_, np.False_):
        _check(name, host, 0, where=where, **extra)
    _check(name, host, None, where=np.array([[True], [False], [True]]), **extra)
    # A non-bool mask is a TypeError; a mask that does not broadcast is a ValueError.
    _check(name, host, 0, where=np.array([1, 0, 1, 1]), **extra)
    _check(name, host, 0, where=np.array([True, False]), **extra)


@pytest.mark.parametrize("name", ["min", "max", "nanmin", "nanmax"])
def test_min_max_where_needs_initial(name, rng):
    host = random_array((3, 4), np.float64, rng)
    _check(name, host, 0, where=np.array([True, False, True, True]))  # ValueError, as NumPy
    _check(name, np.zeros((0, 3)), 0, initial=4.0)  # an empty reduction with initial is fine
    _check(name, np.zeros((2, 0)), 1, initial=-1.0)


@pytest.mark.parametrize("name", INITIAL_NAMES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_initial(name, dtype, rng):
    # Complex infinities in products depend on the multiplication order (NumPy's own results do).
    host = random_array((3, 5), dtype, rng, special=np.dtype(dtype).kind == "f")
    kind = np.dtype(dtype).kind
    values = [1, 0] if kind == "b" else [2, -1] if kind == "i" else [2, 7] if kind == "u" else [1.5, -2.25, 3]
    for initial in values:
        for axis in (None, 0, 1):
            _check(name, host, axis, initial=initial)
    _check(name, host, 0, initial=values[0], keepdims=True)


def test_initial_conversions(rng):
    host = random_array((2, 3), np.int8, rng)
    _check("sum", host, None, initial=1.5)        # truncated to the int64 result
    _check("max", host, None, initial=300)        # OverflowError: out of int8's range
    _check("max", host, None, initial=300.5)      # NumPy truncates first, then overflows
    _check("sum", host, None, initial=[1, 2])     # TypeError
    _check("sum", np.array([1, 2], np.uint8), None, initial=-1)
    _check("sum", np.array([1.0, 2.0], np.float32), None, initial=1e300)  # inf in float32
    _check("sum", np.array([1 + 1j]), None, initial=1j)


def test_method_forms(rng):
    host = random_array((4, 6), np.float64, rng)
    mask = rng.random((4, 6)) < 0.5
    g, gmask = cp.asarray(host), cp.asarray(mask)
    np.testing.assert_allclose(cp.asnumpy(g.sum(axis=1, where=gmask, initial=2.0)),
                               host.sum(axis=1, where=mask, initial=2.0), rtol=1e-14)
    np.testing.assert_allclose(cp.asnumpy(g.mean(0, where=gmask)), host.mean(0, where=mask), rtol=1e-14)
    np.testing.assert_allclose(cp.asnumpy(g.max(axis=0, where=gmask, initial=-5.0)),
                               host.max(axis=0, where=mask, initial=-5.0))
    with pytest.raises(TypeError):
        g.mean(initial=1.0)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex64, np.complex128])
def test_mean_argument(name, dtype, rng):
    host = random_array((4, 7), dtype, rng)
    if np.dtype(dtype).kind in "fc" and name.startswith("nan"):
        host[1, 2] = np.nan
    for axis in (0, 1):
        mean = np.mean(host, axis=axis, keepdims=True)
        for ddof in (0, 1):
            got = getattr(cp, name)(cp.asarray(host), axis=axis, mean=cp.asarray(mean), ddof=ddof)
            ref = getattr(np, name)(host, axis=axis, mean=mean, ddof=ddof)
            assert got.dtype == ref.dtype
            tol = 2e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
            np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=tol)


def _check_long_masked(name, host, axis, mask):
    """A masked reduction of long rows against the exact (float64/complex128) result, within the
    error bound of cuarray's accumulation (float32 for float16/float32 input, a pairwise tree:
    eps_acc * log2(n) * sum|x|, plus one rounding to the result dtype). NumPy's masked float16 and
    float32 sums add sequentially in the input dtype and are less accurate than that, so NumPy
    gives the result dtype here, not the values."""
    ref_dtype = getattr(np, name)(host[:, :4], axis=axis, where=mask[:, :4]).dtype
    wide = host.astype(np.complex128 if host.dtype.kind == "c" else np.float64)
    exact = getattr(np, name)(wide, axis=axis, where=mask)
    got = getattr(cp, name)(cp.asarray(host), axis=axis, where=cp.asarray(mask))
    assert got.dtype == ref_dtype
    eps_out = np.finfo(ref_dtype).eps
    eps_acc = np.finfo(np.float64).eps if eps_out < 1e-10 else np.finfo(np.float32).eps
    count = mask.sum(axis=axis)
    log_n = np.log2(max(int(np.max(count)), 2))
    if name == "var":
        bound = (eps_out + 4 * eps_acc * log_n) * np.abs(exact)
    else:
        bound = eps_out * np.abs(exact) + eps_acc * log_n * np.sum(np.abs(wide), axis=axis, where=mask) / (
            count if name == "mean" else 1)
    error = np.abs(cp.asnumpy(got).astype(wide.dtype) - exact)
    assert np.all(error <= bound), (name, cp.asnumpy(got), exact, bound)


@pytest.mark.parametrize("dtype", INEXACT)
def test_long_masked_rows(dtype, rng):
    """Masked reductions along long rows go through the split (two-pass) plan."""
    host = random_array((2, 300000), dtype, rng, low=-2, high=2)
    mask = rng.random((2, 300000)) < 0.7
    for name in ("sum", "mean", "var"):
        _check_long_masked(name, host, 1, mask)
        _check_long_masked(name, host, None, mask)
