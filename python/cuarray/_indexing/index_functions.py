"""NumPy's index functions with NumPy 2's signatures, dtypes and errors: choose, select, place,
putmask, put_along_axis, piecewise, diag, diagflat, tril, triu, tril_indices, triu_indices (and
their _from forms), fill_diagonal, indices, ix_, ravel_multi_index, unravel_index; ndarray.choose.

Each is a composition of the device engines: the gather/scatter of a[key] and a[key] = v
(src/ops/indexing/index_key.cpp), take/put, compaction (nonzero), the elementwise ufuncs and masked
copies, and diagonal views. A bounds check whose failure NumPy reports (choose, ravel_multi_index,
unravel_index) costs one small device->host read.
"""
import collections.abc
import operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index

from .. import _core
from .._statistics import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import arange, asarray, asnumpy, empty, full, zeros, zeros_like
from .._array.flatiter import flatiter
from .._math.functions import copyto, where

_MODES = ("raise", "wrap", "clip")


def _device(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _dtype_of(x):
    """What np.result_type sees of x: Python scalars stay weak (NEP 50), the rest is an array dtype."""
    if type(x) in (int, float, complex, bool):
        return x
    return x.dtype if isinstance(x, ndarray) else _np.asarray(x).dtype


def _index_array(a, what="only int indices permitted"):
    a = _device(a)
    if a.dtype.kind not in "iu":
        raise TypeError(what)
    return a if a.dtype == _np.intp else a.astype(_np.intp)


# --------------------------------------------------------------------------------------------------
# index grids


def indices(dimensions, dtype=int, sparse=False):
    """An array (or with sparse=True a tuple of arrays) of each position's index along every axis."""
    dimensions = tuple(dimensions)
    n = len(dimensions)
    ones = (1,) * n
    out = () if sparse else empty((n,) + dimensions, dtype=dtype)
    for i, dim in enumerate(dimensions):
        idx = arange(dim, dtype=dtype).reshape(ones[:i] + (dim,) + ones[i + 1:])
        if sparse:
            out = out + (idx,)
        else:
            out[i] = idx
    return out


def ix_(*args):
    """An open mesh of 1-D sequences: each reshaped to vary along its own axis (booleans: their nonzero)."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            host = _np.asarray(new)
            if host.size == 0:
                host = host.astype(_np.intp)
            new = asarray(host)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _np.bool_:
            new, = _core.nonzero(new)
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _dims(dims):
    dims = (dims,) if isinstance(dims, (int, _np.integer)) else tuple(operator.index(d) for d in dims)
    return dims


def _modes(mode, n):
    modes = (mode,) * n if isinstance(mode, str) else tuple(mode)
    if len(modes) != n:
        raise ValueError(f"mode must have {n} elements")  # NumPy: as many clip modes as dims
    for m in modes:
        if m not in _MODES:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{m}')")
    return modes


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices (intp) of coordinate arrays into an array of shape `dims`."""
    dims = _dims(dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if any(d < 0 for d in dims):
        raise ValueError("dimensions must be non-negative")
    if _np.prod([max(d, 1) for d in dims], dtype=object) > _np.iinfo(_np.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")
    modes = _modes(mode, len(dims))
    coords = [_index_array(c) for c in multi_index]
    bad = None
    fixed = []
    for c, d, m in zip(coords, dims, modes):
        if m == "wrap":
            c = _ufuncs.remainder(c, d)
        elif m == "clip":
            c = _ufuncs.minimum(_ufuncs.maximum(c, 0), d - 1)
        else:
            out_of_range = _ufuncs.logical_or(_ufuncs.less(c, 0), _ufuncs.greater_equal(c, d))
            bad = out_of_range if bad is None else _ufuncs.logical_or(bad, out_of_range)
        fixed.append(c)
    if bad is not None and bool(_reductions.any(bad)):
        raise ValueError("invalid entry in coordinates array")
    order_dims = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    stride = 1
    result = None
    for i in order_dims:
        term = _ufuncs.multiply(fixed[i], stride)
        result = term if result is None else _ufuncs.add(result, term)
        stride *= dims[i]
    return result


def unravel_index(indices, shape, order="C"):
    """The coordinate arrays (intp) of flat indices into an array of `shape`."""
    shape = _dims(shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idx = _index_array(indices)
    size = int(_np.prod(shape, dtype=_np.int64))
    bad = _ufuncs.logical_or(_ufuncs.less(idx, 0), _ufuncs.greater_equal(idx, size))
    if bool(_reductions.any(bad)):
        first = asnumpy(idx[bad]).reshape(-1)[0]
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    out = [None] * len(shape)
    walk = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for i in walk:
        d = shape[i]
        out[i] = _ufuncs.remainder(idx, d) if d else zeros(idx.shape, _np.intp)
        idx = _ufuncs.floor_divide(idx, d) if d else idx
    return tuple(out)


# --------------------------------------------------------------------------------------------------
# diagonals and triangles


def diag(v, k=0):
    """The k-th diagonal of a 2-D array (a view), or a 2-D array with a 1-D array on it."""
    v = _device(v)
    k = operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), dtype=v.dtype)
        out.diagonal(k)[...] = v
        return out
    if v.ndim == 2:
        return v.diagonal(k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """A 2-D array with the flattened input on its k-th diagonal."""
    return diag(_device(v).ravel(), k)


def _tri_mask(shape, k):
    if len(shape) < 1:
        raise ValueError("input array must be at least 1-d")  # NumPy fails inside tri(); say why
    n, m = (shape[-2], shape[-1]) if len(shape) >= 2 else (shape[-1], None)
    return _core.tri(int(n), int(n if m is None else m), int(k), _np.bool_)


def tril(m, k=0):
    """A copy with the elements above the k-th diagonal zeroed (over the last two axes)."""
    m = _device(m)
    return where(_tri_mask(m.shape, k), m, zeros((), m.dtype))


def triu(m, k=0):
    """A copy with the elements below the k-th diagonal zeroed (over the last two axes)."""
    m = _device(m)
    return where(_tri_mask(m.shape, operator.index(k) - 1), zeros((), m.dtype), m)


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle of an (n, m) array."""
    return tuple(_core.nonzero(_core.tri(int(n), int(n if m is None else m), int(k), _np.bool_)))


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle of an (n, m) array."""
    lower = _core.tri(int(n), int(n if m is None else m), int(k) - 1, _np.bool_)
    return tuple(_core.nonzero(_ufuncs.logical_not(lower)))


def tril_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def fill_diagonal(a, val, wrap=False):
    """Writes `val` (repeated as needed) on the main diagonal of `a` in place."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if any(d != a.shape[0] for d in a.shape):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
    flatiter(a)[:end:step] = val


# --------------------------------------------------------------------------------------------------
# selection by index and condition


def choose(a, choices, out=None, mode="raise"):
    """Elements of choices[a] broadcast together: out[i] = choices[a[i]][i]."""
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    a = _device(a)
    if a.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from dtype('{a.dtype}') to dtype('int64') according to the rule 'safe'")
    if isinstance(choices, ndarray):
        choices = [choices[i] for i in range(choices.shape[0])]
    choices = [c if isinstance(c, ndarray) or type(c) in (int, float, complex, bool) else asarray(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    dtype = _np.result_type(*[_dtype_of(c) for c in choices])
    shape = _np.broadcast_shapes(a.shape, *[_np.shape(c) if not isinstance(c, ndarray) else c.shape for c in choices])
    idx = a.astype(_np.intp)
    if mode == "raise":
        if bool(_reductions.any(_ufuncs.logical_or(_ufuncs.less(idx, 0), _ufuncs.greater_equal(idx, n)))):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        idx = _ufuncs.remainder(idx, n)
    else:
        idx = _ufuncs.minimum(_ufuncs.maximum(idx, 0), n - 1)
    stacked = empty((n,) + shape, dtype=dtype)
    for i, c in enumerate(choices):
        stacked[i] = c
    idx = idx.reshape((1,) * (1 + len(shape) - idx.ndim) + idx.shape)
    result = _core.take_along_axis(stacked, idx, 0).reshape(shape)
    if out is None:
        return result
    out[...] = result
    return out


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds, else `default` (numpy.select)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if type(c) in (int, float, complex) or isinstance(c, ndarray) else asarray(c) for c in choicelist]
    choices.append(default if type(default) in (int, float, complex) or isinstance(default, ndarray) else asarray(default))
    try:
        dtype = _np.result_type(*[_dtype_of(c) for c in choices])
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    conds = [_device(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    shape = _np.broadcast_shapes(*[c.shape for c in conds], *[_np.shape(c) if not isinstance(c, ndarray) else c.shape
                                                               for c in choices])
    result = full(shape, choices[-1], dtype=dtype)
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        copyto(result, choice, where=cond)
    return result


def _mask_for(a, mask, func):
    """`mask` as a boolean array of a's shape (place and putmask take any mask of a's size)."""
    mask = _device(mask)
    if mask.size != a.size:
        raise ValueError(f"{func}: mask and data must be the same size")
    return mask.astype(_np.bool_, copy=False).reshape(a.shape)


def _cycled(flat, n):
    """The first n elements of flat repeated end to end (flat non-empty)."""
    return flat if flat.size == n else _core.take(flat, arange(n, dtype=_np.intp), 0, "wrap")


def place(arr, mask, vals):
    """arr[mask] = vals, with vals repeated over the True positions in order (numpy.place)."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"argument 1 must be cuarray.ndarray, not {type(arr).__name__}")
    mask = _mask_for(arr, mask, "place")
    count = int(_reductions.count_nonzero(mask))
    values = _device(vals).ravel()
    if count == 0:
        return
    if values.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[mask] = _cycled(values, count)


def putmask(a, mask, values):
    """a.flat[i] = values.flat[i % values.size] wherever mask.flat[i] (numpy.putmask)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"argument a of putmask must be a cuarray.ndarray, not {type(a).__name__}")
    mask = _mask_for(a, mask, "putmask")
    values = _device(values)
    if values.size == 0 or a.size == 0:
        return
    copyto(a, _cycled(values.ravel(), a.size).reshape(a.shape), casting="unsafe", where=mask)


def put_along_axis(arr, indices, values, axis):
    """arr's elements at `indices` (arr's rank, broadcast against it) along `axis` set to `values`."""
    indices = _device(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        flatiter(arr)[indices] = values
        return
    axis = normalize_axis_index(axis, arr.ndim)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ones = (1,) * arr.ndim
    key = tuple(indices if d == axis else arange(n).reshape(ones[:d] + (-1,) + ones[d + 1:])
                for d, n in enumerate(arr.shape))
    arr[key] = values


def _array_like(c):
    return isinstance(c, (list, _np.ndarray)) or (isinstance(c, ndarray) and c.ndim > 0)


def piecewise(x, condlist, funclist, *args, **kw):
    """funclist[i] applied (or assigned, when not callable) where condlist[i] holds (numpy.piecewise)."""
    x = _device(x)
    n2 = len(funclist)
    # NumPy: a single condition (not a list of them) is promoted to a list of one.
    if _np.isscalar(condlist) or (not _array_like(condlist[0]) and x.ndim != 0):
        condlist = [condlist]
    conds = [_device(c).astype(_np.bool_, copy=False) for c in condlist]
    n = len(conds)
    if n == n2 - 1:  # the "otherwise" condition
        anyc = conds[0]
        for c in conds[1:]:
            anyc = _ufuncs.logical_or(anyc, c)
        conds.append(_ufuncs.logical_not(anyc))
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(conds, funclist):
        cond = cond._broadcast_to(x.shape) if cond.shape != x.shape else cond
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def _choose_method(self, choices, out=None, mode="raise"):
    return choose(self, choices, out=out, mode=mode)


ndarray.choose = _choose_method

__all__ = ["indices", "ix_", "ravel_multi_index", "unravel_index", "diag", "diagflat", "tril", "triu", "tril_indices",
           "triu_indices", "tril_indices_from", "triu_indices_from", "fill_diagonal", "choose", "select", "place",
           "putmask", "put_along_axis", "piecewise"]
