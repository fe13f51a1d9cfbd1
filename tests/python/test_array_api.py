"""The Array API standard (2025.12) on cuarray: the namespace and its inspection object, devices,
astype/isdtype, the standard's aliases and keywords, creation defaults, the special cases of
array_api_special_cases.py, and scikit-learn's array_api_dispatch path on cuarray arrays.

Host-only tests check names, signatures, the info object and the argument checks that come before
any GPU work; `gpu` tests compare results with NumPy and with the standard's values.
"""
import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp
from array_api_special_cases import CASES, NUMPY_DEVIATES, case_id, matches, numpy_expected, operands
from helpers import (ALL_DTYPES, FLOAT, INTEGER, NUMERIC, assert_allclose_np, assert_array_equal_np,
                     check_like_numpy, expect_error, random_array, run_python)

gpu = pytest.mark.gpu

# The standard's 2025.12 namespace (functions, constants, dtypes) and its extensions.
STANDARD_NAMES = """
e inf nan newaxis pi
arange asarray empty empty_like eye full full_like linspace meshgrid ones ones_like tril triu zeros zeros_like
astype can_cast finfo iinfo isdtype result_type
bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert bitwise_or
bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1 floor floor_divide greater
greater_equal hypot imag isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp logical_and
logical_not logical_or logical_xor maximum minimum multiply negative nextafter not_equal positive pow real
reciprocal remainder round sign signbit sin sinh square sqrt subtract tan tanh trunc
take take_along_axis matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll squeeze stack tile
unstack argmax argmin count_nonzero nonzero searchsorted where unique_all unique_counts unique_inverse
unique_values argsort sort cumulative_prod cumulative_sum max mean min prod std sum var all any diff
__array_namespace_info__ __array_api_version__
broadcast_shapes isin
""".split()
LINALG_NAMES = ("cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank "
                "matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm").split()
FFT_NAMES = "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift".split()

ALIASES = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
           "atan2": "arctan2", "atanh": "arctanh", "pow": "power", "bitwise_invert": "invert",
           "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift"}

# The standard's dtype kinds, spelled out (isdtype and info.dtypes are checked against this table).
KIND_MEMBERS = {
    "bool": {"bool"},
    "signed integer": {"int8", "int16", "int32", "int64"},
    "unsigned integer": {"uint8", "uint16", "uint32", "uint64"},
    "integral": {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"},
    "real floating": {"float16", "float32", "float64"},
    "complex floating": {"complex64", "complex128"},
    "numeric": {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
                "float64", "complex64", "complex128"},
}
STANDARD_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                   "float64", "complex64", "complex128"]
CREATION = ["arange", "asarray", "empty", "empty_like", "eye", "full", "full_like", "linspace", "ones", "ones_like",
            "zeros", "zeros_like"]


# ------------------------------------------------------------------------------------------------
# host: names, signatures, the info object, isdtype, argument checks

def test_namespace_has_every_standard_name():
    assert [n for n in STANDARD_NAMES if not hasattr(cp, n)] == []
    assert [n for n in LINALG_NAMES if not hasattr(cp.linalg, n)] == []
    assert [n for n in FFT_NAMES if not hasattr(cp.fft, n)] == []


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases_are_the_numpy_ufuncs(alias):
    assert getattr(cp, alias) is getattr(cp, ALIASES[alias])
    assert isinstance(getattr(cp, alias), cp.ufunc)
    assert getattr(cp, alias).__name__ == getattr(np, alias).__name__


def test_api_version():
    assert cp.__array_api_version__ == "2025.12"


@pytest.mark.parametrize("version", [None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"])
def test_array_namespace_versions(version):
    # The method reads no array state before the version check: callable on the type.
    assert cp.ndarray.__array_namespace__(None, api_version=version) is cp


@pytest.mark.parametrize("version", ["2020.10", "2024", "2026.12", 2024.12])
def test_array_namespace_rejects_unknown_versions(version):
    with pytest.raises(ValueError, match="not supported"):
        cp.ndarray.__array_namespace__(None, api_version=version)


def test_array_namespace_signature():
    params = inspect.signature(cp.ndarray.__array_namespace__).parameters
    assert params["api_version"].kind is inspect.Parameter.KEYWORD_ONLY
    params = inspect.signature(cp.ndarray.to_device).parameters
    assert list(params) == ["self", "device", "stream"]
    assert params["device"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert params["stream"].kind is inspect.Parameter.KEYWORD_ONLY


def test_info_capabilities_and_defaults():
    info = cp.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}
    assert info.default_device() == cp.cuda.Device(0)
    assert info.default_dtypes() == {"real floating": np.dtype("float64"), "complex floating": np.dtype("complex128"),
                                     "integral": np.dtype("int64"), "indexing": np.dtype("int64")}
    assert info.default_dtypes(device=cp.cuda.Device(0)) == info.default_dtypes()


def test_info_devices():
    devices = cp.__array_namespace_info__().devices()
    assert isinstance(devices, list)
    assert all(isinstance(d, cp.cuda.Device) for d in devices)
    assert [d.id for d in devices] == list(range(len(devices)))


def test_info_dtypes_all():
    dtypes = cp.__array_namespace_info__().dtypes()
    assert list(dtypes) == STANDARD_DTYPES
    assert all(dtypes[name] == np.dtype(name) for name in dtypes)


@pytest.mark.parametrize("kind", sorted(KIND_MEMBERS))
def test_info_dtypes_by_kind(kind):
    got = cp.__array_namespace_info__().dtypes(kind=kind)
    assert set(got) == KIND_MEMBERS[kind] - {"float16"}  # float16 is no standard dtype
    assert all(isinstance(v, np.dtype) and v == np.dtype(k) for k, v in got.items())


def test_info_dtypes_union_of_kinds():
    info = cp.__array_namespace_info__()
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    assert info.dtypes(kind=()) == {}


@pytest.mark.parametrize("kind", ["float", "integer", "real", 3])
def test_info_dtypes_bad_kind(kind):
    with pytest.raises(ValueError):
        cp.__array_namespace_info__().dtypes(kind=kind)


@pytest.mark.parametrize("device", ["cpu", "cuda", 0.0, "cuda:0", True])
def test_info_rejects_foreign_devices(device):
    info = cp.__array_namespace_info__()
    with pytest.raises(ValueError, match="Device not understood"):
        info.dtypes(device=device)
    with pytest.raises(ValueError, match="Device not understood"):
        info.default_dtypes(device=device)


@given(st.sampled_from(ALL_DTYPES), st.sampled_from(sorted(KIND_MEMBERS)))
def test_isdtype_kinds(dtype, kind):
    assert cp.isdtype(dtype, kind) == (dtype.name in KIND_MEMBERS[kind])


@given(st.sampled_from(ALL_DTYPES), st.lists(st.sampled_from(sorted(KIND_MEMBERS) + ALL_DTYPES), max_size=4))
def test_isdtype_tuples(dtype, kinds):
    def one(k):
        return dtype.name in KIND_MEMBERS[k] if isinstance(k, str) else dtype == k
    assert cp.isdtype(dtype, tuple(kinds)) == any(one(k) for k in kinds)


@pytest.mark.parametrize("args, exc", [((np.float32, "floating"), ValueError), ((np.float32, 3), TypeError),
                                       (("float32", "numeric"), TypeError), ((3, "numeric"), TypeError)])
def test_isdtype_errors(args, exc):
    expect_error(lambda: np.isdtype(*args), lambda: cp.isdtype(*args))
    with pytest.raises(exc):
        cp.isdtype(*args)


def test_astype_signature_and_checks():
    params = inspect.signature(cp.astype).parameters
    assert list(params) == ["x", "dtype", "copy", "device"]
    assert [params[n].kind for n in ("x", "dtype")] == [inspect.Parameter.POSITIONAL_ONLY] * 2
    assert params["copy"].default is True and params["device"].default is None
    with pytest.raises(TypeError, match="cuarray array"):
        cp.astype([1, 2], np.float32)
    with pytest.raises(TypeError, match="cuarray array"):
        cp.astype(np.ones(2), np.float32)


def _info_fields(info):
    return (info.dtype, info.bits, info.min, info.max) + ((info.eps, info.smallest_normal)
                                                         if isinstance(info, np.finfo) else ())


@pytest.mark.parametrize("dtype", FLOAT + INTEGER)
def test_finfo_iinfo_of_dtypes(dtype):
    info = cp.finfo if dtype.kind == "f" else cp.iinfo
    ref = _info_fields(np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype))
    assert _info_fields(info(dtype)) == ref and _info_fields(info(dtype.type)) == ref
    expect_error(lambda: np.finfo(np.int8), lambda: cp.finfo(np.int8))
    expect_error(lambda: np.iinfo(np.float32), lambda: cp.iinfo(np.float32))


@pytest.mark.parametrize("name", CREATION)
def test_creation_functions_take_device(name):
    param = inspect.signature(getattr(cp, name)).parameters["device"]
    assert param.kind is inspect.Parameter.KEYWORD_ONLY and param.default is None


@pytest.mark.parametrize("name, args", [("empty", (3,)), ("zeros", (3,)), ("ones", (3,)), ("full", (3, 1.5)),
                                        ("arange", (4,)), ("linspace", (0, 1, 5)), ("eye", (3,)),
                                        ("asarray", ([1, 2],))])
@pytest.mark.parametrize("device", ["cpu", 1.0, "cuda:0"])
def test_creation_rejects_foreign_devices_before_gpu_work(name, args, device):
    with pytest.raises(ValueError, match="Device not understood"):
        getattr(cp, name)(*args, device=device)


@pytest.mark.parametrize("name", ["empty", "zeros", "ones"])
def test_creation_dtype_defaults_to_none(name):
    assert inspect.signature(getattr(cp, name)).parameters["dtype"].default is None


def test_standard_keywords_in_signatures():
    def kwonly(fn, name):
        p = inspect.signature(fn).parameters[name]
        return p.kind is inspect.Parameter.KEYWORD_ONLY
    assert kwonly(cp.sort, "descending") and kwonly(cp.argsort, "descending")
    assert kwonly(cp.sort, "stable") and kwonly(cp.argsort, "stable")
    assert kwonly(cp.cumulative_sum, "include_initial") and kwonly(cp.cumulative_prod, "include_initial")
    assert kwonly(cp.std, "correction") and kwonly(cp.var, "correction")
    assert kwonly(cp.vecdot, "axis") and kwonly(cp.unstack, "axis")
    assert inspect.signature(cp.searchsorted).parameters["side"].default == "left"


def test_special_case_table_against_numpy_on_the_host():
    """NumPy gives the standard's value in every case but NUMPY_DEVIATES, and NumPy's value there:
    the deviation list in docs/array-api.md stays true."""
    for case in CASES:
        for dtype in (np.dtype(np.float32), np.dtype(np.float64)):
            @given(operands(case, dtype))
            def check(values):
                with np.errstate(all="ignore"):
                    got = getattr(np, case[0])(*(np.array([v], dtype) for v in values))
                assert got.dtype == dtype
                assert matches(got[0], numpy_expected(case), dtype), (case_id(case), values, got)
            check()
    standard = {case[:2]: case[2] for case in CASES}
    for key, numpy_value in NUMPY_DEVIATES.items():
        assert not matches(np.float64(numpy_value), standard[key], np.dtype(np.float64)), key


# ------------------------------------------------------------------------------------------------
# GPU: devices, astype, aliases, creation, the standard's keywords, special cases

@gpu
@pytest.mark.parametrize("dtype", FLOAT + INTEGER + ["complex64"])
def test_finfo_iinfo_of_arrays(dtype):
    x = cp.zeros(2, dtype)
    if np.dtype(dtype).kind in "fc":
        assert _info_fields(cp.finfo(x)) == _info_fields(np.finfo(dtype))
    else:
        assert _info_fields(cp.iinfo(x)) == _info_fields(np.iinfo(dtype))


@gpu
def test_array_namespace_of_an_array(rng):
    x = cp.asarray(rng.standard_normal(4))
    assert x.__array_namespace__() is cp
    assert x.__array_namespace__(api_version="2023.12") is cp


@gpu
def test_array_api_compat_recognises_cuarray(rng):
    compat = pytest.importorskip("array_api_compat")
    x = cp.asarray(rng.standard_normal(4))
    assert compat.array_namespace(x) is cp
    assert compat.device(x) == x.device


@gpu
def test_device_attribute_and_to_device(rng):
    x = cp.asarray(rng.standard_normal((3, 4)))
    dev = x.device
    assert isinstance(dev, cp.cuda.Device) and dev == cp.cuda.Device(0) and hash(dev) == hash(cp.cuda.Device(0))
    assert x.to_device(dev) is x
    assert x[:, ::2].to_device(dev).device == dev
    with pytest.raises(ValueError, match="Device not understood"):
        x.to_device("cpu")
    assert x.to_device(dev, stream=cp.cuda.Stream()) is x
    with pytest.raises(TypeError, match="cuarray.cuda.Stream"):
        x.to_device(dev, stream=3)


@gpu
def test_to_device_across_devices(rng):
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    host = rng.standard_normal((5, 6))
    x = cp.asarray(host)[::-1, 1::2]
    y = x.to_device(cp.cuda.Device(1))
    assert y.device == cp.cuda.Device(1)
    with cp.cuda.Device(1):
        stream = cp.cuda.Stream()
    z = x.to_device(cp.cuda.Device(1), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(y), host[::-1, 1::2])
    np.testing.assert_array_equal(cp.asnumpy(z), host[::-1, 1::2])
    with pytest.raises(ValueError, match="stream belongs"):
        x.to_device(cp.cuda.Device(1), stream=cp.cuda.Stream())


@gpu
@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64"])
def test_astype_like_numpy(src, dst, rng):
    host = random_array((4, 5), src, rng)[:, ::-2]
    x = cp.asarray(host)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (complex -> real discards the imaginary part, with a warning)
        ref = np.astype(host, dst)
        got = cp.astype(x, dst)
    if ref.dtype.kind in "iu" and host.dtype.kind in "fc":
        # Float -> integer is defined (C, NumPy) only for values the integer type holds.
        low = 0 if ref.dtype.kind == "u" else -100
        in_range = np.isfinite(host.real) & (host.real > low - 1) & (host.real < 100)
        np.testing.assert_array_equal(cp.asnumpy(got)[in_range], ref[in_range])
        assert got.dtype == ref.dtype
    else:
        assert_array_equal_np(got, ref)


@gpu
def test_astype_copy_and_device(rng):
    x = cp.asarray(rng.standard_normal(6).astype(np.float32))
    assert cp.astype(x, np.float32, copy=False) is x
    y = cp.astype(x, np.float32)
    assert y is not x and y._ptr != x._ptr
    z = cp.astype(x, np.float64, copy=False, device=x.device)
    assert_array_equal_np(z, cp.asnumpy(x).astype(np.float64))
    with pytest.raises(ValueError, match="Device not understood"):
        cp.astype(x, np.float64, device="cpu")


@gpu
@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases_compute_like_numpy(alias, rng):
    ufunc = getattr(np, alias)
    if alias in ("bitwise_left_shift", "bitwise_right_shift"):
        a, b = rng.integers(-1000, 1000, 50), rng.integers(0, 20, 50)
        args = (a, b)
    elif alias == "bitwise_invert":
        args = (rng.integers(-1000, 1000, 50).astype(np.int16),)
    elif ufunc.nin == 2:
        args = (rng.standard_normal(50), rng.standard_normal(50) + 0.5)
    else:
        args = (rng.uniform(-1.5, 3.0, 50).astype(np.float32),)
    with np.errstate(all="ignore"):
        ref = ufunc(*args)
    assert_allclose_np(getattr(cp, alias)(*(cp.asarray(a) for a in args)), ref)


@gpu
@pytest.mark.parametrize("name", ["empty", "zeros", "ones"])
def test_creation_dtype_none_is_float64(name):
    for dtype in (None, float):
        x = getattr(cp, name)((2, 3), dtype=dtype)
        assert x.dtype == np.float64 and x.shape == (2, 3)
    x = getattr(cp, name)(4)
    assert x.dtype == getattr(np, name)(4).dtype
    if name != "empty":
        assert_array_equal_np(getattr(cp, name)((2, 3), dtype=None), getattr(np, name)((2, 3), dtype=None))


@gpu
@pytest.mark.parametrize("fill", [1.5, 2, True, 1 + 2j, np.float32(3.0), np.int8(-4)])
def test_full_dtype_none_follows_the_fill_value(fill):
    assert_array_equal_np(cp.full((2, 2), fill, dtype=None), np.full((2, 2), fill, dtype=None))


@gpu
def test_eye_identity_dtype_none():
    assert_array_equal_np(cp.eye(3, dtype=None), np.eye(3, dtype=None))
    assert_array_equal_np(cp.identity(3, dtype=None), np.identity(3, dtype=None))


@gpu
@pytest.mark.parametrize("name, args", [("empty", ((2, 3),)), ("zeros", ((2, 3),)), ("ones", ((2, 3),)),
                                        ("full", ((2, 3), 7)), ("arange", (1, 9, 2)), ("linspace", (0, 1, 5)),
                                        ("eye", (3, 4)), ("asarray", ([[1.0, 2.0]],))])
def test_creation_on_a_device(name, args):
    dev = cp.cuda.Device(0)
    x = getattr(cp, name)(*args, device=dev)
    assert x.device == dev
    if name != "empty":
        assert_array_equal_np(x, getattr(np, name)(*args))
    for like in ("empty_like", "zeros_like", "ones_like"):
        y = getattr(cp, like)(x, device=dev)
        assert y.device == dev and y.shape == x.shape and y.dtype == x.dtype
    assert cp.full_like(x, 3, device=dev).device == dev
    assert getattr(cp, name)(*args, device=0).device == dev  # a device id, as CuPy's functions take


@gpu
def test_creation_on_another_device():
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    dev = cp.cuda.Device(1)
    for x in (cp.zeros(4, device=dev), cp.arange(4, device=dev), cp.asarray([1, 2], device=dev),
              cp.full_like(cp.zeros(3), 2.0, device=dev)):
        assert x.device == dev
    assert cp.cuda.Device().id == 0  # the current device is restored


@gpu
@pytest.mark.parametrize("dtype", NUMERIC)
def test_clip_without_bounds_is_a_copy(dtype, rng):
    host = random_array((3, 5), dtype, rng)[::-1]
    x = cp.asarray(host)
    got = cp.clip(x)
    assert_array_equal_np(got, np.clip(host))
    assert got._ptr != x._ptr
    out = cp.empty((3, 5), dtype)
    assert cp.clip(x, out=out) is out
    assert_array_equal_np(out, host)
    assert_array_equal_np(x.clip(), np.clip(host))


@gpu
def test_clip_without_bounds_errors_like_numpy():
    expect_error(lambda: np.clip(np.array([True, False])), lambda: cp.clip(cp.asarray([True, False])))
    expect_error(lambda: np.clip(np.arange(3.0), out=np.empty(3, np.int64)),
                 lambda: cp.clip(cp.arange(3.0), out=cp.empty(3, np.int64)))


def _stable_descending_order(values):
    # Python's sorted with reverse=True keeps equal elements in their input order.
    return sorted(range(len(values)), key=lambda i: values[i], reverse=True)


@gpu
@given(st.lists(st.integers(-3, 3), max_size=40), st.sampled_from(["int8", "uint16", "int64", "float32", "float64"]))
def test_argsort_descending_is_stable(values, dtype):
    if np.dtype(dtype).kind == "u":
        values = [abs(v) for v in values]
    host = np.array(values, dtype=dtype)
    got = cp.argsort(cp.asarray(host), descending=True)
    assert got.dtype == np.int64
    assert cp.asnumpy(got).tolist() == _stable_descending_order(values)
    sorted_got = cp.sort(cp.asarray(host), descending=True, stable=True)
    assert_array_equal_np(sorted_got, host[_stable_descending_order(values)])


@gpu
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_sort_descending_along_axes(axis, rng):
    host = rng.integers(-5, 5, (6, 7)).astype(np.float32)[::-1, ::2]
    x = cp.asarray(host)
    ref_sorted = -np.sort(-host, axis=axis)
    assert_array_equal_np(cp.sort(x, axis=axis, descending=True), ref_sorted)
    idx = cp.asnumpy(cp.argsort(x, axis=axis, descending=True))
    if axis is None:
        ref_idx = np.array(_stable_descending_order(host.ravel().tolist()))
        np.testing.assert_array_equal(idx, ref_idx)
    else:
        np.testing.assert_array_equal(idx, np.argsort(-host, axis=axis, stable=True))


@gpu
def test_sort_descending_bad_axis():
    expect_error(lambda: np.sort(np.ones(3), axis=2), lambda: cp.sort(cp.ones(3), axis=2, descending=True))
    expect_error(lambda: np.sort(np.array(1.0)), lambda: cp.sort(cp.asarray(1.0), descending=True))
    check_like_numpy(lambda: np.argsort(np.array(1.0)), lambda: cp.argsort(cp.asarray(1.0), descending=True))
    check_like_numpy(lambda: np.sort(np.array(1.0), axis=None), lambda: cp.sort(cp.asarray(1.0), axis=None,
                                                                                 descending=True))
    assert cp.argsort(cp.zeros((0, 3)), axis=0, descending=True).shape == (0, 3)


@gpu
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_searchsorted_per_the_standard(side, dtype, rng):
    x1 = rng.integers(-20, 20, 30).astype(dtype)
    order = np.argsort(x1, stable=True)
    x2 = rng.integers(-25, 25, (4, 5)).astype(dtype)
    ref = np.searchsorted(x1, x2, side=side, sorter=order)
    got = cp.searchsorted(cp.asarray(x1), cp.asarray(x2), side=side, sorter=cp.asarray(order))
    assert_array_equal_np(got, ref)
    # The index conditions of the standard, checked directly.
    s = np.sort(x1)
    for v, i in zip(x2.ravel(), cp.asnumpy(got).ravel()):
        below, above = (s[:i] < v, s[i:] >= v) if side == "left" else (s[:i] <= v, s[i:] > v)
        assert below.all() and above.all()
    assert_array_equal_np(cp.searchsorted(cp.asarray(np.sort(x1)), 3, side=side),
                          np.searchsorted(np.sort(x1), 3, side=side))


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint32", "float32", "complex64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_sum_and_prod(dtype, axis, include_initial, rng):
    host = random_array((3, 4), dtype, rng, low=-2, high=3)[:, ::-1]
    x = cp.asarray(host)
    for name in ("cumulative_sum", "cumulative_prod"):
        ref = getattr(np, name)(host, axis=axis, include_initial=include_initial)
        assert_allclose_np(getattr(cp, name)(x, axis=axis, include_initial=include_initial), ref)


@gpu
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
def test_unique_family(dtype, rng):
    host = rng.integers(-4, 4, (5, 6)).astype(dtype)[::-1, ::2]
    if np.dtype(dtype).kind == "f":
        host[0, 0] = host[1, 1] = np.nan  # NaNs are distinct in the standard's unique_*
    x = cp.asarray(host)
    ref = np.unique_all(host)
    got = cp.unique_all(x)
    assert got._fields == ref._fields
    for g, r in zip(got, ref):
        assert_array_equal_np(g, r)
    counts = cp.unique_counts(x)
    assert_array_equal_np(counts.values, np.unique_counts(host).values)
    assert_array_equal_np(counts.counts, np.unique_counts(host).counts)
    inverse = cp.unique_inverse(x)
    assert inverse.inverse_indices.shape == host.shape
    assert_array_equal_np(inverse.inverse_indices, np.unique_inverse(host).inverse_indices)
    assert_array_equal_np(cp.sort(cp.unique_values(x)), np.sort(np.unique_values(host)))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
def test_vecdot_matrix_transpose_permute_dims_concat(dtype, rng):
    a = random_array((2, 3, 4), dtype, rng)
    b = random_array((3, 4), dtype, rng)[::-1]
    assert_allclose_np(cp.vecdot(cp.asarray(a), cp.asarray(b)), np.vecdot(a, b))
    assert_allclose_np(cp.vecdot(cp.asarray(a), cp.asarray(a), axis=1), np.vecdot(a, a, axis=1))
    assert_array_equal_np(cp.matrix_transpose(cp.asarray(a)), np.matrix_transpose(a))
    assert_array_equal_np(cp.permute_dims(cp.asarray(a), (2, 0, 1)), np.permute_dims(a, (2, 0, 1)))
    assert_array_equal_np(cp.concat([cp.asarray(b), cp.asarray(b)], axis=1), np.concat([b, b], axis=1))
    assert_array_equal_np(cp.concat([cp.asarray(a), cp.asarray(a)], axis=None), np.concat([a, a], axis=None))
    assert_array_equal_np(cp.asarray(a).mT, a.mT)
    expect_error(lambda: np.matrix_transpose(np.ones(3)), lambda: cp.matrix_transpose(cp.ones(3)))


@gpu
@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_fft_frequencies_dtype_and_device(name, dtype):
    ref = getattr(np.fft, name)(9, d=0.5)
    got = getattr(cp.fft, name)(9, d=0.5, dtype=dtype, device=cp.cuda.Device(0))
    assert got.device == cp.cuda.Device(0)
    assert_allclose_np(got, ref if dtype is None else ref.astype(dtype))


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", ["int64", "complex64", "bool"])
def test_fft_frequencies_refuse_non_real_floating_dtypes(name, dtype):
    with pytest.raises(ValueError, match="real floating"):
        getattr(cp.fft, name)(4, dtype=dtype)


@gpu
def test_expand_dims_and_diff_defaults_of_the_standard(rng):
    host = rng.standard_normal((3, 4))
    x = cp.asarray(host)
    assert_array_equal_np(cp.expand_dims(x), np.expand_dims(host, 0))
    assert_array_equal_np(cp.diff(x, prepend=None, append=None), np.diff(host))
    assert_array_equal_np(cp.diff(x, axis=0, n=2, prepend=None), np.diff(host, axis=0, n=2))
    expect_error(lambda: np.expand_dims(host, 3), lambda: cp.expand_dims(x, axis=3))


@gpu
@pytest.mark.parametrize("correction", [0, 1, 1.5])
def test_std_var_correction(correction, rng):
    host = rng.standard_normal((4, 5)).astype(np.float32)
    x = cp.asarray(host)
    assert_allclose_np(cp.std(x, axis=0, correction=correction), np.std(host, axis=0, correction=correction),
                       rtol=1e-5)
    assert_allclose_np(cp.var(x, correction=correction), np.var(host, correction=correction), rtol=1e-5)


# The standard's special cases, property-tested: cuarray gives the standard's value where NumPy
# does, and NumPy's value in NumPy's documented deviations.
@gpu
@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64)])
def test_special_cases(case, dtype):
    @given(st.lists(operands(case, dtype), min_size=1, max_size=8))
    def check(rows):
        columns = [np.array(col, dtype) for col in zip(*rows)]
        got = cp.asnumpy(getattr(cp, case[0])(*(cp.asarray(c) for c in columns)))
        assert got.dtype == dtype
        expected = numpy_expected(case)
        bad = [(row, g) for row, g in zip(rows, got) if not matches(g, expected, dtype)]
        assert not bad, f"{case_id(case)} [{dtype}]: expected {expected}, got {bad[:4]}"
    check()


@gpu
@pytest.mark.parametrize("name", ["acos", "acosh", "asin", "asinh", "atan", "atanh", "expm1"])
@pytest.mark.parametrize("dtype", FLOAT)
def test_special_values_in_one_array_like_numpy(name, dtype):
    """Every special value at once, strided, against NumPy (float16 included)."""
    host = np.array([np.nan, 0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 0.5, -0.5, 2.0, -2.0, 1e-3], dtype)[::-1]
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(host)
    got = getattr(cp, name)(cp.asarray(host))
    assert_allclose_np(got, ref)
    assert_array_equal_np(cp.signbit(got[cp.asarray(ref == 0)]), np.signbit(ref[ref == 0]))


@gpu
@pytest.mark.parametrize("name", ["pow", "atan2", "floor_divide"])
@pytest.mark.parametrize("dtype", FLOAT)
def test_binary_special_values_like_numpy(name, dtype):
    """The outer product of special values (signed zeros, infinities, NaN, ±1, odd and even
    integers, fractions) against NumPy, for every float dtype."""
    values = np.array([np.nan, 0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 2.5], dtype)
    a, b = np.meshgrid(values, values, indexing="ij")
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(a, b)
    got = getattr(cp, name)(cp.asarray(a), cp.asarray(b))
    assert_allclose_np(got, ref)
    zero = ref == 0
    assert_array_equal_np(cp.signbit(got)[cp.asarray(zero)], np.signbit(ref)[zero])


@gpu
@pytest.mark.parametrize("dtype", INTEGER)
def test_integer_pow_and_floor_divide_like_numpy(dtype, rng):
    a = random_array((40,), dtype, rng, low=-5, high=6)
    b = random_array((40,), dtype, rng, low=1, high=4)
    assert_array_equal_np(cp.pow(cp.asarray(a), cp.asarray(b)), np.pow(a, b))
    assert_array_equal_np(cp.floor_divide(cp.asarray(a), cp.asarray(b)), np.floor_divide(a, b))
    assert_array_equal_np(cp.bitwise_left_shift(cp.asarray(a), cp.asarray(b)), np.bitwise_left_shift(a, b))
    assert_array_equal_np(cp.bitwise_invert(cp.asarray(a)), np.bitwise_invert(a))


# ------------------------------------------------------------------------------------------------
# scikit-learn's array_api_dispatch on cuarray input (through array-api-compat)

SKLEARN_SCRIPT = r"""
import numpy as np
import sklearn
import cuarray as cp
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import Ridge

rng = np.random.default_rng(7)
X = rng.standard_normal((200, 12)) @ rng.standard_normal((12, 12))
y_class = rng.integers(0, 3, 200)
X_class = X + y_class[:, None] * 1.5
y_reg = X @ rng.standard_normal(12) + 0.1 * rng.standard_normal(200)
estimator = {estimator!r}

def fitted(make, X, y):
    return make().fit(X, y) if y is not None else make().fit(X)

if estimator == "PCA":
    make, data, attrs = (lambda: PCA(n_components=5, svd_solver="full")), (X, None), \
        ["explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_"]
elif estimator == "LinearDiscriminantAnalysis":
    make, data, attrs = (lambda: LinearDiscriminantAnalysis(solver="svd")), (X_class, y_class), \
        ["means_", "priors_", "explained_variance_ratio_", "classes_"]
else:
    make, data, attrs = (lambda: Ridge(alpha=0.5, solver="svd")), (X, y_reg), ["coef_", "intercept_"]

reference = fitted(make, *data)
with sklearn.config_context(array_api_dispatch=True):
    gpu_data = [None if d is None else cp.asarray(d) for d in data]
    model = fitted(make, *gpu_data)
    for name in attrs:
        value = getattr(model, name)
        if isinstance(value, cp.ndarray):
            assert value.device == gpu_data[0].device, name
            value = cp.asnumpy(value)
        np.testing.assert_allclose(value, getattr(reference, name), rtol=1e-6, atol=1e-8, err_msg=name)
    if estimator == "PCA":
        out, ref = model.transform(gpu_data[0]), reference.transform(X)
        # Components are defined up to sign: compare |projections|.
        np.testing.assert_allclose(np.abs(cp.asnumpy(out)), np.abs(ref), rtol=1e-6, atol=1e-8)
    else:
        out, ref = model.predict(gpu_data[0]), reference.predict(data[0])
        assert isinstance(out, cp.ndarray)
        np.testing.assert_allclose(cp.asnumpy(out), ref, rtol=1e-6, atol=1e-8)
print("ok")
"""


@gpu
@pytest.mark.parametrize("estimator", ["PCA", "LinearDiscriminantAnalysis", "Ridge"])
def test_sklearn_array_api_dispatch(estimator):
    for module in ("sklearn", "scipy", "array_api_compat"):
        pytest.importorskip(module)
    # SciPy reads SCIPY_ARRAY_API when it is imported: a fresh interpreter with it set.
    out = run_python(SKLEARN_SCRIPT.format(estimator=estimator), timeout=600, SCIPY_ARRAY_API="1")
    assert out.strip().endswith("ok")


# ---- 2025.12: broadcast_shapes and isin added; expand_dims takes a tuple of axes, permute_dims
# negative axes, searchsorted a scalar x2.

def test_broadcast_shapes_per_2025_12():
    assert cp.broadcast_shapes() == ()
    assert cp.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    assert cp.broadcast_shapes((0, 1), (1, 4)) == (0, 4)
    with pytest.raises(ValueError):
        cp.broadcast_shapes((2,), (3,))


@gpu
@pytest.mark.parametrize("axis", [(0, -1), (1, 0), (-1, -3), (2,), 0])
def test_expand_dims_tuple_of_axes(axis, rng):
    host = rng.standard_normal((3, 4))
    got = cp.expand_dims(cp.asarray(host), axis=axis)
    assert got.shape == np.expand_dims(host, axis).shape
    np.testing.assert_array_equal(got.get(), np.expand_dims(host, axis))
    with pytest.raises(ValueError):
        cp.expand_dims(cp.asarray(host), axis=(0, 0))  # repeated
    with pytest.raises(np.exceptions.AxisError):
        cp.expand_dims(cp.asarray(host), axis=(0, 9))


@gpu
@pytest.mark.parametrize("axes", [(-1, 0, 1), (2, -3, -2), (-1, -2, -3)])
def test_permute_dims_negative_axes(axes, rng):
    host = rng.standard_normal((2, 3, 4))
    got = cp.permute_dims(cp.asarray(host), axes)
    np.testing.assert_array_equal(got.get(), np.transpose(host, axes))


@gpu
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("x2", [3, 2.5, -1, 100, True])
def test_searchsorted_scalar_x2(side, x2, rng):
    host = np.sort(rng.integers(0, 6, 20)).astype(np.float64)
    got = cp.searchsorted(cp.asarray(host), x2, side=side)
    assert isinstance(got, cp.ndarray) and got.shape == () and got.dtype == np.int64  # a 0-d array
    assert int(got) == np.searchsorted(host, x2, side=side)


@gpu
@pytest.mark.parametrize("invert", [False, True])
def test_isin_per_2025_12(invert, rng):
    x1 = rng.integers(0, 10, (4, 5))
    x2 = rng.integers(0, 10, 6)
    got = cp.isin(cp.asarray(x1), cp.asarray(x2), invert=invert)
    assert got.dtype == np.bool_ and got.shape == x1.shape
    np.testing.assert_array_equal(got.get(), np.isin(x1, x2, invert=invert))
    scalar = cp.isin(3, cp.asarray(x2), invert=invert)  # a scalar x1: a 0-d result
    assert scalar.shape == () and bool(scalar) == bool(np.isin(3, x2, invert=invert))
