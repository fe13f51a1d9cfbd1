"""nonzero, flatnonzero, argwhere, where(condition), extract and compress against NumPy: every dtype
as the predicate (NaN nonzero, -0.0 zero, complex with one nonzero part), densities from all false
to all true, every layout, ranks 0-4, sizes across the compaction's 2048-element tiles, and NumPy's
errors. The compaction engine is src/ops/engines/select/select.cpp (docs/select.md)."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp

from helpers import (ALL_DTYPES, LAYOUTS, assert_array_equal_np, assert_raises_like, assert_same_results,
                     check_like_numpy, layout_pair, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu

DENSITIES = (0.0, 0.02, 0.5, 1.0)
TILE = 2048  # elements per compaction tile (src/ops/engines/select/select.cpp)


def with_zeros(a, rng, density):
    """`a` with about 1 - density of its elements set to zero (-0.0 for half of the float ones)."""
    a = np.array(a)
    if a.size == 0:
        return a
    drop = rng.random(a.shape) >= density
    zero = np.zeros((), a.dtype)
    out = np.where(drop, zero, a)
    if a.dtype.kind == "f":
        out = np.where(drop & (rng.random(a.shape) < 0.5), -zero, out)
    if density == 1.0 and a.dtype.kind != "b":
        out = np.where(out == 0, np.ones((), a.dtype), out)  # all nonzero
    if density == 1.0 and a.dtype.kind == "b":
        out = np.ones(a.shape, bool)
    return out


def predicate_pair(layout, shape, dtype, rng, density):
    return layout_pair(layout, shape, make=lambda s: with_zeros(
        random_array(s, dtype, rng, special=np.dtype(dtype).kind in "fc"), rng, density))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_nonzero_family_every_dtype_layout_and_density(dtype, rng):
    for layout in LAYOUTS:
        for density in DENSITIES:
            h, d = predicate_pair(layout, (4, 5, 3), dtype, rng, density)
            if h.ndim:
                assert_same_results(cp.nonzero(d), np.nonzero(h))
                assert_same_results(d.nonzero(), h.nonzero())
                assert_same_results(cp.where(d), np.where(h))
            assert_array_equal_np(cp.flatnonzero(d), np.flatnonzero(h))
            assert_array_equal_np(cp.argwhere(d), np.argwhere(h))


@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 4), (2, 3, 4), (2, 3, 1, 5), (0,), (3, 0, 2)])
def test_nonzero_ranks_and_empty(shape, rng):
    h = with_zeros(random_array(shape, np.float32, rng), rng, 0.5)
    d = cp.asarray(h)
    check_like_numpy(lambda: np.argwhere(h), lambda: cp.argwhere(d))
    check_like_numpy(lambda: np.flatnonzero(h), lambda: cp.flatnonzero(d))
    ref, exc = numpy_outcome(lambda: np.nonzero(h))
    if exc is not None:
        assert_raises_like(exc, lambda: cp.nonzero(d))  # 0-d: ValueError
    else:
        assert_same_results(cp.nonzero(d), ref)


@pytest.mark.parametrize("n", [1, TILE - 1, TILE, TILE + 1, 3 * TILE + 17, 100_003])
def test_tile_boundaries(n, rng):
    for density in DENSITIES:
        h = with_zeros(random_array((n,), np.int16, rng), rng, density)
        d = cp.asarray(h)
        assert_array_equal_np(cp.flatnonzero(d), np.flatnonzero(h))
        assert_array_equal_np(d[d != 0], h[h != 0])
        # strided input: the same selection through a step
        assert_array_equal_np(cp.flatnonzero(d[::3]), np.flatnonzero(h[::3]))


def test_long_row_is_stable_and_exact(rng):
    h = rng.random(3_000_000).astype(np.float32)
    d = cp.asarray(h)
    assert_array_equal_np(d[d > 0.5], h[h > 0.5])
    assert_array_equal_np(cp.flatnonzero(d > 0.999), np.flatnonzero(h > 0.999))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_extract_every_dtype(dtype, rng):
    for layout in ("c", "transposed", "stepped", "negative", "empty"):
        hv, dv = layout_pair(layout, (3, 4, 5), dtype, rng, special=True)
        hc, dc = predicate_pair(layout, (3, 4, 5), np.int8, rng, 0.5)
        assert_array_equal_np(cp.extract(dc, dv), np.extract(hc, hv))
    # condition of another shape: compared through ravel; shorter, longer with False, longer with True
    h = random_array((12,), dtype, rng)
    d = cp.asarray(h)
    for cond in ([1, 0, 1], [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 0, 1]], [0] * 12 + [0, 0], [0] * 12 + [1]):
        hc = np.array(cond)
        check_like_numpy(lambda: np.extract(hc, h), lambda: cp.extract(cp.asarray(hc), d))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_compress_every_dtype_and_axis(dtype, rng):
    h = random_array((4, 5, 6), dtype, rng, special=True)
    d = cp.asarray(h)
    for axis in (None, 0, 1, 2, -1, -3):
        n = h.size if axis is None else h.shape[axis]
        for density in DENSITIES:
            hc = with_zeros(random_array((n,), np.bool_, rng), rng, density)
            assert_array_equal_np(cp.compress(cp.asarray(hc), d, axis=axis), np.compress(hc, h, axis=axis))
            assert_array_equal_np(d.compress(cp.asarray(hc), axis), h.compress(hc, axis))
    # non-contiguous input, a shorter condition, a list condition, non-bool condition
    ht, dt = h.transpose(2, 0, 1)[:, ::2], d.transpose(2, 0, 1)[:, ::2]
    assert_array_equal_np(cp.compress([True, False, True], dt, axis=2), np.compress([True, False, True], ht, axis=2))
    hc = np.array([0, 3, 0, -1, 2, 0])
    assert_array_equal_np(cp.compress(cp.asarray(hc), dt, axis=0), np.compress(hc, ht, axis=0))


def test_compress_errors_and_out(rng):
    h = random_array((3, 4), np.float64, rng)
    d = cp.asarray(h)
    for cond, axis in (([True, False, True, True], 0), ([[True]], 0), ([True], 2), ([True, False], -3)):
        check_like_numpy(lambda: np.compress(cond, h, axis=axis), lambda: cp.compress(cond, d, axis=axis))
    check_like_numpy(lambda: np.compress([True, False, True, False], h, axis=0),
                     lambda: cp.compress([True, False, True, False], d, axis=0))
    out = cp.empty((2, 4))
    r = cp.compress([True, False, True], d, axis=0, out=out)
    assert r is out
    assert_array_equal_np(out, np.compress([True, False, True], h, axis=0))


def test_where_one_argument_errors():
    with pytest.raises(ValueError, match="0d"):
        cp.where(cp.asarray(1.0))
    assert_same_results(cp.where(cp.asarray([[0, 2], [3, 0]])), np.where(np.array([[0, 2], [3, 0]])))


@given(shape=st.lists(st.integers(0, 5), min_size=1, max_size=4), seed=st.integers(0, 2**32 - 1),
       density=st.sampled_from(DENSITIES))
def test_hypothesis_nonzero_shapes(shape, seed, density):
    rng = np.random.default_rng(seed)
    h = with_zeros(random_array(tuple(shape), np.uint8, rng), rng, density)
    d = cp.asarray(h)
    assert_same_results(cp.nonzero(d), np.nonzero(h))
    assert_array_equal_np(cp.argwhere(d.T), np.argwhere(h.T))
