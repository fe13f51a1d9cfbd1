"""Host-only: the bodies of interp's, packbits'/unpackbits' and correlate's elementwise kernels
and of the FFT method's gathers and spectral product,
built by the host C++ compiler around plain arrays (a stand-in for CArray's flat indexing) and
run against NumPy. This checks each kernel's logic on machines without a GPU: brackets,
duplicates, NaN and infinity fallbacks, bit orders, counts, window bounds. Skipped where no C++
compiler is found; the GPU tests run the real kernels."""
import ctypes
import shutil
import subprocess

import numpy as np
import pytest

from cuarray._math import misc as _math_misc

from cuarray._manipulation import packing as _packing

from cuarray._math import signal as _signal

from cuarray._math import signal_fft as _signal_fft

CXX = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
pytestmark = pytest.mark.skipif(CXX is None, reason="no host C++ compiler")

_PRELUDE = r"""
#include <cmath>
#include <complex>
using std::isnan;
using std::isfinite;
template <class T> bool isfinite(const std::complex<T>& z) {
  return std::isfinite(z.real()) && std::isfinite(z.imag());
}
template <class T> struct Flat { const T* p; T operator[](long long i) const { return p[i]; } };
template <class A, class B> A cuarray_cast(B b) { return static_cast<A>(b); }
"""

_SOURCE = _PRELUDE + r"""
extern "C" void interp(const double* xs, long long count, const double* xp_data, const double* fp_data,
                       long long m, double left_value, double right_value, bool left_is_first,
                       bool right_is_last, double* ys) {
  Flat<double> xp{xp_data}, fp{fp_data};
  for (long long i = 0; i < count; ++i) { const double x = xs[i]; double y; %(interp)s ys[i] = y; }
}
extern "C" void pack(const int* data, long long n, long long nout, bool little, unsigned char* outs, long long total) {
  typedef int T;
  Flat<int> a{data};
  for (long long i = 0; i < total; ++i) { unsigned char out; %(pack)s outs[i] = out; }
}
extern "C" void unpack(const unsigned char* data, long long n, long long nout, bool little, unsigned char* outs,
                       long long total) {
  Flat<unsigned char> a{data};
  for (long long i = 0; i < total; ++i) { unsigned char out; %(unpack)s outs[i] = out; }
}
extern "C" void correlate(const double* a_data, const double* v_data, long long n, long long m, long long left,
                          long long first, double* outs, long long total) {
  typedef double T;
  Flat<double> a{a_data}, v{v_data};
  for (long long i = 0; i < total; ++i) { T out; %(correlate)s outs[i] = out; }
}
extern "C" void gather_blocks(const double* a_data, long long n, long long block, long long step, long long shift,
                              double* outs, long long total) {
  typedef double T;
  Flat<double> a{a_data};
  for (long long i = 0; i < total; ++i) { T blocks; %(gather_blocks)s outs[i] = blocks; }
}
extern "C" void product(const std::complex<double>* xs, const std::complex<double>* ys, long long rows,
                        long long columns, double scale, bool* nonfinite, std::complex<double>* zs) {
  typedef std::complex<double> T;
  for (long long i = 0; i < rows * columns; ++i) {
    const T x = xs[i], y = ys[i %% columns];  // y broadcast over the rows
    T z; %(product)s zs[i] = z;
  }
}
extern "C" void gather_output(const double* rows_data, long long block, long long step, long long skip,
                              double* outs, long long total) {
  typedef double T;
  Flat<double> rows{rows_data};
  for (long long i = 0; i < total; ++i) { T out; %(gather_output)s outs[i] = out; }
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernel_logic")
    source = folder / "bodies.cpp"
    source.write_text(_SOURCE % dict(interp=_math_misc._INTERP.operation, pack=_packing._PACK.operation,
                                     unpack=_packing._UNPACK.operation,
                                     correlate=_signal._kernel(np.dtype(np.float64)).operation,
                                     gather_blocks=_signal_fft._GATHER_BLOCKS.operation,
                                     product=_signal_fft._PRODUCT.operation,
                                     gather_output=_signal_fft._GATHER_OUTPUT.operation))
    library = folder / "libbodies.so"
    subprocess.run([CXX, "-O1", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return ctypes.CDLL(str(library))


def _ptr(a, ctype=ctypes.c_double):
    return a.ctypes.data_as(ctypes.POINTER(ctype))


_I64 = ctypes.c_longlong


def test_interp_body_matches_numpy(lib, rng):
    for trial in range(150):
        m = int(rng.integers(1, 40))
        xp = np.sort(np.round(rng.uniform(-5, 5, m) * 2) / 2)  # ties: duplicated sample points
        fp = rng.standard_normal(m)
        if trial % 3 == 0:
            fp[rng.integers(0, m)] = rng.choice([np.inf, -np.inf, np.nan])
        x = np.concatenate([rng.uniform(-7, 7, 50), xp, [np.nan, np.inf, -np.inf]])
        for left, right in ((None, None), (-1.5, 2.0)):
            got = np.empty_like(x)
            lib.interp(_ptr(x), _I64(x.size), _ptr(xp), _ptr(fp), _I64(m), ctypes.c_double(left or 0.0),
                       ctypes.c_double(right or 0.0), ctypes.c_bool(left is None), ctypes.c_bool(right is None),
                       _ptr(got))
            np.testing.assert_array_equal(got, np.interp(x, xp, fp, left, right))


def test_pack_and_unpack_bodies_match_numpy(lib, rng):
    for _ in range(60):
        rows, n = (int(v) for v in rng.integers(1, 30, 2))
        for order in ("big", "little"):
            little = ctypes.c_bool(order == "little")
            a = rng.integers(-2, 3, (rows, n)).astype(np.int32)
            ref = np.packbits(a, axis=1, bitorder=order)
            got = np.empty_like(ref)
            lib.pack(_ptr(a, ctypes.c_int), _I64(n), _I64(ref.shape[1]), little, _ptr(got, ctypes.c_ubyte),
                     _I64(got.size))
            np.testing.assert_array_equal(got, ref)
            u = rng.integers(0, 256, (rows, n)).astype(np.uint8)
            for count in (None, 0, 3, 8 * n + 5, -2):
                ref = np.unpackbits(u, axis=1, count=count, bitorder=order)
                got = np.empty_like(ref)
                lib.unpack(_ptr(u, ctypes.c_ubyte), _I64(n), _I64(ref.shape[1]), little, _ptr(got, ctypes.c_ubyte),
                           _I64(got.size))
                np.testing.assert_array_equal(got, ref)


def test_correlate_body_matches_numpy(lib, rng):
    for _ in range(150):
        n, m = sorted((int(v) for v in rng.integers(1, 40, 2)), reverse=True)
        a, v = rng.standard_normal(n), rng.standard_normal(m)
        for mode, (length, left) in {"valid": (n - m + 1, 0), "same": (n, m // 2), "full": (n + m - 1, m - 1)}.items():
            first = int(rng.integers(0, length))  # the general kernel also runs on a tail of the output
            got = np.empty(length - first)
            lib.correlate(_ptr(a), _ptr(v), _I64(n), _I64(m), _I64(left), _I64(first), _ptr(got), _I64(got.size))
            np.testing.assert_allclose(got, np.correlate(a, v, mode)[first:], rtol=1e-12, atol=1e-12)


def _overlap_save(lib, a, v, length, left, block):
    """_signal_fft.correlate with its three kernel bodies, numpy.fft for cuFFT: (out, nonfinite)."""
    n, m = a.size, v.size
    plan = _signal_fft.BlockPlan.of(length, m, left, block)
    blocks = np.empty((plan.count, plan.block))
    lib.gather_blocks(_ptr(a), _I64(n), _I64(plan.block), _I64(plan.step), _I64(plan.shift), _ptr(blocks),
                      _I64(blocks.size))
    spectra = np.ascontiguousarray(np.fft.rfft(blocks, axis=1))
    window = np.empty(plan.block)
    reversed_v = np.ascontiguousarray(v[::-1])
    lib.gather_blocks(_ptr(reversed_v), _I64(m), _I64(plan.block), _I64(plan.block), _I64(0), _ptr(window),
                      _I64(plan.block))
    kernel = np.ascontiguousarray(np.fft.rfft(window))
    nonfinite = ctypes.c_bool(False)
    complex_ptr = ctypes.POINTER(ctypes.c_double)
    lib.product(spectra.ctypes.data_as(complex_ptr), kernel.ctypes.data_as(complex_ptr), _I64(spectra.shape[0]),
                _I64(spectra.shape[1]), ctypes.c_double(1.0 / plan.block), ctypes.byref(nonfinite),
                spectra.ctypes.data_as(complex_ptr))
    rows = np.ascontiguousarray(np.fft.irfft(spectra, plan.block, axis=1, norm="forward"))
    out = np.empty(length)
    lib.gather_output(_ptr(rows), _I64(plan.block), _I64(plan.step), _I64(plan.skip), _ptr(out), _I64(length))
    return out, nonfinite.value


def test_overlap_save_bodies_match_numpy(lib, rng):
    for trial in range(200):
        n, m = sorted((int(v) for v in rng.integers(1, 60, 2)), reverse=True)
        a, v = rng.standard_normal(n), rng.standard_normal(m)
        for mode, (length, left) in {"valid": (n - m + 1, 0), "same": (n, m // 2), "full": (n + m - 1, m - 1)}.items():
            whole = _signal_fft.fast_length(length + m - 1)
            for block in {max(m, 2), m + 1, whole, int(rng.integers(max(m, 2), whole + 2))}:
                got, nonfinite = _overlap_save(lib, a, v, length, left, block)
                assert not nonfinite
                np.testing.assert_allclose(got, np.correlate(a, v, mode), rtol=0,
                                           atol=1e-12 * np.abs(a).sum() * np.abs(v).sum())


def test_product_flags_non_finite_spectra(lib, rng):
    a, v = rng.standard_normal(50), rng.standard_normal(7)
    for bad, value in (("a", np.inf), ("a", np.nan), ("v", -np.inf), ("a", 1e300)):
        x, y = a.copy(), v.copy()
        (x if bad == "a" else y)[3] = value
        if value == 1e300:  # finite input whose spectra's product overflows
            y[0] = 1e300
        with np.errstate(invalid="ignore", over="ignore"):
            assert _overlap_save(lib, x, y, 56, 6, 16)[1], (bad, value)
