"""cuarray.fft against numpy.fft on random data: every function and dtype (bool, integers, float16,
float32, float64, complex64, complex128) with NumPy 2's result dtypes, even/odd/prime/Bluestein
lengths, every norm, n/s padding and truncation, axes permutations (negative, repeated where NumPy
allows), strided/negative-stride/transposed input, round trips, out=, size-0 and 0-d input; NumPy's
errors and deprecation warnings (host-side, before any GPU work); the plan cache (cupy.fft.config)
and its limits; np.fft dispatch; fftfreq, rfftfreq, fftshift, ifftshift.

Tolerances: the largest error relative to the largest magnitude of NumPy's result, 1e-4 for single
precision, 1e-10 for double, 2e-2 where the result is float16."""
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuarray as cp

from helpers import expect_error

gpu = pytest.mark.gpu

ALL_DTYPES = [np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32, np.float64, np.complex64, np.complex128]
REAL_DTYPES = [d for d in ALL_DTYPES if np.dtype(d).kind != "c"]
NORMS = [None, "backward", "ortho", "forward"]
LENGTHS = [1, 2, 16, 17, 30, 1009, 2 * 3 * 5 * 7 * 11]


def data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -50, 50, size=shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def assert_fft_close(got, ref):
    assert isinstance(got, cp.ndarray), type(got)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if ref.size == 0:
        return
    host = cp.asnumpy(got).astype(np.complex128)
    single = ref.dtype in (np.complex64, np.float32)
    tol = 2e-2 if ref.dtype == np.float16 else 1e-4 if single else 1e-10
    scale = max(float(np.abs(ref).max()), 1e-300)
    err = float(np.abs(host - ref.astype(np.complex128)).max())
    assert err <= tol * scale, f"max error {err:.3g} > {tol:g} * {scale:.3g}"


def check(name, x, *args, **kwargs):
    """Runs numpy.fft.<name> on x and cuarray.fft.<name> on x's copy on the GPU; NumPy's errors alike."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            ref = getattr(np.fft, name)(x, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            expect_error(lambda: getattr(np.fft, name)(x, *args, **kwargs),
                         lambda: getattr(cp.fft, name)(cp.asarray(x), *args, **kwargs), str(exc))
            return None
        if x.dtype == np.float16:  # NumPy's own float16 transforms err by ~2e-4: values from float32
            ref = getattr(np.fft, name)(x.astype(np.float32), *args, **kwargs).astype(ref.dtype)
        got = getattr(cp.fft, name)(cp.asarray(x), *args, **kwargs)
    assert_fft_close(got, ref)
    return got


# ---- host: names, NumPy's errors and warnings before any GPU work ----------------------------------

def test_namespace_has_every_numpy_fft_function():
    for name in np.fft.__all__:
        assert callable(getattr(cp.fft, name)), name
    assert cp.fft.config.enable_nd_planning is True
    assert cp.fft.config.use_multi_gpus is False


@pytest.mark.parametrize("call, message", [
    (lambda m: m.fft.fft(np.ones(4), n=0), "Invalid number of FFT data points (0) specified."),
    (lambda m: m.fft.ifft(np.ones(4), n=-3), "Invalid number of FFT data points (-3) specified."),
    (lambda m: m.fft.fft(np.ones(0)), "Invalid number of FFT data points (0) specified."),
    (lambda m: m.fft.fft(np.ones((0, 3)), axis=0), "Invalid number of FFT data points (0) specified."),
    (lambda m: m.fft.irfft(np.ones(1)), "Invalid number of FFT data points (0) specified."),
    (lambda m: m.fft.hfft(np.ones(1)), "Invalid number of FFT data points (0) specified."),
    (lambda m: m.fft.fft(np.ones(4), norm="x"), 'Invalid norm value x; should be "backward","ortho" or "forward".'),
    (lambda m: m.fft.ifft(np.ones(4), norm="x"), 'Invalid norm value x; should be "backward", "ortho" or "forward".'),
    (lambda m: m.fft.hfft(np.ones(4), norm="x"), 'Invalid norm value x; should be "backward", "ortho" or "forward".'),
    (lambda m: m.fft.rfftn(np.ones((2, 2)), norm="no"), "Invalid norm value no"),
    (lambda m: m.fft.fft(np.ones(4), axis=2), "tuple index out of range"),
    (lambda m: m.fft.fft(np.ones(4), n=4, axis=2), "axis 2 is out of bounds for array of dimension 1"),
    (lambda m: m.fft.fft(np.float64(1.0)), "tuple index out of range"),
    (lambda m: m.fft.fft(np.ones(4), n=2.5), "'float' object cannot be interpreted as an integer"),
    (lambda m: m.fft.fftn(np.ones((2, 2)), s=(2,), axes=(0, 1)), "Shape and axes have different lengths."),
    (lambda m: m.fft.fftn(np.ones((2, 2)), axes=(0, 5)), "index 5 is out of bounds for axis 0 with size 2"),
    (lambda m: m.fft.fftn(np.ones((2, 2)), s=(3, 0), axes=(0, 1)), "Invalid number of FFT data points (0)"),
    (lambda m: m.fft.ifftn(np.ones((2, 2)), s=(0, -2), axes=(0, 1)), "Invalid number of FFT data points (-2)"),
    (lambda m: m.fft.fftn(np.ones((2, 2)), s=2), "object is not iterable"),
    (lambda m: m.fft.rfftn(np.ones((2, 2)), axes=()), "list index out of range"),
    (lambda m: m.fft.irfftn(np.ones((2, 2)), axes=()), "tuple index out of range"),
    (lambda m: m.fft.irfftn(np.ones((2, 2)), s=(4, 0), axes=(0, 1)), "Invalid number of FFT data points (0)"),
    (lambda m: m.fft.fft2(np.ones(3)), "index -2 is out of bounds for axis 0 with size 1"),
    (lambda m: m.fft.fftfreq(4.0), "n should be an integer"),
    (lambda m: m.fft.rfftfreq(np.float32(4)), "n should be an integer"),
])
def test_argument_errors_are_numpys(call, message):
    expect_error(lambda: call(np), lambda: call(cp), message)


def test_s_without_axes_warns_as_numpy_2():
    msg = "`axes` should not be `None` if `s` is not `None`"
    with pytest.warns(DeprecationWarning, match=msg), pytest.raises(ValueError, match="data points"):
        cp.fft.fftn(np.ones((2, 2)), s=(2, 0))
    with pytest.warns(DeprecationWarning, match=msg), pytest.raises(ValueError, match="data points"):
        np.fft.fftn(np.ones((2, 2)), s=(2, 0))


def test_none_in_s_warns_as_numpy_2():
    msg = "Passing an array containing `None` values to `s` is deprecated"
    with pytest.warns(DeprecationWarning, match=msg), pytest.raises(ValueError, match="data points"):
        cp.fft.fftn(np.ones((2, 2)), s=(None, 0), axes=(0, 1))


class _NumpyCore:
    """Stands in for the C++ transforms (cuarray/fft.hpp) with NumPy's own, taking the lengths, axes
    and norm the Python layer resolved: the glue's resolution is then checked without a GPU."""
    fftn = staticmethod(lambda a, s, axes, norm: np.fft.fftn(a, s, axes, norm))
    ifftn = staticmethod(lambda a, s, axes, norm: np.fft.ifftn(a, s, axes, norm))
    rfftn = staticmethod(lambda a, s, axes, norm: np.fft.rfftn(a, s, axes, norm))
    irfftn = staticmethod(lambda a, s, axes, norm: np.fft.irfftn(a, s, axes, norm))
    hfft = staticmethod(lambda a, n, axis, norm: np.fft.hfft(a, n, axis, norm))
    ihfft = staticmethod(lambda a, n, axis, norm: np.fft.ihfft(a, n, axis, norm))

    @staticmethod
    def check_args(s, axes, norm):
        assert all(isinstance(v, int) and v >= 1 for v in s), s
        assert all(isinstance(v, int) and v >= 0 for v in axes), axes
        assert norm in ("backward", "ortho", "forward"), norm


@pytest.fixture
def numpy_core(monkeypatch):
    from cuarray.fft import _transforms

    def checked(f, nd):
        def call(a, first, second, norm):
            if nd:
                _NumpyCore.check_args(first, second, norm)
            else:
                _NumpyCore.check_args([first], [second], norm)
            return f(a, first, second, norm)
        return call
    fake = type("FakeCore", (), {name: staticmethod(checked(getattr(_NumpyCore, name), name.endswith("n")))
                                 for name in ("fftn", "ifftn", "rfftn", "irfftn", "hfft", "ihfft")})
    monkeypatch.setattr(_transforms, "_fft", fake)
    monkeypatch.setattr(_transforms, "asarray", np.asarray)


@pytest.mark.parametrize("call", [
    lambda m, x: m.fft.fft(x), lambda m, x: m.fft.fft(x, n=5, axis=0), lambda m, x: m.fft.ifft(x, 9, -2, "ortho"),
    lambda m, x: m.fft.rfft(x, axis=1, norm="forward"), lambda m, x: m.fft.irfft(x), lambda m, x: m.fft.irfft(x, 7, 0),
    lambda m, x: m.fft.hfft(x, norm="ortho"), lambda m, x: m.fft.hfft(x, 11, 1, "forward"),
    lambda m, x: m.fft.ihfft(x, axis=0, norm="backward"), lambda m, x: m.fft.fftn(x),
    lambda m, x: m.fft.fftn(x, axes=(0, -1)), lambda m, x: m.fft.fftn(x, s=(3, -1), axes=(2, 0)),
    lambda m, x: m.fft.fftn(x, axes=(1, 1, 0)), lambda m, x: m.fft.ifftn(x, s=(5, 5), axes=(0, 0), norm="ortho"),
    lambda m, x: m.fft.fft2(x), lambda m, x: m.fft.ifft2(x, s=(2, 3)), lambda m, x: m.fft.rfftn(x),
    lambda m, x: m.fft.rfftn(x, s=(4, 9), axes=(2, 1)), lambda m, x: m.fft.rfftn(x, axes=(0, 0)),
    lambda m, x: m.fft.rfft2(x, norm="ortho"), lambda m, x: m.fft.irfftn(x), lambda m, x: m.fft.irfftn(x, axes=(1,)),
    lambda m, x: m.fft.irfftn(x, s=(4, 10), axes=(0, 2)), lambda m, x: m.fft.irfftn(x, axes=(2, 2)),
    lambda m, x: m.fft.irfft2(x, s=(6, -1)), lambda m, x: m.fft.fftn(x, s=(None, 4), axes=(1, 0)),
    lambda m, x: m.fft.irfftn(x, s=(3, None), axes=(0, 1)), lambda m, x: m.fft.fftn(x, s=(3, 4)),
])
def test_arguments_resolve_as_numpys_host(numpy_core, call, rng):
    for x in (rng.standard_normal((5, 6, 7)), rng.standard_normal((4, 6, 8)) + 1j):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                ref = call(np, x)
            except TypeError:
                continue
            got = call(cp, x)
        assert got.shape == ref.shape and got.dtype == ref.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


def test_out_checks_host(numpy_core, rng):
    x = rng.standard_normal((4, 8))
    out = np.empty((4, 8), np.complex64)
    assert cp.fft.fft(x, out=out) is out
    np.testing.assert_allclose(out, np.fft.fft(x), rtol=1e-5, atol=1e-5)
    expect_error(lambda: np.fft.fft(x, out=np.empty((4, 7), complex)),
                 lambda: cp.fft.fft(x, out=np.empty((4, 7), complex)), "output array has wrong shape.")
    expect_error(lambda: np.fft.fft(x, out=np.empty((4, 8))), lambda: cp.fft.fft(x, out=np.empty((4, 8))),
                 "Cannot cast ufunc 'fft' output from dtype('complex128') to dtype('float64') with casting rule "
                 "'same_kind'")


def test_plan_cache_api_host():
    cache = cp.fft.config.get_plan_cache()
    assert cache.device == cp.cuda.runtime.getDevice()
    assert (cache.get_size(), cache.get_memsize()) == (16, -1)
    try:
        cache.set_size(3)
        cache.set_memsize(1 << 20)
        assert (cache.get_size(), cache.get_memsize()) == (3, 1 << 20)
        assert cp.fft.config.get_plan_cache().get_size() == 3  # the device's, not the object's
        with pytest.raises(ValueError, match="invalid input"):
            cache.set_size(-2)
        with pytest.raises(ValueError, match="invalid input"):
            cache.set_memsize(-7)
        cache.set_size(-1)
        assert cache.get_size() == -1
    finally:
        cache.set_size(16)
        cache.set_memsize(-1)
    cache.clear()
    assert (cache.get_curr_size(), cache.get_curr_memsize()) == (0, 0)


def test_plan_cache_show_info(capsys):
    cp.fft.config.get_plan_cache().show_info()
    cp.fft.config.show_plan_cache_info()
    out = capsys.readouterr().out
    assert "cuFFT plan cache (device 0)" in out
    assert "current / max size   : " in out and "(counts)" in out
    assert "current / max memsize: " in out and "(unlimited) (bytes)" in out


# ---- GPU: results against NumPy ---------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_axis_every_dtype(name, dtype, rng):
    x = data(rng, (3, 24), dtype)
    check(name, x)
    check(name, x, axis=0)


@gpu
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_lengths_even_odd_prime_bluestein(name, n, rng):
    for dtype in (np.float64, np.complex64):
        x = data(rng, (2, n), dtype)
        check(name, x)
        check(name, x, n=n + 3)  # zero padding
        if n > 2:
            check(name, x, n=n // 2 + 1)  # truncation


@gpu
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn",
                                  "irfftn", "fft2", "ifft2", "rfft2", "irfft2"])
def test_every_norm(name, norm, rng):
    for dtype in (np.float32, np.complex128):
        check(name, data(rng, (6, 7, 10), dtype), norm=norm)


@gpu
@pytest.mark.parametrize("axes", [None, (0,), (1,), (2,), (-1,), (0, 1), (1, 0), (2, 0), (-1, -3), (0, 1, 2),
                                  (2, 1, 0), (1, 2, 0), (0, 0), (1, -2, 2), ()])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_axes_permutations_negative_repeated(name, axes, rng):
    for dtype in (np.float64, np.complex64, np.int16):
        check(name, data(rng, (4, 9, 6), dtype), axes=axes)


@gpu
@pytest.mark.parametrize("s, axes", [((4, 5), (0, 1)), ((8, 3), (1, 0)), ((-1, 12), (1, 2)), ((2, 3, 4), (0, 1, 2)),
                                     ((10,), (-2,)), ((5, 7), (0, 0))])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"])
def test_s_pads_and_truncates(name, s, axes, rng):
    if name.endswith("2") and len(axes) != 2:
        return
    for dtype in (np.float32, np.complex128):
        check(name, data(rng, (4, 9, 6), dtype), s=s, axes=axes)


def layouts(x):
    """Views of x whose memory is not C-contiguous: stepped, negative-stride, transposed, F-order."""
    return {
        "stepped": x[::2, 1::3],
        "negative": x[::-1, ::-2],
        "transposed": x.T,
        "fortran": np.asfortranarray(x) if isinstance(x, np.ndarray) else None,  # made on the host
        "middle": x[:, 2:-1],
    }


@gpu
@pytest.mark.parametrize("layout", ["stepped", "negative", "transposed", "fortran", "middle"])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn",
                                  "irfftn", "fft2", "rfft2", "irfft2"])
def test_strided_and_negative_stride_input(name, layout, rng):
    for dtype in (np.float64, np.complex64):
        x = data(rng, (12, 18), dtype)
        host = layouts(x)[layout]
        gpu_x = layouts(cp.asarray(x))[layout] if layout != "fortran" else cp.asarray(host)
        for kwargs in ({}, {"axis": 0}) if name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft") else ({},):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                try:
                    ref = getattr(np.fft, name)(host, **kwargs)
                except TypeError:
                    continue  # real transforms refuse complex input (tested elsewhere)
            assert_fft_close(getattr(cp.fft, name)(gpu_x, **kwargs), ref)


@gpu
def test_middle_axes_of_3d_and_4d_stacks(rng):
    x = data(rng, (3, 10, 4, 5), np.complex128)
    for axes in [(1,), (2,), (1, 2), (0, 2), (0, 1, 3), (0, 1, 2, 3), (3, 1)]:
        check("fftn", x, axes=axes)
        check("ifftn", x, axes=axes)
    xr = data(rng, (3, 10, 4, 5), np.float32)
    for axes in [(1,), (2,), (1, 2), (0, 2), (0, 1, 2, 3), (3, 1)]:
        check("fftn", xr, axes=axes)
        check("rfftn", xr, axes=axes)
        check("irfftn", check("rfftn", xr, axes=axes).get(), axes=axes)
    # the middle axis of 3 (one execution per outer index) and of 20 outer indices (a copy)
    for outer in (3, 20):
        for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
            for dtype in (np.float64, np.complex64):
                check(name, data(rng, (outer, 12, 5), dtype), axis=1)


@gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_round_trips(dtype, rng):
    x = data(rng, (5, 33), dtype)
    g = cp.asarray(x)
    assert_fft_close(cp.fft.ifft(cp.fft.fft(g)), x.astype(np.result_type(dtype, 1j)))
    assert_fft_close(cp.fft.ifftn(cp.fft.fftn(g, norm="ortho"), norm="ortho"), x.astype(np.result_type(dtype, 1j)))
    if np.dtype(dtype).kind == "f":
        assert_fft_close(cp.fft.irfft(cp.fft.rfft(g), n=33), x)
        assert_fft_close(cp.fft.irfftn(cp.fft.rfftn(g), s=x.shape), x)
        assert_fft_close(cp.fft.ihfft(cp.fft.hfft(cp.fft.ihfft(g), n=33)), np.fft.ihfft(x))


@gpu
def test_complex_input_to_real_transforms_is_numpys_type_error(rng):
    x = data(rng, (4, 6), np.complex64)
    for name in ("rfft", "ihfft", "rfftn", "rfft2"):
        check(name, x)


@gpu
def test_irfft_does_not_destroy_its_input(rng):
    x = data(rng, (4, 9), np.complex128)
    g = cp.asarray(x)
    for call in (lambda: cp.fft.irfft(g), lambda: cp.fft.irfftn(g), lambda: cp.fft.irfft2(g), lambda: cp.fft.hfft(g),
                 lambda: cp.fft.irfft(g[:, ::2], axis=0)):
        call()
        np.testing.assert_array_equal(cp.asnumpy(g), x)


@gpu
def test_forward_transforms_leave_their_input(rng):
    for dtype in (np.float32, np.float64, np.complex64):
        x = data(rng, (6, 10, 8), dtype)
        g = cp.asarray(x)
        calls = [lambda: cp.fft.fft(g), lambda: cp.fft.fftn(g), lambda: cp.fft.fft(g, axis=0), lambda: cp.fft.ifftn(g)]
        if np.dtype(dtype).kind == "f":
            calls += [lambda: cp.fft.rfft(g), lambda: cp.fft.rfftn(g), lambda: cp.fft.rfft2(g), lambda: cp.fft.ihfft(g)]
        for call in calls:
            call()
            np.testing.assert_array_equal(cp.asnumpy(g), x)


@gpu
def test_under_another_device(rng):
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("one GPU")
    x = data(rng, (4, 64), np.complex64)
    with cp.cuda.Device(1):
        cache = cp.fft.config.get_plan_cache()
        assert cache.device == 1
        cache.clear()
        g = cp.asarray(x)
        got = cp.fft.fft(g)
        assert got.device.id == 1
        assert cache.get_curr_size() == 1
        assert_fft_close(got, np.fft.fft(x))
        assert_fft_close(cp.fft.rfft(cp.asarray(x.real.copy())), np.fft.rfft(x.real))


@gpu
def test_out(rng):
    x = data(rng, (4, 8), np.float64)
    out = cp.empty((4, 8), np.complex128)
    r = cp.fft.fft(cp.asarray(x), out=out)
    assert r is out
    assert_fft_close(out, np.fft.fft(x))
    out64 = cp.empty((4, 8), np.complex64)
    assert cp.fft.fftn(cp.asarray(x), axes=(0, 1), out=out64) is out64
    np.testing.assert_allclose(cp.asnumpy(out64), np.fft.fftn(x).astype(np.complex64), rtol=1e-5, atol=1e-4)
    outr = cp.empty((4, 8), np.float64)
    assert cp.fft.irfft(cp.asarray(np.fft.rfft(x)), n=8, out=outr) is outr
    np.testing.assert_allclose(cp.asnumpy(outr), x, atol=1e-12)
    expect_error(lambda: np.fft.fft(x, out=np.empty((4, 7), complex)),
                 lambda: cp.fft.fft(cp.asarray(x), out=cp.empty((4, 7), complex)), "output array has wrong shape.")
    expect_error(lambda: np.fft.fft(x, out=np.empty((4, 8))), lambda: cp.fft.fft(cp.asarray(x), out=cp.empty((4, 8))),
                 "Cannot cast ufunc 'fft' output from dtype('complex128') to dtype('float64')")


@gpu
def test_size_zero_and_zero_d(rng):
    check("fft", np.ones((0, 5)), axis=1)
    check("rfft", np.ones((0, 5)))
    check("irfft", np.ones((3, 0, 5), np.complex64))
    check("fftn", np.ones((0, 4)), axes=(1,))
    check("fft", np.ones((0, 3)), axis=0)
    check("fft", np.float64(2.0))
    assert cp.fft.fftn(cp.asarray(np.ones((2, 2))), axes=()).dtype == np.float64  # NumPy: the input as is


@gpu
def test_large_real_input_uses_the_hermitian_fill(rng):
    for n in (2 ** 20, 2 ** 20 + 1):
        x = rng.standard_normal(n)
        check("fft", x)
        check("fft", x.astype(np.float32))


@gpu
@given(st.data())
def test_fftn_property_matches_numpy(draw):
    ndim = draw.draw(st.integers(1, 4))
    shape = tuple(draw.draw(st.lists(st.integers(1, 7), min_size=ndim, max_size=ndim)))
    axes = draw.draw(st.lists(st.integers(-ndim, ndim - 1), min_size=1, max_size=ndim, unique_by=lambda a: a % ndim))
    s = draw.draw(st.one_of(st.none(), st.lists(st.integers(1, 9), min_size=len(axes), max_size=len(axes))))
    name = draw.draw(st.sampled_from(["fftn", "ifftn", "rfftn", "irfftn"]))
    dtype = draw.draw(st.sampled_from([np.float32, np.float64, np.complex64, np.complex128]))
    if name == "rfftn" and np.dtype(dtype).kind == "c":
        dtype = np.float64
    x = data(np.random.default_rng(len(shape) * 1000 + sum(shape)), shape, dtype)
    if draw.draw(st.booleans()):
        x = np.flip(x, axis=0)
    check(name, x, s=s, axes=axes)


# ---- GPU: plan cache, streams, devices, dispatch -------------------------------------------------------

BIG_PRIME = 1_000_003


@gpu
def test_plan_cache_keeps_plans_and_evicts_by_count_and_bytes(rng):
    cache = cp.fft.config.get_plan_cache()
    cache.clear()
    x = cp.asarray(data(rng, (64,), np.complex64))
    try:
        cp.fft.fft(x)
        cp.fft.fft(x)
        assert cache.get_curr_size() == 1
        for n in range(2, 22):
            cp.fft.fft(x, n=n)
        assert cache.get_curr_size() == 16
        cache.set_size(4)
        assert cache.get_curr_size() == 4
        cache.set_size(0)  # off: every call makes its plan, and keeps none
        assert_fft_close(cp.fft.fft(x, n=1009), np.fft.fft(cp.asnumpy(x), n=1009))
        assert cache.get_curr_size() == 0
        cache.set_size(16)
        cp.fft.fft(x, n=BIG_PRIME)  # Bluestein at this length needs a work area (small primes need none)
        assert cache.get_curr_memsize() > 0
        cache.set_memsize(1)  # smaller than that plan's work area: evicted, and no longer kept
        assert cache.get_curr_size() == 0 or cache.get_curr_memsize() <= 1
        assert_fft_close(cp.fft.fft(x, n=BIG_PRIME), np.fft.fft(cp.asnumpy(x), n=BIG_PRIME))
    finally:
        cache.set_size(16)
        cache.set_memsize(-1)
        cache.clear()


@gpu
def test_idle_plans_hold_no_work_area(rng):
    cache = cp.fft.config.get_plan_cache()
    cache.clear()
    x = cp.asarray(data(rng, (2, BIG_PRIME), np.complex128))
    pool = cp.get_default_memory_pool() if hasattr(cp, "get_default_memory_pool") else cp.cuda.get_default_memory_pool()
    y = cp.fft.fft(x)
    cp.cuda.Stream.null.synchronize()
    assert cache.get_curr_memsize() > 0
    used = pool.used_bytes()
    del y
    y = cp.fft.fft(x)
    cp.cuda.Stream.null.synchronize()
    assert pool.used_bytes() == used  # the result again; the work area went back to the pool
    cache.clear()


@gpu
def test_runs_on_the_current_stream(rng):
    x = data(rng, (16, 256), np.complex64)
    s = cp.cuda.Stream()
    with s:
        g = cp.asarray(x)
        got = cp.fft.fft(g)
        back = cp.fft.ifft(got)
    s.synchronize()
    assert_fft_close(got, np.fft.fft(x))
    assert_fft_close(back, x)


@gpu
def test_numpy_dispatches_to_cuarray(rng):
    x = data(rng, (4, 10), np.float64)
    g = cp.asarray(x)
    for name, args in [("fft", ()), ("ifft", ()), ("rfft", ()), ("fftn", ()), ("rfftn", ()), ("irfftn", ()),
                       ("fft2", ()), ("hfft", ()), ("fftshift", ()), ("ifftshift", ())]:
        got = getattr(np.fft, name)(g, *args)
        assert isinstance(got, cp.ndarray), name
        assert_fft_close(got, getattr(np.fft, name)(x, *args))


@gpu
@pytest.mark.parametrize("n", [1, 2, 7, 8, 1009])
@pytest.mark.parametrize("d", [1.0, 0.25, np.float32(2.0)])
def test_fftfreq_rfftfreq(n, d):
    for name in ("fftfreq", "rfftfreq"):
        ref = getattr(np.fft, name)(n, d)
        got = getattr(cp.fft, name)(n, d)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=1e-15)
    assert cp.fft.fftfreq(5, device=0).shape == (5,)


@gpu
@pytest.mark.parametrize("axes", [None, 0, 1, -1, (0, 1), (1,), (0, 0)])
def test_fftshift_ifftshift(axes, rng):
    x = data(rng, (5, 8), np.float32)
    for name in ("fftshift", "ifftshift"):
        got = getattr(cp.fft, name)(cp.asarray(x), axes=axes)
        np.testing.assert_array_equal(cp.asnumpy(got), getattr(np.fft, name)(x, axes=axes))
    np.testing.assert_array_equal(cp.asnumpy(cp.fft.ifftshift(cp.fft.fftshift(cp.asarray(x)))), x)
