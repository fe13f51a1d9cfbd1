"""The out=, where=, dtype= and casting= parameters of every ufunc, against NumPy."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (UFUNC_NAMES, assert_array_equal_np, check_like_numpy, numpy_outcome,
                     random_array)
from ufunc_domains import compare_ufunc, inputs, primary_dtypes

pytestmark = pytest.mark.gpu

SHAPE = (4, 9)


def _setup(name, rng, shape=SHAPE):
    dtypes = primary_dtypes(name)
    host = inputs(name, dtypes, shape, rng)
    ref, exc = numpy_outcome(lambda: getattr(np, name)(*host))
    assert exc is None, exc
    refs = ref if isinstance(ref, tuple) else (ref,)
    return dtypes, host, [cp.asarray(h) for h in host], refs


def _random_outs(refs, rng, shape=None):
    hosts = [random_array(shape or r.shape, r.dtype, rng) for r in refs]
    return hosts, [cp.asarray(h) for h in hosts]


def _out_arg(outs):
    return outs[0] if len(outs) == 1 else tuple(outs)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_out(name, rng):
    dtypes, host, dev, refs = _setup(name, rng)
    compare = compare_ufunc(name, dtypes)
    uf = getattr(cp, name)
    for spelling in ("keyword", "tuple", "positional"):
        outs = [cp.empty(r.shape, dtype=r.dtype) for r in refs]
        if spelling == "keyword":
            res = uf(*dev, out=_out_arg(outs))
        elif spelling == "tuple":
            res = uf(*dev, out=tuple(outs))
        else:
            res = uf(*dev, *outs)
        res = res if isinstance(res, tuple) else (res,)
        assert len(res) == len(refs)
        for r, o, ref in zip(res, outs, refs):
            assert r is o, f"{spelling} out=: the result must be the out array itself"
            compare(o, ref)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_out_non_contiguous(name, rng):
    """A strided out view receives the results; the elements between stay untouched."""
    dtypes, host, dev, refs = _setup(name, rng)
    compare = compare_ufunc(name, dtypes)
    base_hosts, base_devs = _random_outs(refs, rng, shape=(SHAPE[0], 2 * SHAPE[1]))
    getattr(cp, name)(*dev, out=_out_arg([b[:, ::-2] for b in base_devs]))
    for base_host, base_dev, ref in zip(base_hosts, base_devs, refs):
        expected = base_host.copy()
        expected[:, ::-2] = ref
        compare(base_dev, expected)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_where(name, rng):
    dtypes, host, dev, refs = _setup(name, rng)
    compare = compare_ufunc(name, dtypes)
    np_uf, cp_uf = getattr(np, name), getattr(cp, name)
    masks = [random_array(SHAPE, np.bool_, rng), random_array(SHAPE[1:], np.bool_, rng), False, True]
    for mask in masks:
        out_hosts, out_devs = _random_outs(refs, rng)
        cp_mask = cp.asarray(mask) if isinstance(mask, np.ndarray) else mask
        with np.errstate(all="ignore"):
            np_uf(*host, out=_out_arg(out_hosts), where=mask)
        res = cp_uf(*dev, out=_out_arg(out_devs), where=cp_mask)
        res = res if isinstance(res, tuple) else (res,)
        for r, o, expected in zip(res, out_devs, out_hosts):
            assert r is o
            compare(o, expected)


@pytest.mark.parametrize("name", ["add", "sin", "divmod", "less", "maximum"])
def test_where_without_out(name, rng):
    """Without out=, only the selected elements are defined."""
    dtypes, host, dev, refs = _setup(name, rng)
    mask = random_array(SHAPE, np.bool_, rng)
    res = getattr(cp, name)(*dev, where=cp.asarray(mask))
    res = res if isinstance(res, tuple) else (res,)
    for r, ref in zip(res, refs):
        assert type(r) is cp.ndarray and r.dtype == ref.dtype and r.shape == ref.shape
        np.testing.assert_allclose(cp.asnumpy(r)[mask], ref[mask], rtol=1e-13)


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.float32, np.float64, np.int64,
                                                         np.complex128, np.bool_)])
@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_dtype_argument(name, dtype, rng):
    in_dt = np.dtype(np.int16)
    nin = getattr(np, name).nin
    host = inputs(name, (in_dt,) * nin, SHAPE, rng)
    dev = [cp.asarray(h) for h in host]
    check_like_numpy(lambda: getattr(np, name)(*host, dtype=dtype),
                     lambda: getattr(cp, name)(*dev, dtype=dtype),
                     compare=compare_ufunc(name, (dtype,)))


_NARROWER = {"f": np.float32, "c": np.complex64, "i": np.int32, "u": np.uint32, "b": np.int8}


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_casting_to_out(name, casting, rng):
    """out= of a narrower dtype: allowed by same_kind/unsafe (for bool results: safe too)."""
    dtypes, host, dev, refs = _setup(name, rng)
    out_dtypes = [np.dtype(_NARROWER[r.dtype.kind]) for r in refs]
    np_outs = [np.zeros(SHAPE, dt) for dt in out_dtypes]
    cp_outs = [cp.zeros(SHAPE, dtype=dt) for dt in out_dtypes]

    def run(uf, args, outs):
        uf(*args, out=_out_arg(outs), casting=casting)
        return tuple(outs) if len(outs) > 1 else outs[0]

    check_like_numpy(lambda: run(getattr(np, name), host, np_outs),
                     lambda: run(getattr(cp, name), dev, cp_outs),
                     compare=compare_ufunc(name, dtypes))


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_casting_of_inputs(casting, rng):
    a = random_array(SHAPE, np.float64, rng)
    b = random_array(SHAPE, np.int64, rng, low=-1000, high=1000)
    ga, gb = cp.asarray(a), cp.asarray(b)
    for dtype in (np.float32, np.float64, np.int32, np.complex64):
        check_like_numpy(lambda: np.add(a, b, dtype=dtype, casting=casting),
                         lambda: cp.add(ga, gb, dtype=dtype, casting=casting))
        check_like_numpy(lambda: np.multiply(a, a, dtype=dtype, casting=casting),
                         lambda: cp.multiply(ga, ga, dtype=dtype, casting=casting))


def test_unsafe_cast_of_float_result_to_int_out(rng):
    a = random_array(SHAPE, np.float64, rng, low=-100, high=100)
    b = random_array(SHAPE, np.float32, rng, low=-100, high=100)
    for out_dtype in (np.int32, np.int8, np.int64):
        ref = np.zeros(SHAPE, out_dtype)
        np.add(a, b, out=ref, casting="unsafe")
        got = cp.zeros(SHAPE, dtype=out_dtype)
        cp.add(cp.asarray(a), cp.asarray(b), out=got, casting="unsafe")
        assert_array_equal_np(got, ref)


def test_out_errors(rng):
    a = random_array(SHAPE, np.float32, rng)
    g = cp.asarray(a)
    check_like_numpy(lambda: np.add(a, a, out=np.empty((3,), np.float32)),
                     lambda: cp.add(g, g, out=cp.empty((3,), dtype=np.float32)))
    check_like_numpy(lambda: np.add(a, a, out=np.empty(SHAPE[::-1], np.float32)),
                     lambda: cp.add(g, g, out=cp.empty(SHAPE[::-1], dtype=np.float32)))
    check_like_numpy(lambda: np.add(a, a, out=(np.empty(SHAPE), np.empty(SHAPE))),
                     lambda: cp.add(g, g, out=(cp.empty(SHAPE), cp.empty(SHAPE))))
    check_like_numpy(lambda: np.add(a, a, out=np.empty(SHAPE, np.int32)),
                     lambda: cp.add(g, g, out=cp.empty(SHAPE, dtype=np.int32)))


def test_out_broadcasts_inputs(rng):
    a = random_array((9,), np.float64, rng)
    b = random_array((4, 1), np.float64, rng)
    ref = np.empty(SHAPE)
    np.multiply(a, b, out=ref)
    got = cp.empty(SHAPE)
    cp.multiply(cp.asarray(a), cp.asarray(b), out=got)
    assert_array_equal_np(got, ref)


def test_out_aliasing_an_input(rng):
    a = random_array(SHAPE, np.float64, rng)
    b = random_array(SHAPE, np.float64, rng)
    ga, gb = cp.asarray(a), cp.asarray(b)
    np.subtract(a, b, out=a)
    cp.subtract(ga, gb, out=ga)
    assert_array_equal_np(ga, a)
    # out overlapping an input in a shifted way: NumPy makes it behave as if inputs were copied
    np.add(a[1:], a[:-1], out=a[:-1])
    cp.add(ga[1:], ga[:-1], out=ga[:-1])
    assert_array_equal_np(ga, a)
