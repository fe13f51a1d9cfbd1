"""numpy.fft's transforms: NumPy's defaults, argument checks (in NumPy's order, with its exception
types, messages and NumPy 2's deprecation warnings) and ``out=``, in front of the C++ transforms
(cuarray/fft.hpp). The checks look only at the input's shape, before it is moved to the GPU."""
import operator
import warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray

_fft = _core.fft
_SWAP_DIRECTION = {"backward": "forward", None: "forward", "ortho": "ortho", "forward": "backward"}


def _shape(a):
    # np.shape of a cuarray array would go through __array_function__: read it directly.
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def _forward_norm(norm):
    if norm is None or norm == "backward":
        return "backward"
    if norm == "ortho" or norm == "forward":
        return norm
    raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _swap_direction(norm):
    try:
        return _SWAP_DIRECTION[norm]
    except KeyError:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".') from None


def _step(n, axis, ndim, norm, inverse):
    """NumPy's checks of one 1-D transform (_raw_fft): the length, the norm, the axis; returns the
    norm named for the forward direction's caller and the normalized axis and length."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    norm = _forward_norm(_swap_direction(norm) if inverse else norm)
    if inverse:  # back to the name the transform itself takes
        norm = _SWAP_DIRECTION[norm]
    axis = normalize_axis_index(axis, ndim)
    return operator.index(n), axis, norm


def _into(out, result, name):
    """NumPy's out=: the result's shape, and a same_kind cast into out's dtype."""
    if out is None:
        return result
    if tuple(getattr(out, "shape", ())) != tuple(result.shape):
        raise ValueError("output array has wrong shape.")
    if not _np.can_cast(result.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to {out.dtype!r} with casting "
                        "rule 'same_kind'")
    out[...] = result
    return out


def _rfft_name(n):
    return "rfft_n_even" if n % 2 == 0 else "rfft_n_odd"


# ---- one axis ----

def fft(a, n=None, axis=-1, norm=None, out=None):
    """1-D discrete Fourier transform, as numpy.fft.fft."""
    shape = _shape(a)
    if n is None:
        n = shape[axis]
    n, axis, norm = _step(n, axis, len(shape), norm, False)
    return _into(out, _fft.fftn(asarray(a), [n], [axis], norm), "fft")


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """1-D inverse discrete Fourier transform, as numpy.fft.ifft."""
    shape = _shape(a)
    if n is None:
        n = shape[axis]
    n, axis, norm = _step(n, axis, len(shape), norm, True)
    return _into(out, _fft.ifftn(asarray(a), [n], [axis], norm), "ifft")


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """1-D transform of real input (n // 2 + 1 outputs), as numpy.fft.rfft."""
    shape = _shape(a)
    if n is None:
        n = shape[axis]
    n, axis, norm = _step(n, axis, len(shape), norm, False)
    return _into(out, _fft.rfftn(asarray(a), [n], [axis], norm), _rfft_name(n))


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of rfft (n real outputs, default 2 * (m - 1)), as numpy.fft.irfft."""
    shape = _shape(a)
    if n is None:
        n = (shape[axis] - 1) * 2
    n, axis, norm = _step(n, axis, len(shape), norm, True)
    return _into(out, _fft.irfftn(asarray(a), [n], [axis], norm), "irfft")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """Transform of a Hermitian-symmetric signal (real spectrum), as numpy.fft.hfft (which ignores out=)."""
    shape = _shape(a)
    if n is None:
        n = (shape[axis] - 1) * 2
    new_norm = _swap_direction(norm)
    n, axis, _ = _step(n, axis, len(shape), new_norm, True)
    return _fft.hfft(asarray(a), n, axis, _forward_norm(norm))


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of hfft, as numpy.fft.ihfft."""
    shape = _shape(a)
    if n is None:
        n = shape[axis]
    new_norm = _swap_direction(norm)
    n, axis, _ = _step(n, axis, len(shape), new_norm, False)
    return _into(out, _fft.ihfft(asarray(a), n, axis, _forward_norm(norm)), _rfft_name(n))


# ---- several axes ----

def _cook_nd_args(shape, s=None, axes=None, invreal=False):
    """NumPy 2's defaults of s and axes, with its deprecation warnings (numpy/fft/_pocketfft.py)."""
    if s is None:
        shapeless = True
        s = list(shape) if axes is None else _np.take(shape, axes)
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future "
                          "version of NumPy, this will raise an error and `s[i]` will correspond to the size along "
                          "the transformed axis specified by `axes[i]`. To retain current behaviour, pass a "
                          "sequence [0, ..., k-1] to `axes` for an array of dimension k.",
                          DeprecationWarning, stacklevel=3)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise "
                      "an error in a future version of NumPy. To use the default behaviour of the corresponding 1-D "
                      "transform, pass the value matching the default for its `n` parameter. To use the default "
                      "behaviour for every axis, the `s` argument can be omitted.",
                      DeprecationWarning, stacklevel=3)
    s = [shape[_a] if _s == -1 else _s for _s, _a in zip(s, axes)]
    return s, list(axes)


def _steps(shape, s, axes, order, norm, inverse_of, halved=None):
    """NumPy's 1-D steps of an n-D transform, checked in NumPy's order: `order` lists the indices
    into s/axes in the order NumPy runs them; inverse_of(i) says whether step i is an inverse one;
    `halved` is the index of the real axis whose complex side has n // 2 + 1 entries. A None in s
    takes the axis's length at that step. Returns the resolved lengths, axes and the norm."""
    current = list(shape)
    lengths, normalized, name = list(s), list(axes), "backward"
    for i in order:
        n = s[i]
        if n is None:
            n = current[axes[i]] if i != halved or not inverse_of(i) else (current[axes[i]] - 1) * 2
        n, axis, name = _step(n, axes[i], len(shape), norm, inverse_of(i))
        lengths[i], normalized[i] = n, axis
        current[axis] = n // 2 + 1 if i == halved and not inverse_of(i) else n
    return lengths, normalized, name


def _c2c_nd(a, s, axes, norm, out, inverse, name):
    shape = _shape(a)
    s, axes = _cook_nd_args(shape, s, axes)
    if not axes:
        return asarray(a)
    order = range(len(axes) - 1, -1, -1)
    s, axes, norm = _steps(shape, s, axes, order, norm, lambda i: inverse)
    transform = _fft.ifftn if inverse else _fft.fftn
    return _into(out, transform(asarray(a), s, axes, norm), name)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """N-D discrete Fourier transform, as numpy.fft.fftn."""
    return _c2c_nd(a, s, axes, norm, out, False, "fft")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """N-D inverse discrete Fourier transform, as numpy.fft.ifftn."""
    return _c2c_nd(a, s, axes, norm, out, True, "ifft")


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-D discrete Fourier transform, as numpy.fft.fft2."""
    return _c2c_nd(a, s, axes, norm, out, False, "fft")


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-D inverse discrete Fourier transform, as numpy.fft.ifft2 (which ignores out=)."""
    return _c2c_nd(a, s, axes, norm, None, True, "ifft")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """N-D transform of real input (the last axis halved), as numpy.fft.rfftn."""
    shape = _shape(a)
    s, axes = _cook_nd_args(shape, s, axes)
    last = len(axes) - 1
    if last < 0:
        raise IndexError("list index out of range")
    order = [last] + list(range(last - 1, -1, -1))
    s, axes, norm = _steps(shape, s, axes, order, norm, lambda i: False, halved=last)
    return _into(out, _fft.rfftn(asarray(a), s, axes, norm), "fft" if last > 0 else _rfft_name(s[-1]))


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-D transform of real input, as numpy.fft.rfft2."""
    return rfftn(a, s, axes, norm, out=out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of rfftn (s[-1] real outputs along the last axis), as numpy.fft.irfftn."""
    shape = _shape(a)
    s, axes = _cook_nd_args(shape, s, axes, invreal=True)
    last = len(axes) - 1
    if last < 0:
        raise IndexError("tuple index out of range")
    order = list(range(last + 1))
    s, axes, norm = _steps(shape, s, axes, order, norm, lambda i: True, halved=last)
    return _into(out, _fft.irfftn(asarray(a), s, axes, norm), "irfft")


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-D inverse of rfft2, as numpy.fft.irfft2 (which ignores out=)."""
    return irfftn(a, s, axes, norm, out=None)
