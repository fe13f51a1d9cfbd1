"""packbits and unpackbits: one elementwise kernel over the output, each thread gathering its
eight bits (or picking its one bit) from the input seen as a raw array, so any layout or axis is
read in place, without a transposed copy."""
import operator

import numpy as _np

from .._creation.creation import asarray, empty
from .._kernels.user_kernels import ElementwiseKernel

__all__ = ["packbits", "unpackbits"]

# The input is seen as (rows, n) with the packed axis last (a view); output element i is byte
# i % nout of row i / nout.
_PACK = ElementwiseKernel(
    "raw T a, int64 n, int64 nout, bool little", "uint8 out",
    """
    const long long row = (long long)i / nout, k = (long long)i % nout;
    const long long first = k * 8, count = n - first < 8 ? n - first : 8;
    unsigned int byte = 0;
    for (long long b = 0; b < count; ++b) {
      const unsigned int bit = a[row * n + first + b] != T(0) ? 1u : 0u;
      byte |= bit << (little ? b : 7 - b);
    }
    out = (unsigned char)byte;
    """, "cuarray_packbits")

# Output element i is bit i % nout of row i / nout; bits past the input's (count > 8 n) are 0.
_UNPACK = ElementwiseKernel(
    "raw uint8 a, int64 n, int64 nout, bool little", "uint8 out",
    """
    const long long row = (long long)i / nout, j = (long long)i % nout;
    out = j < 8 * n ? (unsigned char)((a[row * n + j / 8] >> (little ? j % 8 : 7 - j % 8)) & 1) : 0;
    """, "cuarray_unpackbits")


def _axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _flat_or_axis(a, axis):
    """(array, axis) as packbits/unpackbits see them: None packs the flattened array, a 0-d array
    is one element along its axis."""
    if axis is None:
        return a.reshape(-1), 0
    if a.ndim == 0:
        return a.reshape(1), _axis(axis, 1)
    return a, _axis(axis, a.ndim)


def packbits(a, axis=None, bitorder="big"):
    """Packs the elements of a binary-valued array into bits of uint8 (numpy.packbits)."""
    if not isinstance(bitorder, str):
        raise TypeError(f"pack() argument 3 must be str, not {type(bitorder).__name__}")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    a, axis = _flat_or_axis(a, axis)
    n = a.shape[axis]
    shape = list(a.shape)
    shape[axis] = (n + 7) // 8
    out = empty(tuple(shape), _np.uint8)
    if out.size:
        moved = a.transpose([d for d in range(a.ndim) if d != axis] + [axis])
        target = out.transpose([d for d in range(a.ndim) if d != axis] + [axis])
        _PACK(moved, n, shape[axis], bitorder == "little", target)
    return out


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """Unpacks uint8 elements into bits (numpy.unpackbits); count keeps that many bits along the
    axis, padding with zeros or dropping from the end when negative."""
    if not isinstance(bitorder, str) or bitorder[:1] not in ("l", "b"):
        raise ValueError("'order' must begin with 'l' or 'b'")
    if count is not None:
        count = operator.index(count)
    a = asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    a, axis = _flat_or_axis(a, axis)
    n = a.shape[axis]
    bits = 8 * n
    if count is not None:
        if count < 0:
            if -count > bits:
                raise ValueError("-count larger than number of elements")
            bits += count
        else:
            bits = count
    shape = list(a.shape)
    shape[axis] = bits
    out = empty(tuple(shape), _np.uint8)
    if out.size:
        order = [d for d in range(a.ndim) if d != axis] + [axis]
        _UNPACK(a.transpose(order), n, bits, bitorder[0] == "l", out.transpose(order))
    return out
