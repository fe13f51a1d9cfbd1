"""Array creation and host<->device conversion, with NumPy's signatures (C++ does the work)."""
import math

import numpy as _np

from .. import _core
from .._array import interop as _interop
from .._core import ndarray
from .._array.array_api import on_device, with_device


def _shape(shape):
    return (shape,) if isinstance(shape, (int, _np.integer)) else tuple(shape)


def from_numpy(host):
    """Copies a NumPy array to a new device array: Fortran-ordered when the host array is, else C."""
    host = _np.asarray(host)
    fortran = host.flags.f_contiguous and not host.flags.c_contiguous
    if not (host.flags.c_contiguous or fortran):
        host = host.copy(order="C")  # (not np.ascontiguousarray: it turns 0-d arrays into 1-d ones)
    if host.dtype.kind not in "biufc":
        raise TypeError(f"cuarray does not support arrays of {host.dtype!r}")
    return _core.from_host(host.ctypes.data, host.shape, host.dtype, fortran)


def _order(order):
    """order as NumPy reads it: None, or 'C', 'F', 'A' or 'K' in either case; ValueError otherwise."""
    if order is None:
        return None
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    upper = order.upper()
    if upper not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return upper


def _refuse_copy(what):
    """copy=False (NumPy 2, CuPy): a copy the call would need is an error, never made silently."""
    raise ValueError(f"Unable to avoid copy while creating an array {what} (copy=False); "
                     "copy=None copies only when needed.")


def asarray(a, dtype=None, order=None, *, copy=None, blocking=False, device=None):
    """numpy.asarray: a device array, copying host data; a cuarray array is returned as is when it fits."""
    if device is not None:  # (here, not by with_device: every function's argument passes through asarray)
        with on_device(device):
            return asarray(a, dtype, order, copy=copy, blocking=blocking)
    order = _order(order)
    foreign = None if isinstance(a, ndarray) else _interop.device_array_of(a, copy)
    if foreign is not None:  # another library's GPU memory, viewed (or copied when copy=True)
        a, copy = foreign, (None if copy else copy)  # a copy made there is not made again
    if isinstance(a, ndarray):
        if a._device_id != _core.get_current_device():
            if copy is False:
                _refuse_copy(f"from an array on device {a._device_id}")
            a, copy = _core.to_device(a, _core.get_current_device()), None  # the move made the copy
        if dtype is not None or order in ("C", "F"):
            out = a.astype(a.dtype if dtype is None else dtype, order=order or "K", copy=bool(copy))
            if copy is False and out is not a:
                _refuse_copy(f"of {out.dtype} in order {order or 'K'} from {a.dtype}")
            return out
        return a.copy(order="K") if copy else a
    if copy is False:
        _refuse_copy("from host data")
    try:
        host = _np.asarray(a, dtype=dtype, order=order)  # NumPy lays the host data out as asked
    except (TypeError, ValueError):  # device arrays refuse __array__; ragged nests of them
        if not _holds_device_arrays(a):
            raise
        host = None
    if host is None or (host.dtype == object and _holds_device_arrays(a)):
        out = _from_nested(a, dtype)
    else:
        out = from_numpy(host)
    return asfortranarray(out) if order == "F" and out.ndim > 1 else out


def _holds_device_arrays(obj):
    if isinstance(obj, ndarray):
        return True
    return isinstance(obj, (list, tuple)) and any(_holds_device_arrays(x) for x in obj)


def _discover(obj, dtypes):
    """NumPy's array coercion of a nest of lists/tuples holding device arrays: the shape, with the
    leaves' dtypes appended to `dtypes` in order. None when the nest is ragged."""
    if isinstance(obj, ndarray):
        dtypes.append(obj.dtype)
        return obj.shape
    if isinstance(obj, (list, tuple)):
        shapes = [_discover(x, dtypes) for x in obj]
        if any(s is None or s != shapes[0] for s in shapes):
            return None
        return (len(obj),) + (shapes[0] if shapes else ())
    host = _np.asarray(obj)  # a scalar's dtype as NumPy discovers it (an int past int64: uint64, then object)
    dtypes.append(host.dtype)
    return host.shape


def _ragged_error(obj):
    """NumPy's own error for a ragged nest: raised by NumPy on a stand-in of zero-stride host views."""
    def stand_in(x):
        if isinstance(x, ndarray):
            return _np.lib.stride_tricks.as_strided(_np.empty(1, x.dtype), x.shape, (0,) * x.ndim)
        return type(x)(stand_in(v) for v in x) if isinstance(x, (list, tuple)) else x
    _np.array(stand_in(obj))
    raise ValueError("setting an array element with a sequence: the nested sequence is ragged")


def _discover_nested(obj):
    """(shape, dtype) numpy.array gives a nest holding device arrays: the leaves' dtypes promoted
    pairwise in order (NumPy's array coercion, not result_type); float64 when there are none."""
    dtypes = []
    shape = _discover(obj, dtypes)
    if shape is None:
        _ragged_error(obj)
    dtype = dtypes[0] if dtypes else _np.dtype(_np.float64)
    for t in dtypes[1:]:
        dtype = _np.promote_types(dtype, t)
    return shape, dtype


def _from_nested(obj, dtype):
    """numpy.array of lists/tuples holding device arrays, scalars and host arrays, stacked on the
    device; a sub-nest without device arrays moves to the device in one copy."""
    _, discovered = _discover_nested(obj)
    return _stack_nested(obj, discovered if dtype is None else _np.dtype(dtype))


def _stack_nested(obj, dtype):
    """The nest as one device array of `dtype`: at each level, the siblings without device arrays
    go to the device in one copy, then the level is stacked in one launch."""
    from .._manipulation.manipulation import stack
    if isinstance(obj, ndarray):
        return asarray(obj).astype(dtype, copy=False)
    if not _holds_device_arrays(obj):
        return from_numpy(_np.asarray(obj, dtype=dtype))
    parts = list(obj)
    on_host = [i for i, x in enumerate(obj) if not _holds_device_arrays(x)]
    if on_host:
        moved = from_numpy(_np.asarray([obj[i] for i in on_host], dtype=dtype))
        for j, i in enumerate(on_host):
            parts[i] = moved[j]
    return stack([_stack_nested(p, dtype) for p in parts], dtype=dtype, casting="unsafe")


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None):
    return asarray(a, dtype, order, copy=copy, device=device)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    """numpy.array: copies by default; ndmin prepends length-1 dims."""
    order = _order(order) or "K"
    foreign = None if isinstance(obj, ndarray) else _interop.device_array_of(obj, None if copy else False)
    if foreign is not None:  # another library's GPU memory: copied below unless copy=False
        obj = foreign
    if isinstance(obj, ndarray):
        if obj._device_id != _core.get_current_device():
            if copy is False:
                _refuse_copy(f"from an array on device {obj._device_id}")
            obj, copy = obj.copy(order="K" if order in ("K", "A") else order), None  # moved by the copy
        out = obj.astype(obj.dtype if dtype is None else dtype, order=order, copy=bool(copy))
        if copy is False and out is not obj:
            _refuse_copy(f"of {out.dtype} in order {order} from {obj.dtype}")
    else:
        out = asarray(obj, dtype=dtype, order=order,
                      copy=False if copy is False else None)  # host data always needs the copy
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def ascontiguousarray(a, dtype=None):
    a = asarray(a, dtype)
    a = a.reshape(1) if a.ndim == 0 else a
    return a if a._c_contiguous else a.copy(order="C")


def asfortranarray(a, dtype=None):
    a = asarray(a, dtype)
    a = a.reshape(1) if a.ndim == 0 else a
    return a if a._f_contiguous else a.copy(order="F")


def copy(a, order="K"):
    return asarray(a).copy(order=order)


_PINNED_RESULT_MIN = 1 << 20
_PINNED_RESULT_MAX = 1 << 30


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """Copies a device array to host memory (into `out` when given); host objects pass through np.asarray."""
    if not isinstance(a, ndarray):
        host = _np.asarray(a, order=order)
        if out is not None:
            out[...] = host
            return out
        return host
    if out is None:
        # Large results land in cached page-locked memory: one DMA, no staging, no page faults
        # on a fresh NumPy buffer (which bound the copy at ~10 GB/s).
        big = a.nbytes >= _PINNED_RESULT_MIN and a.nbytes <= _PINNED_RESULT_MAX
        out = _core.pinned_host_array(a.shape, a.dtype) if big else _np.empty(a.shape, dtype=a.dtype)
    elif not isinstance(out, _np.ndarray) or out.shape != a.shape or out.dtype != a.dtype:
        raise ValueError("out must be a numpy.ndarray of the same shape and dtype as the array")
    if out.flags.c_contiguous and order != "F":
        a._copy_to_host(out.ctypes.data)
    else:
        staged = _np.empty(a.shape, dtype=a.dtype)
        a._copy_to_host(staged.ctypes.data)
        out[...] = staged
    if order == "F":
        return _np.asfortranarray(out)
    return out



def get_array_module(*args):
    """cuarray when any argument is a cuarray array, else numpy (CuPy's idiom for generic code)."""
    import cuarray
    return cuarray if any(isinstance(x, ndarray) for x in args) else _np


@with_device
def empty(shape, dtype=None, order="C"):
    return _core.empty(_shape(shape), float if dtype is None else dtype, order)


# The undecorated functions, for calls from inside this module: each device= layer is one more
# Python call per array made.
_empty = empty.__wrapped__


@with_device
def zeros(shape, dtype=None, order="C"):
    return _core.zeros(_shape(shape), float if dtype is None else dtype, order)


@with_device
def ones(shape, dtype=None, order="C"):
    return _core.full(_shape(shape), 1, float if dtype is None else dtype, order)


@with_device
def full(shape, fill_value, dtype=None, order="C"):
    if isinstance(fill_value, ndarray) or isinstance(fill_value, (_np.ndarray, list, tuple)):
        value = asarray(fill_value)
        out = _empty(shape, value.dtype if dtype is None else dtype, order)
        out[...] = value
        return out
    return _core.full(_shape(shape), fill_value, dtype, order)


def _like(a, dtype, order, shape):
    dtype = a.dtype if dtype is None else dtype
    shape = a.shape if shape is None else _shape(shape)
    if order in ("K", "A"):
        f = getattr(a, "_f_contiguous", None)
        if f is None:
            flags = _np.asarray(a).flags
            f = flags.f_contiguous and not flags.c_contiguous
        else:
            f = f and not a._c_contiguous
        order = "F" if f and len(shape) > 1 else "C"
    return shape, dtype, order


@with_device
def empty_like(a, dtype=None, order="K", subok=None, shape=None):
    if isinstance(a, ndarray) and shape is None:
        return _core.empty_like(a, dtype, order)  # order K keeps a's memory order
    return _empty(*_like(a, dtype, order, shape))


_empty_like = empty_like.__wrapped__


@with_device
def zeros_like(a, dtype=None, order="K", subok=None, shape=None):
    out = _empty_like(a, dtype, order, shape=shape)
    out.fill(0)
    return out


@with_device
def ones_like(a, dtype=None, order="K", subok=None, shape=None):
    out = _empty_like(a, dtype, order, shape=shape)
    out.fill(1)
    return out


@with_device
def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None):
    out = _empty_like(a, dtype, order, shape=shape)
    out[...] = fill_value
    return out


@with_device
def arange(start=None, stop=None, step=None, dtype=None, *, like=None):
    """numpy.arange([start,] stop[, step], dtype=None): NumPy's length and dtype rules."""
    if start is None and stop is None:
        raise TypeError("arange() requires stop to be specified.")
    if stop is None:
        start, stop = 0, start
    elif start is None:
        start = 0
    if step is None:
        step = 1
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    return _core.arange(start, stop, step, dtype)


@with_device
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = int(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if dtype is None:
        dtype = _np.result_type(start, stop, float(num))
    if _np.dtype(dtype).kind == "c":
        # start + i * step is componentwise for a real i: two real linspaces.
        start, stop = complex(start), complex(stop)
        out = empty(num, dtype)
        out.real[...] = _core.linspace(start.real, stop.real, num, bool(endpoint), out.real.dtype)
        out.imag[...] = _core.linspace(start.imag, stop.imag, num, bool(endpoint), out.real.dtype)
    else:
        out = _core.linspace(float(start), float(stop), num, bool(endpoint), dtype)
    if retstep:
        div = num - 1 if endpoint else num
        step = (stop - start) / div if div > 0 else math.nan
        return out, step
    return out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    from .._ufunc.ufuncs import power
    y = linspace(start, stop, num=num, endpoint=endpoint)
    out = power(float(base), y)
    return out if dtype is None else out.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """numpy.geomspace for real endpoints: exact start and stop, log-spaced between."""
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    if isinstance(start, complex) or isinstance(stop, complex):
        raise NotImplementedError("geomspace of complex values is not supported yet")
    # NumPy's algorithm: rotate start onto the positive axis, log-space, restore the sign. Real
    # endpoints of opposite signs leave NaN between them, as in NumPy.
    sign = -1.0 if start < 0 else 1.0
    start, stop = start * sign, stop * sign
    with _np.errstate(invalid="ignore"):
        log_stop = float(_np.log10(_np.float64(stop)))
    out = logspace(math.log10(start), log_stop, num=num, endpoint=endpoint, base=10.0)
    if num > 0:
        out[0] = float(start)
        if num > 1 and endpoint:
            out[-1] = float(stop)
    if sign < 0:
        out = -out
    if dtype is None:
        dtype = _np.result_type(start, stop, float(num))
    return out.astype(dtype, copy=False)


@with_device
def eye(N, M=None, k=0, dtype=float, order="C"):
    out = _core.eye(int(N), int(N if M is None else M), int(k), float if dtype is None else dtype)
    return out if order == "C" else out.copy(order=order)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=float):
    return _core.tri(int(N), int(N if M is None else M), int(k), float if dtype is None else dtype)
