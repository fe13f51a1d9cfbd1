"""ndarray attributes: shape/strides/flags/... equal NumPy's for the same layout; T, mT, real, imag,
base and data.ptr behave like views of the same memory."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, COMPLEX, FLOAT, INT, LAYOUTS, assert_array_equal_np,
                     check_like_numpy, layout_pair, random_array)

pytestmark = pytest.mark.gpu

SOME_DTYPES = [np.dtype(d) for d in (np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                     np.float32, np.complex128)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_metadata_matches_numpy(dtype, layout, rng):
    ref, got = layout_pair(layout, (3, 4, 5), dtype, rng)
    assert type(got) is cp.ndarray
    assert got.shape == ref.shape and isinstance(got.shape, tuple)
    assert got.ndim == ref.ndim
    assert got.size == ref.size
    assert got.itemsize == ref.itemsize
    assert got.nbytes == ref.nbytes
    assert got.dtype == ref.dtype
    if ref.size:  # strides of an array without elements carry no information
        assert got.strides == ref.strides
    assert got.flags.c_contiguous == ref.flags.c_contiguous
    assert got.flags.f_contiguous == ref.flags.f_contiguous
    assert got.flags.owndata == ref.flags.owndata
    assert got.device.id == 0


def test_fresh_array_owns_its_data(rng):
    g = cp.asarray(random_array((4, 5), np.float32, rng))
    assert g.flags.owndata and g.base is None
    assert not g[1:].flags.owndata


@pytest.mark.parametrize("layout", ["c", "f", "transposed", "stepped", "negative", "0d", "empty"])
def test_transposes(layout, rng):
    ref, got = layout_pair(layout, (2, 3, 4), np.int32, rng)
    assert_array_equal_np(got.T, ref.T)
    if ref.size:
        assert got.T.strides == ref.T.strides
    check_like_numpy(lambda: ref.mT, lambda: got.mT)
    if ref.ndim >= 2 and ref.size:
        assert got.mT.strides == ref.mT.strides


def test_transpose_is_a_view(rng):
    host = random_array((3, 4), np.float64, rng)
    g = cp.asarray(host)
    t = g.T
    assert t.base is g and t.data.ptr == g.data.ptr
    t[1, 2] = -1.0
    host.T[1, 2] = -1.0
    assert_array_equal_np(g, host)


@pytest.mark.parametrize("layout", ["c", "f", "stepped", "negative", "0d", "empty"])
@pytest.mark.parametrize("dtype", COMPLEX + FLOAT + INT[:1])
def test_real_imag_values(dtype, layout, rng):
    ref, got = layout_pair(layout, (3, 4), dtype, rng)
    for part in ("real", "imag"):
        r, g = getattr(ref, part), getattr(got, part)
        assert_array_equal_np(g, r)
        if ref.dtype.kind == "c" and r.size:
            assert g.strides == r.strides


@pytest.mark.parametrize("dtype", COMPLEX)
def test_real_imag_are_writable_views(dtype, rng):
    host = random_array((3, 4), dtype, rng)
    g = cp.asarray(host)
    assert g.real.data.ptr == g.data.ptr
    assert g.imag.data.ptr == g.data.ptr + g.itemsize // 2
    g.real[0] = 5.0
    host.real[0] = 5.0
    g.imag[:, 1] = -2.0
    host.imag[:, 1] = -2.0
    assert_array_equal_np(g, host)


def test_setting_real_and_imag_attributes(rng):
    host = random_array((5,), np.complex64, rng)
    g = cp.asarray(host)
    vals = random_array((5,), np.float32, rng)
    g.imag = cp.asarray(vals)
    host.imag = vals
    g.real = 1.5
    host.real = 1.5
    assert_array_equal_np(g, host)


def test_real_of_real_array_is_the_data(rng):
    host = random_array((6,), np.float32, rng)
    g = cp.asarray(host)
    assert g.real.data.ptr == g.data.ptr
    g.real[2] = 7.0
    host.real[2] = 7.0
    assert_array_equal_np(g, host)


def test_base_chain_points_to_owner(rng):
    g = cp.asarray(random_array((6, 8), np.int16, rng))
    v1 = g[1:]
    v2 = v1[:, ::2]
    v3 = v2.T
    assert v1.base is g and v2.base is g and v3.base is g
    assert g.reshape(8, 6).base is g


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_data_ptr_offsets(dtype, rng):
    host = random_array((6, 8), dtype, rng)
    g = cp.asarray(host)
    ptr = g.data.ptr
    assert ptr != 0
    it = g.itemsize
    assert g[2:].data.ptr == ptr + 2 * 8 * it
    assert g[1:, 3:].data.ptr == ptr + (1 * 8 + 3) * it
    assert g[:, ::-1].data.ptr == ptr + 7 * it
    assert g[::-2, 5].data.ptr == ptr + (5 * 8 + 5) * it
    assert g[3].data.ptr == ptr + 3 * 8 * it
    assert g[2:][1:].data.ptr == ptr + 3 * 8 * it
