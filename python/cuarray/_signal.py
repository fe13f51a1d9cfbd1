"""convolve and correlate of 1-D arrays: NumPy's modes, swaps, conjugation and result dtypes, by
the direct method or, for long float and complex inputs where a cost model says it is faster, by FFT.

Direct: two kernels, a general elementwise one (every dtype; each output sums its window; float16
sums in float32 as NumPy's dot does, integers wrap in their type) and, for the float32/float64
outputs whose window lies wholly inside the longer input, a tiled kernel that keeps eight outputs
per thread in registers (_TILED_SOURCE). FFT (_signal_fft.py): the full linear convolution through
cuFFT, cut to the mode; where its result is not finite, the general kernel recomputes it (NumPy's
infinities and NaNs stay where the direct sums put them), decided on the device.
"""
import operator

import numpy as _np

from . import _reductions, _signal_fft, _ufuncs
from ._creation import ascontiguousarray, asarray, empty
from ._raw_kernel import RawKernel
from ._user_kernels import ElementwiseKernel

__all__ = ["convolve", "correlate"]

_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode(mode):
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
        return _MODES[mode]
    mode = operator.index(mode)
    if mode not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return mode


_KERNELS = {}


def _kernel(dtype, guarded=False):
    """out[i] = sum_j a[k - left + j] * v[j], k = i + first, over the j that stay inside a: any
    dtype; used for short inputs and for the outputs whose window leaves a. The guarded variant
    takes one more argument, a device bool `done` (shape (1,)), and leaves out untouched where it is
    true: the FFT method's recomputation, decided on the device."""
    key = (dtype, guarded)
    if key not in _KERNELS:
        if dtype.kind == "b":
            acc, step = "bool", "s = s || (a[start + j] && v[j]);"
        else:
            acc = "float" if dtype == _np.float16 else "T"
            step = "s += cuarray_cast<acc_t>(a[start + j]) * cuarray_cast<acc_t>(v[j]);"
        # `done` is one value for every thread: each leaves before its first store.
        guard = "if (done[0]) return;\n" if guarded else ""
        _KERNELS[key] = ElementwiseKernel(
            "raw T a, raw T v, int64 n, int64 m, int64 left, int64 first" + (", raw bool done" if guarded else ""),
            "T out",
            guard + "typedef %s acc_t;\n"
            "const long long start = (long long)i + first - left;\n"
            "const long long j0 = start < 0 ? -start : 0;\n"
            "const long long j1 = n - start < m ? n - start : m;\n"
            "acc_t s = acc_t(0);\n"
            "for (long long j = j0; j < j1; ++j) { %s }\n"
            "out = cuarray_cast<T>(s);" % (acc, step),
            "cuarray_correlate_guarded" if guarded else "cuarray_correlate")
    return _KERNELS[key]


# The interior outputs (window wholly inside a) of float32/float64, tiled: a block of 128 threads
# owns 1024 consecutive outputs, 8 per thread, accumulated in registers; the taps come in chunks
# of 256 through shared memory. Each thread keeps the 8 inputs its outputs need at the current tap
# in a register window, w[(s + r) % 8] = a[tile + 8 t + s + r]; the input that enters the window
# next is the oldest one of its right neighbour (a warp shuffle; lane 31 reads it from shared
# memory). A tap costs 8 FMAs, one shuffle and one broadcast load. Sums are FMAs in tap order.
_TILED_SOURCE = r"""
#define CONV_BLOCK 128
#define CONV_R 8
#define CONV_S 256
template <class T>
__device__ void correlate_interior(const T* __restrict__ a, long long n, const T* __restrict__ v, long long m,
                                   T* __restrict__ out, long long first, long long count, long long left) {
  constexpr int TILE = CONV_BLOCK * CONV_R;
  __shared__ T sa[TILE + CONV_S];
  __shared__ T sv[CONV_S];
  const int t = threadIdx.x, lane = t & 31;
  const long long tile_out = first + (long long)blockIdx.x * TILE;
  const long long tile_a = tile_out - left;
  T acc[CONV_R];
#pragma unroll
  for (int r = 0; r < CONV_R; ++r) acc[r] = T(0);
  for (long long c0 = 0; c0 < m; c0 += CONV_S) {
    const int steps = (int)(m - c0 < CONV_S ? m - c0 : CONV_S);
    __syncthreads();
    for (int x = t; x < TILE + CONV_S; x += CONV_BLOCK) {
      const long long ia = tile_a + c0 + x;
      sa[x] = (ia >= 0 && ia < n) ? a[ia] : T(0);
    }
    for (int x = t; x < CONV_S; x += CONV_BLOCK) sv[x] = x < steps ? v[c0 + x] : T(0);
    __syncthreads();
    T w[CONV_R];
#pragma unroll
    for (int r = 0; r < CONV_R; ++r) w[r] = sa[t * CONV_R + r];
    for (int s = 0; s < steps; s += CONV_R) {
#pragma unroll
      for (int jj = 0; jj < CONV_R; ++jj) {
        if (s + jj < steps) {
          const T vj = sv[s + jj];
#pragma unroll
          for (int r = 0; r < CONV_R; ++r) acc[r] = fma(w[(r + jj) % CONV_R], vj, acc[r]);
        }
        T next = __shfl_down_sync(0xffffffffu, w[jj], 1);
        if (lane == 31) next = sa[(t + 1) * CONV_R + s + jj];
        w[jj] = next;
      }
    }
  }
#pragma unroll
  for (int r = 0; r < CONV_R; ++r) {
    const long long k = tile_out + t * CONV_R + r;
    if (k < first + count) out[k] = acc[r];
  }
}

extern "C" __global__ void __launch_bounds__(CONV_BLOCK)
cuarray_correlate_interior_f32(const float* a, long long n, const float* v, long long m, float* out,
                               long long first, long long count, long long left) {
  correlate_interior<float>(a, n, v, m, out, first, count, left);
}
extern "C" __global__ void __launch_bounds__(CONV_BLOCK)
cuarray_correlate_interior_f64(const double* a, long long n, const double* v, long long m, double* out,
                               long long first, long long count, long long left) {
  correlate_interior<double>(a, n, v, m, out, first, count, left);
}
"""
_TILE_BLOCK, _TILE = 128, 128 * 8
_TILED_NAMES = {_np.dtype(_np.float32): "cuarray_correlate_interior_f32",
                _np.dtype(_np.float64): "cuarray_correlate_interior_f64"}
_TILED = {}


def _tiled_kernel(dtype):
    if dtype not in _TILED:
        _TILED[dtype] = RawKernel(_TILED_SOURCE, _TILED_NAMES[dtype])
    return _TILED[dtype]


def _extent(mode, n, m):
    """(output length, left): out[k] = sum_j a[k - left + j] * v[j] (NumPy's _pyarray_correlate)."""
    return {0: (n - m + 1, 0), 1: (n, m // 2), 2: (n + m - 1, m - 1)}[mode]


def _tiles(n, m, dtype):
    return dtype in _TILED_NAMES and m >= 8 and n - m + 1 >= _TILE


def _direct(a, v, mode, dtype, reverse):
    """NumPy's _pyarray_correlate with len(a) >= len(v): out[k] = sum_j a[k - left + j] * v[j].
    Outputs whose window lies inside a go to the tiled kernel (float32/float64, at least a tile
    of them and 8 taps), the rest to the general one."""
    n, m = a.shape[0], v.shape[0]
    length, left = _extent(mode, n, m)
    out = empty((length,), dtype)
    a = a.astype(dtype, copy=False)
    v = v.astype(dtype, copy=False)
    first = stop = 0
    if _tiles(n, m, dtype):
        first, stop = left, n - m + left + 1
        count = stop - first
        a, v = ascontiguousarray(a), ascontiguousarray(v)
        _tiled_kernel(dtype)(((count + _TILE - 1) // _TILE,), (_TILE_BLOCK,),
                             (a, _np.int64(n), v, _np.int64(m), out, _np.int64(first), _np.int64(count),
                              _np.int64(left)))
    general = _kernel(dtype)
    for lo, hi in ((0, first), (stop, length)):
        if hi > lo:
            general(a, v, n, m, left, lo, out[lo:hi])
    return out[::-1].copy() if reverse else out


def _by_fft(a, v, mode, dtype, reverse):
    """The same sums as _direct, as the linear convolution of a with v reversed (full mode: entry
    k + m - 1 - left of it). A result with an infinity or NaN anywhere (an input's non-finite value
    spreads over the whole transform) is recomputed by the general kernel: the check and the
    recomputation are queued on the device, whose guard leaves a finite result as it is."""
    n, m = a.shape[0], v.shape[0]
    length, left = _extent(mode, n, m)
    a = a.astype(dtype, copy=False)
    v = v.astype(dtype, copy=False)
    full = _signal_fft.linear_convolution(a, v[::-1], dtype)
    start = m - 1 - left
    out = full[start:start + length]
    if 2 * length < full.shape[0]:  # a short cut of a long transform does not keep all of it
        out = out.copy()
    finite = _reductions.all(_ufuncs.isfinite(out)).reshape(1)
    _kernel(dtype, guarded=True)(a, v, n, m, left, 0, finite, out)
    return out[::-1].copy() if reverse else out


# --- choosing the method ------------------------------------------------------------------------------
# A cost model in seconds, as scipy.signal.choose_conv_method estimates one:
#   direct: the interior outputs' multiply-adds (n - m + 1 windows of m) at the tiled kernel's rate
#           where it runs (float32/float64), the edge outputs' (half a window each on average, and all
#           outputs where the tiled kernel does not run: complex, short inputs) at the general
#           kernel's, plus about 3 launches;
#   fft:    three transforms of the padded length L, each ~ L log2 L, plus about 10 launches (two
#           padding copies, the transforms' own, the product, the finiteness check, the guard).
# The rates come from one measurement, on an H200: 1e6 x 1e3 float64 full by the tiled kernel took
# 335 us, 3.0e12 multiply-adds per second. The rest are estimates from it: float32 at twice that
# (the H100/H200 FP32 FMA rate is twice FP64's), the general kernel (two loads per multiply-add) at
# ~1e12 real and ~5e11 complex multiply-adds per second, cuFFT at ~0.5 ns per L log2 L point in
# double precision, half that in single, complex transforms (full length) twice the real ones. With
# them, n = 1e6 crosses over at m = 174 (float64), 258 (float32), 44 (complex128); n = 1e4 at m ~ 4500
# (the edges' general-kernel work). docs/numpy_functions.md has the table; the benchmark's
# crossover cases (numpy_functions.py) measure both methods around it.
_LAUNCH_SECONDS = 4e-6
_TILED_RATE = {_np.dtype(_np.float32): 6e12, _np.dtype(_np.float64): 3e12}
_GENERAL_RATE = {"f": 1e12, "c": 5e11}
_FFT_SECONDS_PER_POINT_LOG = {_np.dtype(_np.float32): 2.5e-13, _np.dtype(_np.float64): 5e-13,
                              _np.dtype(_np.complex64): 5e-13, _np.dtype(_np.complex128): 1e-12}


def _direct_seconds(n, m, mode, dtype):
    length, _ = _extent(mode, n, m)
    interior = n - m + 1
    interior_macs = interior * m
    edge_macs = (length - interior) * m / 2
    general_rate = _GENERAL_RATE[dtype.kind]
    if _tiles(n, m, dtype):
        work = interior_macs / _TILED_RATE[dtype] + edge_macs / general_rate
    else:
        work = (interior_macs + edge_macs) / general_rate
    return 3 * _LAUNCH_SECONDS + work


def _fft_seconds(n, m, dtype):
    size = _signal_fft.fast_length(n + m - 1)
    return 10 * _LAUNCH_SECONDS + 3 * _FFT_SECONDS_PER_POINT_LOG[dtype] * _signal_fft.transform_seconds_factor(size)


def _method(n, m, mode, dtype):
    """'direct' or 'fft' for len(a) = n >= len(v) = m. Integers and bool stay direct (NumPy's exact
    wrapping sums), and so does float16 (NumPy sums it in float32; cuFFT's half precision takes
    powers of two only)."""
    if dtype not in _FFT_SECONDS_PER_POINT_LOG:
        return "direct"
    return "fft" if _fft_seconds(n, m, dtype) < _direct_seconds(n, m, mode, dtype) else "direct"


_METHODS = {"direct": _direct, "fft": _by_fft}


def _correlate(a, v, mode, dtype, reverse, method):
    if method == "auto":
        method = _method(a.shape[0], v.shape[0], mode, dtype)
    return _METHODS[method](a, v, mode, dtype, reverse)


def _one_dimensional(x, message):
    x = asarray(x)
    if x.ndim > 1:
        raise ValueError(message)
    return x.reshape(1) if x.ndim == 0 else x


def _result_dtype(a, v):
    return _np.correlate(_np.ones(1, a.dtype), _np.ones(1, v.dtype)).dtype


# NumPy 2.4 checks for empty inputs before swapping the shorter one second (numpy#30277); before,
# an empty `a` with a longer `v` reported "v cannot be empty". Follow the NumPy installed.
_CONVOLVE_SWAPS_FIRST = _np.lib.NumpyVersion(_np.__version__) < "2.4.0"


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D arrays (numpy.convolve)."""
    return _convolve(a, v, mode, "auto")


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D arrays, c[k] = sum_n a[n + k] * conj(v[n]) (numpy.correlate)."""
    return _cross_correlate(a, v, mode, "auto")


def _convolve(a, v, mode, method):
    """convolve by `method`: 'auto' (the cost model's choice), 'direct' or 'fft' (tests, benchmarks)."""
    mode = _mode(mode)  # an argument error needs no data: raised before any device work
    a = _one_dimensional(a, "object too deep for desired array")
    v = _one_dimensional(v, "object too deep for desired array")
    if _CONVOLVE_SWAPS_FIRST and v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _correlate(a, v[::-1], mode, _result_dtype(a, v), False, method)


def _cross_correlate(a, v, mode, method):
    """correlate by `method`, as _convolve."""
    mode = _mode(mode)
    message = ("setting an array element with a sequence. The requested array would exceed the "
               "maximum number of dimension of 1.")
    a, v = _one_dimensional(a, message), _one_dimensional(v, message)
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    dtype = _result_dtype(a, v)
    if v.dtype.kind == "c":
        v = _ufuncs.conjugate(v)
    if a.shape[0] < v.shape[0]:  # NumPy swaps and writes the result reversed
        return _correlate(v, a, mode, dtype, True, method)
    return _correlate(a, v, mode, dtype, False, method)
