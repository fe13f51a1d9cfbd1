"""convolve and correlate of 1-D arrays, by the direct method: one elementwise kernel in which each
output element sums its window's products (the longer array read through the cache, the shorter one
broadcast to every thread). NumPy's modes, swaps, conjugation and result dtypes; float16 sums in
float32 as NumPy's dot does, integers wrap in their type. An FFT method for long kernels arrives
with the FFT issue (the choice then goes where `_direct` is called).
"""
import operator

import numpy as _np

from . import _ufuncs
from ._creation import asarray, empty
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


def _kernel(dtype):
    """out[k] = sum_j a[k - left + j] * v[j] over the j that stay inside a."""
    if dtype not in _KERNELS:
        if dtype.kind == "b":
            acc, step = "bool", "s = s || (a[start + j] && v[j]);"
        else:
            acc = "float" if dtype == _np.float16 else "T"
            step = "s += cuarray_cast<acc_t>(a[start + j]) * cuarray_cast<acc_t>(v[j]);"
        _KERNELS[dtype] = ElementwiseKernel(
            "raw T a, raw T v, int64 n, int64 m, int64 left", "T out",
            "typedef %s acc_t;\n"
            "const long long start = (long long)i - left;\n"
            "const long long j0 = start < 0 ? -start : 0;\n"
            "const long long j1 = n - start < m ? n - start : m;\n"
            "acc_t s = acc_t(0);\n"
            "for (long long j = j0; j < j1; ++j) { %s }\n"
            "out = cuarray_cast<T>(s);" % (acc, step),
            "cuarray_correlate")
    return _KERNELS[dtype]


def _direct(a, v, mode, dtype, reverse):
    """NumPy's _pyarray_correlate with len(a) >= len(v): out[k] = sum_j a[k - n_left + j] * v[j]."""
    n, m = a.shape[0], v.shape[0]
    length, left = {0: (n - m + 1, 0), 1: (n, m // 2), 2: (n + m - 1, m - 1)}[mode]
    out = empty((length,), dtype)
    _kernel(dtype)(a.astype(dtype, copy=False), v.astype(dtype, copy=False), n, m, left,
                   out[::-1] if reverse else out)
    return out


def _one_dimensional(x, message):
    x = asarray(x)
    if x.ndim > 1:
        raise ValueError(message)
    return x.reshape(1) if x.ndim == 0 else x


def _result_dtype(a, v):
    return _np.correlate(_np.ones(1, a.dtype), _np.ones(1, v.dtype)).dtype


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D arrays (numpy.convolve)."""
    mode = _mode(mode)  # an argument error needs no data: raised before any device work
    a = _one_dimensional(a, "object too deep for desired array")
    v = _one_dimensional(v, "object too deep for desired array")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return _direct(a, v[::-1], mode, _result_dtype(a, v), False)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D arrays, c[k] = sum_n a[n + k] * conj(v[n]) (numpy.correlate)."""
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
        return _direct(v, a, mode, dtype, True)
    return _direct(a, v, mode, dtype, False)
