"""convolve and correlate of 1-D arrays: NumPy's modes, swaps, conjugation and result dtypes, by
the direct method or, for long float and complex inputs where a cost model says it is faster, by FFT.

Direct: two kernels, a general elementwise one (every dtype; each output sums its window; float16
sums in float32 as NumPy's dot does, integers wrap in their type) and, for the float32/float64
outputs whose window lies wholly inside the longer input, a tiled kernel that keeps eight outputs
per thread in registers (_TILED_SOURCE). FFT (_math/signal_fft.py): overlap-save block convolution
through cuFFT (one block: the whole-array transform), straight into the mode's outputs; where a
spectral product is not finite, the general kernel recomputes the result (NumPy's infinities and
NaNs stay where the direct sums put them), decided on the device.
"""
import operator

import numpy as _np

from . import signal_fft as _signal_fft
from .._ufunc import ufuncs as _ufuncs
from .._creation.creation import ascontiguousarray, asarray, empty
from .._kernels.raw_kernel import RawKernel
from .._kernels.user_kernels import ElementwiseKernel

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
    takes one more argument, a device bool `nonfinite` (shape (1,)), and leaves out untouched
    unless it is true: the FFT method's recomputation, decided on the device."""
    key = (dtype, guarded)
    if key not in _KERNELS:
        if dtype.kind == "b":
            acc, step = "bool", "s = s || (a[start + j] && v[j]);"
        else:
            acc = "float" if dtype == _np.float16 else "T"
            step = "s += cuarray_cast<acc_t>(a[start + j]) * cuarray_cast<acc_t>(v[j]);"
        # `nonfinite` is one value for every thread: each leaves before its first load.
        guard = "if (!nonfinite[0]) return;\n" if guarded else ""
        _KERNELS[key] = ElementwiseKernel(
            "raw T a, raw T v, int64 n, int64 m, int64 left, int64 first" + (", raw bool nonfinite" if guarded else ""),
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


def _by_fft(a, v, mode, dtype, reverse, block=None):
    """The same sums as _direct, by overlap-save FFT (_signal_fft.correlate; `block` forces its
    block length). A non-finite spectral product (an input's infinity or NaN spreads over a whole
    block's transform) raises a device flag, and the general kernel, guarded by it, recomputes
    every output: NumPy's infinities and NaNs land where its direct sums put them, and the host
    never waits."""
    n, m = a.shape[0], v.shape[0]
    length, left = _extent(mode, n, m)
    a = a.astype(dtype, copy=False)
    v = v.astype(dtype, copy=False)
    out, nonfinite = _signal_fft.correlate(a, v, left, length, dtype, block)
    _kernel(dtype, guarded=True)(a, v, n, m, left, 0, nonfinite, out)
    return out[::-1].copy() if reverse else out


# --- choosing the method ------------------------------------------------------------------------------
# A cost model in seconds, as scipy.signal.choose_conv_method estimates one:
#   direct: 3 launches; the interior outputs (window wholly inside a) on the tiled kernel where it
#           runs (float32/float64): a cost per output plus their (n - m + 1) m multiply-adds at its
#           rate; the edge outputs (half a window each on average, and all outputs where the tiled
#           kernel does not run: complex, short inputs) at the general kernel's rate;
#   fft:    overlap-save in the block length of least modelled cost (_signal_fft.blocks_seconds:
#           ~10 launches and a near-bandwidth count of bytes).
# The tiled kernel's constants are fitted to the forced-method measurements on an H200 at n = 1e6
# (full mode): float64 117 us at m = 256, 192 us at m = 512, 335 us at m = 1000; float32 82.5, 124,
# 213 and 399 us at m = 128 ... 1024: ~40 ns per 1000 outputs, plus 3.4e12 (float64) and 2.9e12
# (float32) multiply-adds per second (float32 is not twice float64: the kernel is bound by its
# shuffles, not its FMAs). The general kernel's ~1e12 real and ~5e11 complex multiply-adds per second
# are estimates. docs/numpy_functions.md has the crossovers this gives; the benchmark's crossover
# cases (numpy_functions.py) time both methods, forced, around them.
_LAUNCH_SECONDS = 3e-6
_TILED_SECONDS_PER_OUTPUT = 4e-11
_TILED_RATE = {_np.dtype(_np.float32): 2.9e12, _np.dtype(_np.float64): 3.4e12}
_GENERAL_RATE = {"f": 1e12, "c": 5e11}
_FFT_DTYPES = tuple(_np.dtype(t) for t in (_np.float32, _np.float64, _np.complex64, _np.complex128))


def _direct_seconds(n, m, mode, dtype):
    length, _ = _extent(mode, n, m)
    interior = n - m + 1
    interior_macs = interior * m
    edge_macs = (length - interior) * m / 2
    general_rate = _GENERAL_RATE[dtype.kind]
    if _tiles(n, m, dtype):
        work = interior * _TILED_SECONDS_PER_OUTPUT + interior_macs / _TILED_RATE[dtype] + edge_macs / general_rate
    else:
        work = (interior_macs + edge_macs) / general_rate
    return 3 * _LAUNCH_SECONDS + work


def _fft_seconds(n, m, mode, dtype):
    length, _ = _extent(mode, n, m)
    block = _signal_fft.block_length(length, m, dtype.itemsize)
    return _signal_fft.blocks_seconds(length, m, block, dtype.itemsize)


def _method(n, m, mode, dtype):
    """'direct' or 'fft' for len(a) = n >= len(v) = m. Integers and bool stay direct (NumPy's exact
    wrapping sums), and so does float16 (NumPy sums it in float32; cuFFT's half precision takes
    powers of two only)."""
    if dtype not in _FFT_DTYPES:
        return "direct"
    return "fft" if _fft_seconds(n, m, mode, dtype) < _direct_seconds(n, m, mode, dtype) else "direct"


def _correlate(a, v, mode, dtype, reverse, method, block):
    if method == "auto":
        method = _method(a.shape[0], v.shape[0], mode, dtype)
    if method == "fft":
        return _by_fft(a, v, mode, dtype, reverse, block)
    return _direct(a, v, mode, dtype, reverse)


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


def _convolve(a, v, mode, method, block=None):
    """convolve by `method`: 'auto' (the cost model's choice), 'direct' or 'fft' (tests, benchmarks),
    the FFT's block length forced by `block` (> the shorter input's length - 1; None: the model's)."""
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
    return _correlate(a, v[::-1], mode, _result_dtype(a, v), False, method, block)


def _cross_correlate(a, v, mode, method, block=None):
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
        return _correlate(v, a, mode, dtype, True, method, block)
    return _correlate(a, v, mode, dtype, False, method, block)
