"""NumPy functions that are thin compositions of the C++ primitives (ufuncs, views, reductions)."""
import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray


def ravel(a, order="C"):
    return asarray(a).ravel(order)


def transpose(a, axes=None):
    return asarray(a).transpose(axes)


def swapaxes(a, axis1, axis2):
    return asarray(a).swapaxes(axis1, axis2)


def squeeze(a, axis=None):
    return asarray(a).squeeze(axis)


def expand_dims(a, axis=0):  # (axis=0: the Array API standard's default)
    from numpy.lib.array_utils import normalize_axis_tuple
    a = asarray(a)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    axes = sorted(normalize_axis_tuple(axes, a.ndim + len(axes)))
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return a.reshape(shape)


def broadcast_to(array, shape, subok=False):
    """A read-through view of `array` with the given shape (NumPy's broadcasting rules)."""
    shape = (shape,) if isinstance(shape, (int, _np.integer)) else tuple(shape)
    return asarray(array)._broadcast_to(shape)


def copyto(dst, src, casting="same_kind", where=True):
    """numpy.copyto: dst[...] = src, broadcasting src, checking `casting`, only where `where`."""
    src_dtype = src.dtype if isinstance(src, (ndarray, _np.ndarray)) else _np.result_type(src)
    if not isinstance(src, (ndarray, _np.ndarray, list, tuple)) and casting == "same_kind":
        src_dtype = _np.result_type(dst.dtype, src)  # Python scalars are weak (NEP 50)
    if not _np.can_cast(src_dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast scalar from {src_dtype!r} to {dst.dtype!r} according to the rule {casting!r}")
    if where is True:
        dst[...] = src
        return
    src = asarray(src, dtype=dst.dtype) if not isinstance(src, ndarray) else src
    _core.ufuncs["_where"](asarray(where), src, dst, out=dst, casting="unsafe")


def around(a, decimals=0, out=None):
    """numpy.around: round half to even at 10**-decimals (integers with decimals < 0 round too)."""
    a = asarray(a)
    if a.dtype == _np.bool_:  # NumPy rounds bools as float16 (decimals=0) and has no other bool loop
        if decimals == 0:
            return a.astype(_np.float16) if out is None else copyto(out, a, casting="unsafe") or out
        raise TypeError("ufunc 'round' not supported for the input type bool")
    return _core.ufuncs["_round"](a, int(decimals), out=out)


round = around


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    from .._ufunc.ufuncs import maximum, minimum, positive
    a = asarray(a)
    if lo is None and hi is None:
        # NumPy 2.1 and the Array API standard: no bounds is a copy (NumPy's own way, with its
        # casting and its refusal of bool).
        return positive(a, out=out, **kwargs)
    if a.dtype.kind in "iu":
        # NumPy 2.5: a Python int bound outside the dtype's range is fine where it binds nothing
        # (a low bound below the minimum, a high one above the maximum) and an OverflowError
        # where it would bind every element.
        info = _np.iinfo(a.dtype)

        def clamp(v, binds_nothing_below):
            if not isinstance(v, int) or isinstance(v, bool) or info.min <= v <= info.max:
                return v
            if (v < info.min) == binds_nothing_below:
                return info.min if v < info.min else info.max
            raise OverflowError(f"Python integer {v} out of bounds for {a.dtype}")
        lo, hi = clamp(lo, True), clamp(hi, False)
    if lo is None:
        return minimum(a, hi, out=out, **kwargs)
    if hi is None:
        return maximum(a, lo, out=out, **kwargs)
    return _core.ufuncs["_clip"](a, lo, hi, out=out, **kwargs)


def where(condition, x=None, y=None):
    if x is None and y is None:
        from .._indexing.indexing import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    cond = asarray(condition)
    if cond.dtype != _np.bool_:
        cond = cond.astype(_np.bool_)
    return _core.ufuncs["_where"](cond, x, y)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = asarray(x)
    if x.dtype.kind not in "fc":
        return x.copy() if copy else x
    # The replacement values go in as scalars of the component type (loops like 'Ffff->F').
    component = _np.finfo(x.dtype).dtype
    info = _np.finfo(component)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    values = [component.type(v) for v in (nan, posinf, neginf)]
    return _core.ufuncs["_nan_to_num"](x, *values, out=None if copy else x)


def angle(z, deg=False):
    out = _core.ufuncs["_angle"](asarray(z))
    return out * (180.0 / _np.pi) if deg else out


def real(val):
    return asarray(val).real


def imag(val):
    return asarray(val).imag


def result_type(*arrays_and_dtypes):
    """numpy.result_type: over arrays and dtype objects, cuarray's C++ rule (all operands at once, not
    pairwise, as NumPy's); with Python scalars (weak, NEP 50), type names or other dtypes, NumPy's own."""
    dtypes = [a.dtype if isinstance(a, (ndarray, _np.ndarray)) else a for a in arrays_and_dtypes]
    if dtypes and all(isinstance(d, _np.dtype) and d.kind in "biufc" and d.isnative for d in dtypes):
        return _core.result_type_of_dtypes(dtypes)
    return _np.result_type(*dtypes)


def promote_types(type1, type2):
    return _np.promote_types(type1, type2)


def can_cast(from_, to, casting="safe"):
    return _np.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def shape(a):
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def ndim(a):
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def size(a, axis=None):
    if isinstance(a, ndarray):
        return a.size if axis is None else a.shape[axis]
    return _np.size(a, axis)


def isscalar(element):
    return _np.isscalar(element)
