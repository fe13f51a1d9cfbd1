"""Ufuncs on every memory layout: non-contiguous, negative strides, stride-0 broadcast, 0-d, size-0,
mixed layouts, misaligned views and sizes that are not a multiple of the vector width."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (LAYOUTS, SHAPED_LAYOUTS, assert_array_equal_np, check_like_numpy, layout_pair,
                     random_array)
from ufunc_domains import compare_ufunc, domain

pytestmark = pytest.mark.gpu

LAYOUT_UFUNCS = ["negative", "sin", "sqrt", "add", "multiply", "maximum", "less", "arctan2",
                 "bitwise_xor", "divmod", "isnan"]
LAYOUT_DTYPES = [np.dtype(d) for d in (np.int8, np.int32, np.float16, np.float32, np.float64,
                                       np.complex128, np.bool_)]


def _pair(name, i, layout, shape, dtype, rng):
    return layout_pair(layout, shape, dtype, rng, **domain(name, i).kwargs(dtype))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", LAYOUT_DTYPES)
@pytest.mark.parametrize("name", LAYOUT_UFUNCS)
def test_same_layout_operands(name, dtype, layout, rng):
    nin = getattr(np, name).nin
    pairs = [_pair(name, i, layout, (3, 4, 5), dtype, rng) for i in range(nin)]
    host, dev = [p[0] for p in pairs], [p[1] for p in pairs]
    check_like_numpy(lambda: getattr(np, name)(*host), lambda: getattr(cp, name)(*dev),
                     compare=compare_ufunc(name, (dtype,) * nin))


@pytest.mark.parametrize("right", SHAPED_LAYOUTS)
@pytest.mark.parametrize("left", SHAPED_LAYOUTS)
@pytest.mark.parametrize("name", ["subtract", "arctan2"])
def test_mixed_layout_operands(name, left, right, rng):
    a_np, a_cp = layout_pair(left, (4, 3, 6), np.float64, rng)
    b_np, b_cp = layout_pair(right, (4, 3, 6), np.float32, rng)
    check_like_numpy(lambda: getattr(np, name)(a_np, b_np), lambda: getattr(cp, name)(a_cp, b_cp),
                     compare=compare_ufunc(name, (a_np.dtype, b_np.dtype)))


@pytest.mark.parametrize("layout", ["c", "f", "transposed", "stepped", "negative"])
def test_out_in_every_layout(layout, rng):
    a_np, a_cp = layout_pair("stepped", (3, 4, 5), np.float32, rng)
    o_np, o_cp = layout_pair(layout, (3, 4, 5), np.float32, rng)
    np.sin(a_np, out=o_np)
    cp.sin(a_cp, out=o_cp)
    compare_ufunc("sin", (np.float32,))(o_cp, o_np)


BROADCAST_SHAPES = [((3, 4), (4,)), ((3, 1), (1, 4)), ((2, 1, 5), (3, 1)), ((1,), (7,)),
                    ((), (3, 2)), ((0, 3), (3,)), ((4, 0), (1, 1)), ((2, 3, 4, 5), (5,)),
                    ((1, 1, 1), (2, 1, 3))]


@pytest.mark.parametrize("shapes", BROADCAST_SHAPES, ids=repr)
@pytest.mark.parametrize("name", ["add", "less", "power", "logaddexp"])
def test_broadcasting(name, shapes, rng):
    dt = np.dtype(np.float32)
    host = [random_array(s, dt, rng, **domain(name, i).kwargs(dt)) for i, s in enumerate(shapes)]
    for args in (host, host[::-1]):
        dev = [cp.asarray(h) for h in args]
        check_like_numpy(lambda: getattr(np, name)(*args), lambda: getattr(cp, name)(*dev),
                         compare=compare_ufunc(name, (dt, dt)))


@pytest.mark.parametrize("offset", [0, 1, 3])
@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int8, np.float16, np.float32,
                                                         np.float64, np.complex64)])
def test_large_and_misaligned(dtype, offset, rng):
    """Sizes past 2**20 that are not a multiple of any vector width, starting at element offsets
    that break 16-byte alignment."""
    n = (1 << 20) + 37
    a = random_array(n + offset, dtype, rng)
    b = random_array(n + 2 * offset, dtype, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    assert_array_equal_np(cp.add(ga[offset:], gb[2 * offset:]), np.add(a[offset:], b[2 * offset:]))
    assert_array_equal_np(cp.negative(ga[offset:]), np.negative(a[offset:]))
    out_np = np.zeros(n + offset, dtype)
    out_cp = cp.zeros(n + offset, dtype=dtype)
    np.multiply(a[offset:], b[:n], out=out_np[offset:])
    cp.multiply(ga[offset:], gb[:n], out=out_cp[offset:])
    compare_ufunc("multiply", (dtype,))(out_cp, out_np)


def test_index_math_beyond_int32(rng):
    """A strided view whose byte offsets pass 2**31 (64-bit index path)."""
    n = (1 << 28) + 3  # 2**28 float32 elements viewed with step 3 -> offsets beyond 2**31 bytes
    base = cp.zeros(3 * n, dtype=np.float32)
    view = base[::3]
    view[...] = 1.5
    view += cp.float32(2.0)
    tail = cp.asnumpy(base[-9:])
    expected = np.zeros(9, np.float32)
    expected[(3 * n - 9) % 3::3] = 3.5
    np.testing.assert_array_equal(tail, expected)
    assert float(view[-1]) == 3.5 and float(base[-2]) == 0.0
