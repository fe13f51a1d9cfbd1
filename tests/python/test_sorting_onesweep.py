"""The device-wide (Onesweep) radix passes against NumPy's stable sort: sizes on and around tile
boundaries (one tile is 256 threads x radix_tile_items elements), sizes that take many tiles and
long look-back chains, duplicate-heavy keys (argsort must keep equal keys in input order), NaN,
+-inf and -0.0, every dtype, 1 to 3 running passes (the 32-bit index payload is widened by the
last pass; the finish kernel covers the case where no pass runs), and several long rows sorted as
one (the row number as the top digits, flat indices turned into row indices by the last pass).
Rows of up to 2048 elements take the one-block sort; every size here is longer.
"""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, assert_allclose_np, assert_array_equal_np, random_array

pytestmark = pytest.mark.gpu

BLOCK_SORT_LIMIT = 2048


def tile_elements(dtype, with_index):
    """One pass tile: 256 threads x sort.cpp's radix_tile_items(dtype, with_index)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        items = (8 if with_index else 10) if dtype.itemsize == 8 else 4
    else:
        items = {4: (16, 24), 8: (10, 12)}.get(dtype.itemsize, (16, 16))[0 if with_index else 1]
    return 256 * items


def tile_sizes(dtype):
    """Sizes around one, two and three tiles of both the sort (values) and the argsort (index)."""
    sizes = {tile_elements(dtype, w) * k + d for w in (False, True) for k in (1, 2, 3) for d in (-1, 0, 1)}
    return sorted(s for s in sizes if s > BLOCK_SORT_LIMIT)


def dup_data(n, dtype, rng):
    """Few distinct values (long runs of equal keys): ints in a small range, floats rounded to
    halves with NaN, +-inf, -0.0 and 0.0 mixed in (complex: in either part)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        return random_array((n,), dtype, rng, low=-5, high=5)
    if dtype.kind == "u":
        return random_array((n,), dtype, rng, low=0, high=7)
    if dtype.kind in "fc":
        x = random_array((n,), dtype, rng, low=-3, high=3, ties=True, special=True)
        return np.where(rng.random(n) < 0.5, np.round(x), x).astype(dtype)
    return random_array((n,), dtype, rng)


def wide_data(shape, dtype, rng):
    """Values over the dtype's whole range: every key byte varies, every pass runs."""
    dtype = np.dtype(dtype)
    return random_array(shape, dtype, rng, special=dtype.kind in "fc")


def check_sort(x, axis=-1):
    d = cp.asarray(x)
    assert_array_equal_np(cp.sort(d, axis=axis), np.sort(x, axis=axis, kind="stable"), signed_zeros=True)
    assert_array_equal_np(cp.argsort(d, axis=axis), np.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tile_boundaries(dtype, rng):
    for n in tile_sizes(dtype):
        check_sort(dup_data(n, dtype, rng))
        check_sort(wide_data((n,), dtype, rng))


@pytest.mark.parametrize("dtype", ["float32", "int64", "float16", "complex64", "uint8", "bool"])
def test_many_tiles(dtype, rng):
    n = 2**20 + 7
    check_sort(dup_data(n, dtype, rng))
    check_sort(wide_data((n,), dtype, rng))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_three_million(dtype, rng):
    check_sort(wide_data((3_000_000,), dtype, rng))
    x = dup_data(3_000_000, dtype, rng)
    check_sort(x)
    assert_array_equal_np(cp.unique(cp.asarray(x)), np.unique(x))


def test_argsort_stable_among_equal_keys(rng):
    """Long runs of equal keys spread over every tile: the indices of each run must ascend."""
    for dtype in ("int8", "int32", "uint64", "float64", "complex128"):
        x = rng.integers(0, 3, 50_001).astype(dtype)
        got = cp.asnumpy(cp.argsort(cp.asarray(x)))
        np.testing.assert_array_equal(got, np.argsort(x, kind="stable"))
    x = np.zeros(20_000, np.float32)
    x[rng.random(x.size) < 0.5] = -0.0  # -0.0 == 0.0: one run in input order, signs kept
    check_sort(x)


def test_running_pass_counts(rng):
    """Constant key bytes skip their passes: 1, 2 and 3 passes run, and none (the finish kernel)."""
    cases = [
        rng.integers(0, 256, 9000).astype(np.int64),          # low byte only: one pass, input -> output
        rng.integers(0, 60000, 9000).astype(np.int32),        # two passes: slot 1 -> output
        rng.integers(0, 2**24, 9000).astype(np.uint32),       # three passes: slot 2 in between
        np.full(9000, 7, np.int16),                           # no pass
        np.full(9000, np.nan, np.float32),                    # every NaN is one key: no pass
    ]
    for x in cases:
        check_sort(x)


@pytest.mark.parametrize("dtype", ["float32", "int16", "float64", "complex64", "bool"])
def test_long_rows_share_one_sort(dtype, rng):
    """Several rows longer than the block sort: the row number is the most significant digit(s)
    (one byte up to 256 rows, two beyond), and the last pass turns flat into row indices."""
    tile = tile_elements(dtype, True)  # several rows: the row number travels in the index
    for shape in ((3, tile + 1), (2, 3 * tile - 1), (300, 2100)):
        check_sort(dup_data(shape[0] * shape[1], dtype, rng).reshape(shape))
        check_sort(wide_data(shape, dtype, rng))
    check_sort(wide_data((2 * tile + 5, 3), dtype, rng), axis=0)
    constant = np.zeros((4, 5000), dtype)  # only the row digit varies
    check_sort(constant)


def test_non_contiguous_long_input(rng):
    x = wide_data((2, 3 * tile_elements("float32", False) + 3), "float32", rng)
    check_sort(x[:, ::-1])
    check_sort(x[::-1, ::2].T, axis=0)
    check_sort(np.asfortranarray(x), axis=None)


def test_median_of_long_rows(rng):
    """The quantiles sort values only (no index requested) of several long rows."""
    x = wide_data((5, 6001), "float32", rng)
    x[1, 17] = np.nan
    for axis in (-1, None):
        assert_allclose_np(cp.median(cp.asarray(x), axis=axis), np.median(x, axis=axis))
