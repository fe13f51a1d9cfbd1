"""The rest of NumPy's namespace that CuPy also offers: fix, the array-type tests (iscomplex, isreal,
iscomplexobj, isrealobj, isfortran, isneginf, isposinf), common_type and min_scalar_type,
may_share_memory / shares_memory, the host readers and writers (from*, loadtxt, genfromtxt, load,
save, savez, savetxt, array_repr, ...), and NumPy's own error-state, print-option and scalar-type
names. Each is compared with NumPy on random data, with NumPy's dtypes."""
import io

import numpy as np
import pytest

import cuarray as cp

from helpers import assert_array_equal_np

REAL_DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]


def _values(rng, dtype, n=200):
    """Random values of dtype; floats include signed zeros, infinities, NaN and halves."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    values = rng.standard_normal(n) * 4
    values[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -0.5, -2.5]
    return values.astype(dtype)


# --- any machine ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["errstate", "geterr", "seterr", "printoptions", "get_printoptions",
                                  "set_printoptions", "uint", "long", "ulong", "euler_gamma", "little_endian",
                                  "typecodes", "sctypeDict", "ScalarType", "mintypecode", "typename",
                                  "iterable", "base_repr", "binary_repr"])
def test_numpys_own_names(name):
    assert getattr(cp, name) is getattr(np, name)


def test_type_tests_of_host_objects_need_no_device():
    assert cp.iscomplexobj(np.array([1j])) and cp.iscomplexobj(1j) and not cp.iscomplexobj(3.0)
    assert cp.isrealobj([1, 2]) and not cp.isrealobj(np.complex64(1))
    assert cp.common_type(np.ones(2, np.int8), np.ones(2, np.float32)) is np.float64
    assert cp.min_scalar_type(300) == np.min_scalar_type(300) == np.uint16
    a = np.arange(10)
    assert cp.shares_memory(a, a[3:]) and not cp.shares_memory(a[::2], a[1::2])
    assert cp.may_share_memory(a[::2], a[1::2])


def test_still_missing_names_say_so():
    with pytest.raises(AttributeError, match="numpy.matrix is not implemented on the GPU"):
        cp.matrix


# --- on a GPU --------------------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_fix_matches_numpy(rng, dtype):
    host = _values(rng, dtype)
    x = cp.asarray(host)
    got, want = cp.fix(x), np.fix(host)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)
    if np.dtype(dtype).kind == "f":
        assert np.array_equal(np.signbit(got.get()), np.signbit(want))  # -0.0 stays -0.0
    strided = cp.asarray(host.reshape(20, 10))[::2, ::-3]
    np.testing.assert_array_equal(cp.fix(strided).get(), np.fix(host.reshape(20, 10)[::2, ::-3]))
    out = cp.empty_like(x)
    assert cp.fix(x, out=out) is out
    np.testing.assert_array_equal(out.get(), want)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_signed_infinity_tests_match_numpy(rng, dtype):
    host = _values(rng, dtype)
    x = cp.asarray(host)
    for ours, theirs in [(cp.isneginf, np.isneginf), (cp.isposinf, np.isposinf)]:
        got, want = ours(x), theirs(host)
        assert got.dtype == want.dtype == np.bool_
        np.testing.assert_array_equal(got.get(), want)
        out = cp.zeros(x.shape, bool)
        assert ours(x, out=out) is out
        np.testing.assert_array_equal(out.get(), want)


@pytest.mark.gpu
def test_signed_infinity_tests_refuse_complex():
    for ours in (cp.isneginf, cp.isposinf):
        with pytest.raises(TypeError, match="not supported for complex128 values because it would be ambiguous"):
            ours(cp.asarray([1j, -np.inf]))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64, np.complex128])
def test_iscomplex_isreal_match_numpy(rng, dtype):
    host = (rng.standard_normal((6, 7)) * 3).astype(dtype)
    if np.dtype(dtype).kind == "c":
        host = host + 1j * (rng.random((6, 7)) < 0.5) * rng.standard_normal((6, 7))
        host = host.astype(dtype)
    x = cp.asarray(host)
    for ours, theirs in [(cp.iscomplex, np.iscomplex), (cp.isreal, np.isreal)]:
        got, want = ours(x), theirs(host)
        assert got.dtype == np.bool_ and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    assert cp.iscomplexobj(x) == np.iscomplexobj(host) and cp.isrealobj(x) == np.isrealobj(host)
    zero_d = cp.asarray(host[0, 0])
    assert cp.iscomplex(zero_d).shape == () and bool(cp.iscomplex(zero_d)) == bool(np.iscomplex(host[0, 0]))


@pytest.mark.gpu
def test_isfortran_matches_numpy():
    host = np.zeros((3, 4))
    for view in [lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a.T[::-1], lambda a: a[0]]:
        assert cp.isfortran(view(cp.asarray(host))) == np.isfortran(view(host))
    assert cp.isfortran(cp.asfortranarray(cp.ones((3, 4)))) is True


@pytest.mark.gpu
def test_common_type_and_min_scalar_type_match_numpy():
    arrays = [np.ones(2, np.int8), np.ones(2, np.float32), np.ones(2, np.complex64), np.ones(2, np.float16)]
    for k in range(1, len(arrays) + 1):
        assert cp.common_type(*(cp.asarray(a) for a in arrays[:k])) is np.common_type(*arrays[:k])
    assert cp.min_scalar_type(cp.asarray(np.array([1, 2], np.int64))) == np.int64
    for value in [3, -3, 300, 70000, 2.5, 1e300, 1 + 2j]:
        assert cp.min_scalar_type(cp.asarray(np.array(value))) == np.min_scalar_type(np.array(value)), value


@pytest.mark.gpu
def test_memory_overlap_matches_numpy(rng):
    host = np.zeros((10, 12), np.float32)
    dev = cp.asarray(host)
    other = cp.zeros((10, 12), np.float32)
    pairs = [
        (lambda a: a, lambda a: a),
        (lambda a: a[::2], lambda a: a[1::2]),                 # interleaved rows: bounds overlap, no element shared
        (lambda a: a[:, ::2], lambda a: a[:, 1::2]),
        (lambda a: a[:5], lambda a: a[5:]),
        (lambda a: a[:6], lambda a: a[5:]),
        (lambda a: a.T, lambda a: a[3]),
        (lambda a: a[2, 3:4], lambda a: a[:, 3]),
        (lambda a: a[:0], lambda a: a),                        # empty: shares nothing
        (lambda a: a.view(np.uint8)[:, 1::4], lambda a: a[:, 0]),  # byte views: a byte inside an element
    ]
    def outcome(function, a, b, max_work):  # the answer, or the exception's type (max_work=0 may be too little)
        try:
            return function(a, b, max_work=max_work)
        except Exception as e:
            return type(e)

    for left, right in pairs:
        for max_work in (None, 0, -1):  # default, MAY_SHARE_BOUNDS and MAY_SHARE_EXACT (NumPy 2 names no constants)
            for ours, numpys in [(cp.shares_memory, np.shares_memory), (cp.may_share_memory, np.may_share_memory)]:
                assert outcome(ours, left(dev), right(dev), max_work) == \
                    outcome(numpys, left(host), right(host), max_work)
    assert not cp.shares_memory(dev, other) and not cp.may_share_memory(dev, other)
    assert not cp.shares_memory(dev, host) and not cp.may_share_memory(host, dev)  # device and host memory
    assert np.shares_memory(dev[::2], dev[2:])  # NumPy's function dispatches here


@pytest.mark.gpu
def test_save_load_round_trips(rng, tmp_path):
    a = (rng.standard_normal((4, 5)) * 10).astype(np.float32)
    b = rng.integers(0, 100, 7).astype(np.int16)
    da, db = cp.asarray(a), cp.asarray(b)[::2]
    cp.save(tmp_path / "a.npy", da)
    loaded = cp.load(tmp_path / "a.npy")
    assert isinstance(loaded, cp.ndarray) and loaded.dtype == a.dtype
    assert_array_equal_np(loaded, a)
    np.save(tmp_path / "via_numpy.npy", da)  # numpy.save of a cuarray array dispatches here
    np.testing.assert_array_equal(np.load(tmp_path / "via_numpy.npy"), a)
    for writer in (cp.savez, cp.savez_compressed):
        path = tmp_path / f"{writer.__name__}.npz"
        writer(path, da, second=db)
        with cp.load(path) as npz:
            assert sorted(npz.files) == ["arr_0", "second"] and "second" in npz and len(npz) == 2
            assert isinstance(npz["arr_0"], cp.ndarray)
            assert_array_equal_np(npz["arr_0"], a)
            assert_array_equal_np(npz["second"], b[::2])
    buffer = io.BytesIO()
    cp.save(buffer, da)
    buffer.seek(0)
    assert_array_equal_np(cp.load(buffer), a)


@pytest.mark.gpu
def test_text_and_buffer_readers_match_numpy(rng, tmp_path):
    a = rng.standard_normal((6, 3))
    cp.savetxt(tmp_path / "a.txt", cp.asarray(a), fmt="%.17g", delimiter=",")
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "a.txt", delimiter=","), a)
    for reader, numpy_reader in [(cp.loadtxt, np.loadtxt), (cp.genfromtxt, np.genfromtxt)]:
        got = reader(tmp_path / "a.txt", delimiter=",")
        assert isinstance(got, cp.ndarray)
        assert_array_equal_np(got, numpy_reader(tmp_path / "a.txt", delimiter=","))
    a.astype(np.float32).tofile(tmp_path / "a.bin")
    assert_array_equal_np(cp.fromfile(tmp_path / "a.bin", dtype=np.float32), a.astype(np.float32).ravel())
    raw = a.astype(np.int32).tobytes()
    assert_array_equal_np(cp.frombuffer(raw, dtype=np.int32, count=4, offset=8), np.frombuffer(raw, np.int32, 4, 8))
    assert_array_equal_np(cp.fromstring("1 2 3.5", sep=" "), np.fromstring("1 2 3.5", sep=" "))
    assert_array_equal_np(cp.fromiter((i * i for i in range(9)), dtype=np.int64, count=5),
                          np.fromiter((i * i for i in range(9)), dtype=np.int64, count=5))
    assert cp.fromiter(iter([1.5, 2.5]), float, like=cp.empty(0)).dtype == np.float64


@pytest.mark.gpu
def test_fromfunction_runs_on_device_index_arrays():
    got = cp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=int)
    assert isinstance(got, cp.ndarray)
    assert_array_equal_np(got, np.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=int))
    assert_array_equal_np(cp.fromfunction(lambda i: i / 2, (5,)), np.fromfunction(lambda i: i / 2, (5,)))


@pytest.mark.gpu
def test_text_forms_are_numpys(rng):
    host = rng.standard_normal((3, 4)).astype(np.float32)
    x = cp.asarray(host)
    assert cp.array_repr(x) == np.array_repr(host)
    assert cp.array_str(x, precision=2) == np.array_str(host, precision=2)
    assert cp.array2string(x, separator=";") == np.array2string(host, separator=";")
    with cp.printoptions(precision=1):
        assert cp.array_str(x) == np.array_str(host)


# --- CuPy's own top-level helpers: is_available, memoize, clear_memo, show_config, lib.stride_tricks ------

def test_is_available_is_cudas():
    assert cp.is_available is cp.cuda.is_available and type(cp.is_available()) is bool


def test_memoize_caches_by_arguments_and_device():
    calls = []

    @cp.memoize()
    def square(x, *, offset=0):
        calls.append(x)
        return x * x + offset

    @cp.memoize(for_each_device=True)
    def per_device(x):
        calls.append(("device", x))
        return [x]

    assert square(3) == 9 and square(3) == 9 and square(3, offset=1) == 10
    assert calls == [3, 3]
    assert per_device(2) is per_device(2)
    assert square.__name__ == "square"
    cp.clear_memo()
    assert square(3) == 9 and calls[-1] == 3 and len(calls) == 4
    with pytest.raises(TypeError):
        square([1, 2])  # unhashable arguments cannot be cached, as in CuPy


def test_show_config_prints_versions_and_never_raises(capsys):
    cp.show_config()
    lines = capsys.readouterr().out.splitlines()
    names = [line.split(" : ")[0].strip() for line in lines]
    assert names[:4] == ["OS", "Python Version", "cuarray Version", "NumPy Version"]
    assert "CUDA Driver Version" in names and "Device Count" in names
    count = int(lines[names.index("Device Count")].split(" : ")[1])
    assert count == (cp.cuda.runtime.getDeviceCount() if cp.is_available() else 0)
    assert sum(name.endswith(" Name") for name in names) == count


@pytest.mark.gpu
def test_as_strided_views_match_numpys(rng):
    host = rng.standard_normal(24)
    x = cp.asarray(host)
    from numpy.lib.stride_tricks import as_strided as np_as_strided
    for shape, strides in [((4, 3), (48, 8)), ((5, 4), (16, 8)), ((3, 4), (0, 8)), ((6,), (-8,))]:
        base = slice(None) if strides[-1] > 0 else slice(-1, None, -1)
        want = np_as_strided(host[base], shape, strides)
        got = cp.lib.stride_tricks.as_strided(x[base], shape, strides)
        assert got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got.get(), want)
    assert cp.lib.stride_tricks.as_strided(x).strides == x.strides
    allocated = x.data.mem.size  # the pool's block, which may be larger than the 24 elements
    with pytest.raises(ValueError):  # past the end of the allocation: refused, never read
        cp.lib.stride_tricks.as_strided(x, (allocated // 8 + 1,), (8,))
    with pytest.raises(ValueError):  # before its start
        cp.lib.stride_tricks.as_strided(x[1:], (3,), (-8,))
    assert cp.lib.stride_tricks.as_strided(x, (allocated // 8,), (8,)).size == allocated // 8
    with pytest.raises(ValueError, match="mismatch in length of strides and shape"):
        cp.lib.stride_tricks.as_strided(x, (2, 3), (8,))


@pytest.mark.gpu
def test_sliding_window_view_matches_numpys(rng):
    from numpy.lib.stride_tricks import sliding_window_view as np_windows
    host = rng.standard_normal((6, 7))
    x = cp.asarray(host)
    for window, axis in [((2, 3), None), (3, 1), (2, 0), ((2, 2), (1, 1)), (0, -1)]:
        got = cp.lib.stride_tricks.sliding_window_view(x, window, axis)
        want = np_windows(host, window, axis)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    got = np.lib.stride_tricks.sliding_window_view(x[:, ::2], 2, axis=1)  # NumPy's function dispatches here
    assert isinstance(got, cp.ndarray)
    np.testing.assert_array_equal(got.get(), np_windows(host[:, ::2], 2, axis=1))
    for args, message in [((x, -1, 0), "cannot contain negative values"), ((x, 8, 1), "cannot be larger"),
                          ((x, (2,)), "must provide window_shape for all dimensions"),
                          ((x, (2, 2), 0), "Must provide matching length")]:
        with pytest.raises(ValueError, match=message):
            cp.lib.stride_tricks.sliding_window_view(*args)
