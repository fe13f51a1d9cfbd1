"""The FFT method of convolve and correlate: the full linear convolution of two 1-D arrays as the
inverse transform of the product of their zero-padded transforms (real input: rfft/irfft, complex:
fft/ifft, cuFFT through cuarray.fft's C++ transforms). The padded length is the next 2,3,5,7-smooth
length, cuFFT's fast radices. _signal.py decides when to use it and cuts NumPy's modes out of it."""
import math

from . import _core
from ._user_kernels import ElementwiseKernel

_fft = _core.fft

# The spectra's product, with the inverse transform's 1/L folded in (the inverse then runs with
# norm="forward", which does not scale): one pass instead of two.
_PRODUCT = ElementwiseKernel("T x, T y, float64 scale", "T z", "z = x * y * scale", "cuarray_spectrum_product")


def fast_length(target):
    """The smallest 2,3,5,7-smooth integer >= target (>= 1)."""
    best = 1 << max(target - 1, 0).bit_length()  # a power of two always qualifies
    odd7 = 1
    while odd7 < best:
        odd5 = odd7
        while odd5 < best:
            odd3 = odd5
            while odd3 < best:
                # the smallest power-of-two multiple of odd3 that reaches target
                quotient = -(-target // odd3)
                best = min(best, odd3 << (quotient - 1).bit_length())
                odd3 *= 3
            odd5 *= 5
        odd7 *= 7
    return best


def transform_seconds_factor(size):
    """L log2 L: the cost of one transform of `size` points, in the units of _signal's cost model."""
    return size * math.log2(max(size, 2))


def linear_convolution(a, b, dtype):
    """(a * b)[k] = sum_j a[k - j] b[j] for k < len(a) + len(b) - 1: the first entries of the
    returned array, whose length is the padded transform length. a and b are of `dtype` (float32,
    float64, complex64 or complex128), and so is the result."""
    size = fast_length(a.shape[0] + b.shape[0] - 1)
    forward = _fft.fftn if dtype.kind == "c" else _fft.rfftn
    spectrum = forward(a, [size], [0], "backward")
    _PRODUCT(spectrum, forward(b, [size], [0], "backward"), 1.0 / size, spectrum)
    if dtype.kind == "c":
        return _fft.ifftn(spectrum, [size], [0], "forward")
    # the product is ours: the complex-to-real transform may destroy it instead of a copy
    return _fft.irfftn(spectrum, [size], [0], "forward", True)
