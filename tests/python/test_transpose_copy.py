"""Copies between layouts whose fastest dims differ, which run as the tiled transpose copy
(src/ops/engines/copy/transpose_copy.cpp, docs/manipulation_copy.md): ascontiguousarray / asfortranarray /
copy(order=) / astype(order=) / setitem of transposed, permuted, sliced and negatively strided
views, against NumPy. Every dtype (raw words of 1-16 bytes, so -0.0 and NaN payloads must
survive), ranks 2-4, sizes that do not fill tiles (33 x 65), batch dims, size 0, and casts."""
import itertools
import warnings

import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, assert_array_equal_np, random_array

pytestmark = pytest.mark.gpu


def pair(shape, dtype, rng, view, **kwargs):
    """(numpy view, cuarray view) of the same random data."""
    base = random_array(shape, dtype, rng, special=True, **kwargs)
    return view(base, np), view(cp.asarray(base), cp)


def check_layout(got, ref):
    assert_array_equal_np(got, ref, signed_zeros=True)
    assert got.flags.c_contiguous == ref.flags.c_contiguous
    assert got.flags.f_contiguous == ref.flags.f_contiguous


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(33, 65), (64, 64), (17, 130), (3, 5), (1, 40), (40, 1)])
def test_ascontiguousarray_of_transpose(dtype, shape, rng):
    a, d = pair(shape, dtype, rng, lambda x, xp: x.T)
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
    check_layout(d.copy(order="C"), a.copy(order="C"))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_asfortranarray_and_copy_orders(dtype, rng):
    a, d = pair((45, 70), dtype, rng, lambda x, xp: x)
    check_layout(cp.asfortranarray(d), np.asfortranarray(a))
    check_layout(d.copy(order="F"), a.copy(order="F"))
    check_layout(cp.copy(d.T, order="C"), np.copy(a.T, order="C"))
    check_layout(cp.array(d.T, order="C"), np.array(a.T, order="C"))
    check_layout(d.T.copy(order="K"), a.T.copy(order="K"))
    check_layout(d.T.copy(order="A"), a.T.copy(order="A"))


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("bool", "uint8", "float16", "float32", "float64", "complex128")],
                         ids=str)
@pytest.mark.parametrize("perm", list(itertools.permutations(range(3))), ids=str)
def test_rank3_permutations(dtype, perm, rng):
    a, d = pair((5, 33, 40), dtype, rng, lambda x, xp: x.transpose(perm))
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
    check_layout(cp.asfortranarray(d), np.asfortranarray(a))


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int8", "int16", "float32", "float64", "complex64")], ids=str)
@pytest.mark.parametrize("perm", [(3, 2, 1, 0), (0, 3, 1, 2), (1, 0, 3, 2), (2, 0, 3, 1), (0, 1, 3, 2)], ids=str)
def test_rank4_batch_dims(dtype, perm, rng):
    a, d = pair((4, 17, 3, 20), dtype, rng, lambda x, xp: x.transpose(perm))
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
    check_layout(cp.asfortranarray(d), np.asfortranarray(a))


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("uint16", "int32", "float64", "complex128")], ids=str)
@pytest.mark.parametrize("view", [
    lambda x, xp: x[::-1].T,
    lambda x, xp: x[:, ::-1].T,
    lambda x, xp: x[::-1, ::-2].T,
    lambda x, xp: x.T[3:40:2, 1:],
    lambda x, xp: x.T[::-1, 5:-3],
    lambda x, xp: x[1::3, 2:].T,
    lambda x, xp: x.T[:, :, None][:, :, 0],
    lambda x, xp: xp.broadcast_to(x[:, :1], (70, 50)).T,
    lambda x, xp: xp.broadcast_to(x[:1].T, (50, 70)),
], ids=["rows-reversed", "cols-reversed", "both-negative-stepped", "slice-of-T", "reversed-slice-of-T",
        "stepped-rows", "through-newaxis", "broadcast-column", "broadcast-row"])
def test_strided_and_negative_views(dtype, view, rng):
    a, d = pair((70, 50), dtype, rng, view)
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
    check_layout(cp.asfortranarray(d), np.asfortranarray(a))


@pytest.mark.parametrize("shape", [(0, 40), (40, 0), (40, 0, 20), (0, 17, 33)])
def test_size_zero(shape, rng):
    a, d = pair(shape, np.float32, rng, lambda x, xp: x.T)
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
    check_layout(d.copy(order="C"), a.copy(order="C"))


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int8", "float32", "complex128")], ids=str)
def test_setitem_of_transpose(dtype, rng):
    a, d = pair((66, 40), dtype, rng, lambda x, xp: x)
    ref = np.zeros((40, 132), dtype)
    got = cp.zeros((40, 132), dtype)
    ref[:, ::2] = a.T
    got[:, ::2] = d.T
    assert_array_equal_np(got, ref, signed_zeros=True)
    ref = np.zeros((3, 40, 66), dtype)
    got = cp.zeros((3, 40, 66), dtype)
    ref[1] = a.T
    got[1] = d.T
    ref[2, ::-1] = a[::-1].T
    got[2, ::-1] = d[::-1].T
    assert_array_equal_np(got, ref, signed_zeros=True)


CASTS = ([(t, np.dtype(np.float64)) for t in ALL_DTYPES] + [(np.dtype(np.float64), t) for t in ALL_DTYPES]
         + [(np.dtype(a), np.dtype(b)) for a, b in [("float16", "float32"), ("complex128", "complex64"),
                                                    ("int64", "int8"), ("uint32", "int16"), ("bool", "float32"),
                                                    ("float32", "bool"), ("complex64", "bool"),
                                                    ("int16", "complex128"), ("float32", "float16")]])


@pytest.mark.parametrize("src,dst", CASTS, ids=[f"{a}->{b}" for a, b in CASTS])
def test_astype_of_transpose(src, dst, rng):
    # Values every cast maps the same way (no NaN or out-of-range into integers, no negatives into
    # unsigned types: C leaves those undefined).
    lossy = src.kind in "fc" and dst.kind in "iu"
    low, high = (0, 100) if lossy or dst.kind == "u" else (None, None)
    base = random_array((33, 65), src, rng, low=low, high=high, special=not lossy and dst.kind not in "iub")
    a, d = base.T, cp.asarray(base).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            ref_c, ref_f = a.astype(dst, order="C"), base.astype(dst, order="F").T
        got_c, got_f = d.astype(dst, order="C"), cp.asarray(base).astype(dst, order="F").T
    check_layout(got_c, ref_c)
    check_layout(got_f, ref_f)


def test_long_rows_and_many_tiles(rng):
    # Several thousand tiles, partial tiles on both edges, and 64-row batches.
    a, d = pair((1000, 1001), np.float32, rng, lambda x, xp: x.T)
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
    a, d = pair((64, 31, 257), np.float64, rng, lambda x, xp: x.transpose(0, 2, 1))
    check_layout(cp.ascontiguousarray(d), np.ascontiguousarray(a))
