"""Array manipulation with NumPy 2's signatures: joining, splitting, tiling, repeating, flipping,
rolling, reshaping and resizing, inserting and deleting (and their ndarray methods).

The engine is C++ (src/ops/manipulation/, include/cuarray/manipulation.hpp): concatenate,
stack, split, tile, repeat, flip, roll, rot90, moveaxis, resize, insert and delete. This module
converts arguments as NumPy does and composes the rest (vstack, block, meshgrid, ...) from those
and from views.
"""
import math
import operator
import warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray, asnumpy, empty

# --------------------------------------------------------------------------------------------------
# argument conversion


def _axis_or_none(axis):
    return None if axis is None else operator.index(axis)


def _int_list(values):
    """A list of Python ints from an int, a sequence of ints or an integer array (host or device)."""
    if isinstance(values, ndarray):
        values = asnumpy(values)
    if isinstance(values, _np.ndarray):
        return [operator.index(v) for v in values.reshape(-1).tolist()] if values.ndim else [operator.index(values.item())]
    try:
        return [operator.index(v) for v in values]
    except TypeError:
        return [operator.index(values)]


def _is_sequence(obj):
    try:
        len(obj)
    except TypeError:
        return False
    return True


def _arrays(seq):
    """The device arrays of a sequence of array_likes (a device array: its sub-arrays along axis 0)."""
    return [asarray(x) for x in seq]


def _stack_sequence(tup):
    """NumPy 2's check that the *stack functions get a sequence, not an iterator."""
    if not hasattr(tup, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or tuple.')
    return tup


# --------------------------------------------------------------------------------------------------
# shapes and axes (views)


def reshape(a, /, shape, order="C", *, copy=None):
    """numpy.reshape: a view whenever the layout allows; copy=True always copies, copy=False raises
    instead of copying."""
    a = asarray(a)
    if copy:
        return a.copy(order="K" if order == "K" else order).reshape(shape, order=order)
    out = a.reshape(shape, order=order)
    if copy is False and out.base is None and a.size > 0:
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return out


def resize(a, new_shape):
    """numpy.resize: a.ravel() repeated to fill new_shape (zeros when a is empty)."""
    shape = (new_shape,) if isinstance(new_shape, (int, _np.integer)) else tuple(new_shape)
    return _core.resize(asarray(a), [operator.index(s) for s in shape])


def moveaxis(a, source, destination):
    return _core.moveaxis(asarray(a), _int_list(source), _int_list(destination))


def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    axis = normalize_axis_index(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


def permute_dims(a, axes=None):
    a = asarray(a)
    return a.transpose() if axes is None else a.transpose(tuple(axes))


def broadcast_shapes(*args):
    return _np.broadcast_shapes(*args)


def broadcast_arrays(*args, subok=False):
    arrays = _arrays(args)
    shape = _np.broadcast_shapes(*[a.shape for a in arrays])
    return tuple(a if a.shape == shape else a._broadcast_to(shape) for a in arrays)


def _atleast(arys, ndim):
    out = []
    for ary in arys:
        a = asarray(ary)
        if a.ndim < ndim:
            if ndim == 3 and a.ndim >= 1:  # NumPy puts a 1-d array in the middle, a 2-d one in front
                a = a.reshape((1,) * (a.ndim == 1) + a.shape + (1,))
            else:
                a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    return _atleast(arys, 1)


def atleast_2d(*arys):
    return _atleast(arys, 2)


def atleast_3d(*arys):
    return _atleast(arys, 3)


def unstack(x, /, *, axis=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(moveaxis(x, axis, 0))


def flip(m, axis=None):
    return _core.flip(asarray(m), None if axis is None else _int_list(axis))


def fliplr(m):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return _core.flip(m, [1])


def flipud(m):
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return _core.flip(m, [0])


def rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    return _core.rot90(asarray(m), operator.index(k), operator.index(axes[0]), operator.index(axes[1]))


# --------------------------------------------------------------------------------------------------
# joining


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _core.concatenate(_arrays(arrays), _axis_or_none(axis), dtype, casting, out)


concat = concatenate


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _core.stack(_arrays(_stack_sequence(arrays)), operator.index(axis), dtype, casting, out)


def _tuple_of(arrs):
    return arrs if isinstance(arrs, tuple) else (arrs,)


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate(_tuple_of(atleast_2d(*_stack_sequence(tup))), 0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = _tuple_of(atleast_1d(*_stack_sequence(tup)))
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


def dstack(tup):
    return concatenate(_tuple_of(atleast_3d(*_stack_sequence(tup))), 2)


def column_stack(tup):
    arrays = []
    for v in _stack_sequence(tup):
        a = asarray(v)
        arrays.append(a.reshape(1, -1).T if a.ndim < 2 else a)
    return concatenate(arrays, 1)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def _block_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_depths(arrays, index):
    """(index of a bottom element, largest leaf ndim): NumPy's _block_check_depths_match."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_block_index(index)} is a tuple. Only lists can be used to arrange blocks, and np.block "
                        "does not allow implicit conversion from tuple to ndarray.")
    if isinstance(arrays, list):
        if not arrays:
            return index + [None], 0
        first, max_ndim = _block_depths(arrays[0], index + [0])
        for i, item in enumerate(arrays[1:], 1):
            bottom, ndim = _block_depths(item, index + [i])
            max_ndim = max(max_ndim, ndim)
            if len(bottom) != len(first):
                raise ValueError(f"List depths are mismatched. First element was at depth {len(first)}, but there is "
                                 f"an element at depth {len(bottom)} ({_block_index(bottom)})")
            if bottom[-1] is None:
                first = bottom
        return first, max_ndim
    return index, (arrays.ndim if isinstance(arrays, ndarray) else _np.ndim(arrays))


def _block_layout(arrays, depth, list_ndim, result_ndim):
    """(shape, [(slices, leaf)], dtype): where each leaf goes in the result (NumPy's slicing
    algorithm), and the dtype NumPy's nested concatenation gives (each level promotes its parts)."""
    if depth == list_ndim:
        leaf = asarray(arrays)
        leaf = leaf.reshape((1,) * (result_ndim - leaf.ndim) + leaf.shape)
        return leaf.shape, [((), leaf)], leaf.dtype
    parts = [_block_layout(item, depth + 1, list_ndim, result_ndim) for item in arrays]
    axis = result_ndim - list_ndim + depth
    first = parts[0][0]
    for shape, _, _ in parts:
        if shape[:axis] != first[:axis] or shape[axis + 1:] != first[axis + 1:]:
            raise ValueError(f"Mismatched array shapes in block along axis {axis}.")
    placed, offset = [], 0
    for shape, leaves, _ in parts:
        prefix = (slice(offset, offset + shape[axis]),)
        placed += [(prefix + slices, leaf) for slices, leaf in leaves]
        offset += shape[axis]
    return first[:axis] + (offset,) + first[axis + 1:], placed, _np.result_type(*[dtype for _, _, dtype in parts])


def block(arrays):
    """numpy.block: one result array, one copy per block into its place."""
    bottom, leaf_ndim = _block_depths(arrays, [])
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_block_index(bottom)} cannot be empty")
    list_ndim = len(bottom)
    result_ndim = max(leaf_ndim, list_ndim)
    shape, placed, nested_dtype = _block_layout(arrays, 0, list_ndim, result_ndim)
    leaves = [leaf for _, leaf in placed]
    # NumPy's own two algorithms promote differently: above list_ndim * size > 2 * 512**2 it slices
    # (one result_type over every leaf), below it concatenates level by level.
    big = list_ndim * math.prod(shape) > 2 * 512 * 512
    dtype = _np.result_type(*[leaf.dtype for leaf in leaves]) if big else nested_dtype
    fortran = all(x._f_contiguous for x in leaves) and not all(x._c_contiguous for x in leaves)
    result = empty(shape, dtype, order="F" if fortran else "C")
    for slices, leaf in placed:
        result[(Ellipsis,) + slices] = leaf
    return result


def append(arr, values, axis=None):
    arr = asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = asarray(values).ravel()
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)


# --------------------------------------------------------------------------------------------------
# splitting (views)


def array_split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    axis = operator.index(axis)
    a.shape[axis]  # NumPy's IndexError for a bad axis, before anything else
    if _is_sequence(indices_or_sections):
        return _core.split_at(a, _int_list(indices_or_sections), axis)
    return _core.array_split(a, int(indices_or_sections), axis)


def split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    if not _is_sequence(indices_or_sections):
        if a.shape[axis] % indices_or_sections:  # ZeroDivisionError for 0, as NumPy
            raise ValueError("array split does not result in an equal division")
    return array_split(a, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, 2)


# --------------------------------------------------------------------------------------------------
# tiling, repeating, rolling


def tile(A, reps):
    try:
        reps = tuple(reps)
    except TypeError:
        reps = (reps,)
    return _core.tile(asarray(A), [operator.index(r) for r in reps])


def repeat(a, repeats, axis=None):
    a = asarray(a)
    axis = _axis_or_none(axis)
    if isinstance(repeats, ndarray):
        return _core.repeat(a, repeats, axis)
    if isinstance(repeats, _np.ndarray):
        if not _np.can_cast(repeats.dtype, _np.intp, "safe"):
            raise TypeError(f"Cannot cast array data from {repeats.dtype!r} to dtype('int64') according to the rule 'safe'")
        counts = repeats.astype(_np.intp)
    else:  # Python objects convert as NumPy converts them (int(1.7) == 1; OverflowError past int64)
        counts = _np.asarray(repeats, dtype=_np.intp)
    if counts.ndim > 1:
        raise ValueError("repeats must be a scalar or a 1-d array")
    if counts.size == 1:
        return _core.repeat(a, int(counts.reshape(-1)[0]), axis)
    return _core.repeat(a, asarray(counts), axis)


def roll(a, shift, axis=None):
    a = asarray(a)
    shift = _np.asarray(asnumpy(shift) if isinstance(shift, ndarray) else shift)
    if shift.dtype.kind == "f":
        shift = shift.astype(_np.intp)
    if axis is None:
        if shift.ndim > 1:
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        return _core.roll(a, _int_list(shift), None)
    axes = normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
    pairs = _np.broadcast(shift, axes)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts, axes = zip(*pairs) if pairs.size else ((), ())
    return _core.roll(a, [int(s) for s in shifts], [int(x) for x in axes])


# --------------------------------------------------------------------------------------------------
# inserting and deleting


def _axis_index(obj):
    """insert's and delete's obj as the C++ takes it (cuarray::AxisIndex): a slice, an int, a
    list of ints (integer positions of rank 0 or 1 from host objects), or a device array: bool
    masks and every other array, which the C++ checks as NumPy does."""
    if isinstance(obj, (slice, ndarray)):
        return obj
    if isinstance(obj, (int, _np.integer)) and not isinstance(obj, (bool, _np.bool_)):
        return operator.index(obj)
    was_array = isinstance(obj, _np.ndarray)
    obj = _np.asarray(obj)
    if obj.size == 0 and not was_array:  # NumPy takes an empty sequence as intp positions
        obj = obj.astype(_np.intp)
    if obj.ndim <= 1 and obj.dtype.kind in "iu" and _np.can_cast(obj.dtype, _np.int64):
        return obj.tolist()
    return asarray(obj)


def delete(arr, obj, axis=None):
    axis = _axis_or_none(axis)  # (a TypeError needs no array: raised before any device work)
    return _core.delete(asarray(arr), _axis_index(obj), axis)


def insert(arr, obj, values, axis=None):
    axis = _axis_or_none(axis)
    arr = asarray(arr)
    obj = _axis_index(obj)
    # values are converted as NumPy's array(values, dtype=arr.dtype) (OverflowError for a Python
    # int out of range), before the C++ checks obj: NumPy checks a single position first.
    return _core.insert(arr, obj, asarray(values, dtype=arr.dtype), axis)


def trim_zeros(filt, trim="fb", axis=None):
    """numpy.trim_zeros: a view of filt without the leading/trailing all-zero hyperplanes."""
    a = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim, argname="axis")
    if not axes:
        return a
    nonzero = asnumpy(_core.argwhere(a))  # the bounding box of the nonzero elements
    if nonzero.shape[0] == 0:
        start = stop = [0] * a.ndim
    else:
        start = nonzero.min(axis=0).tolist() if "f" in trim else [None] * a.ndim
        stop = (nonzero.max(axis=0) + 1).tolist() if "b" in trim else [None] * a.ndim
    if a.ndim == 1 and isinstance(filt, (list, tuple)):
        return filt[start[0]:stop[0]]  # NumPy: a list or tuple in, the same type out
    return a[tuple(slice(start[d], stop[d]) if d in axes else slice(None) for d in range(a.ndim))]


# --------------------------------------------------------------------------------------------------
# grids, requirements, checks


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    ones = (1,) * ndim
    output = [asarray(x).reshape(ones[:i] + (-1,) + ones[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + ones[2:])
        output[1] = output[1].reshape((-1, 1) + ones[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    return tuple(x.copy() if copy else x for x in output)  # a tuple always, as NumPy 2 (2.5 fixed sparse uncopied)


_REQUIREMENT_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                      "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
                      "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """numpy.require: `a` as an array of `dtype` meeting the flags (C/F order, own data), copying
    only when it must. Device arrays are always aligned and writeable."""
    if not requirements:
        return asarray(a, dtype=dtype)
    flags = {_REQUIREMENT_FLAGS[x.upper()] for x in requirements}
    flags.discard("E")
    if {"C", "F"} <= flags:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in flags else "F" if "F" in flags else "A"
    arr = asarray(a, dtype=dtype)
    if (order == "C" and not arr._c_contiguous) or (order == "F" and not arr._f_contiguous):
        return arr.copy(order=order)
    if "O" in flags and arr.base is not None:
        return arr.copy(order="K" if order == "A" else order)
    return arr


def asarray_chkfinite(a, dtype=None, order=None):
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc":
        from .._ufunc.ufuncs import isfinite
        if not bool(isfinite(a).all()):
            raise ValueError("array must not contain infs or NaNs")
    return a


# --------------------------------------------------------------------------------------------------
# ndarray methods


def _repeat_method(self, repeats, axis=None):
    return repeat(self, repeats, axis)


def _resize_method(self, *new_shape, refcheck=True):
    """ndarray.resize: in place; kept elements in memory order, new ones zero (refcheck: views of
    the old data keep it alive, so there is nothing to check)."""
    if not new_shape or (len(new_shape) == 1 and new_shape[0] is None):
        return
    if len(new_shape) == 1 and not isinstance(new_shape[0], (int, _np.integer)):
        new_shape = tuple(new_shape[0])
    _core.resize_inplace(self, tuple(operator.index(s) for s in new_shape))


ndarray.repeat = _repeat_method
ndarray.resize = _resize_method

__all__ = ["reshape", "resize", "moveaxis", "rollaxis", "permute_dims", "broadcast_shapes", "broadcast_arrays",
           "atleast_1d", "atleast_2d", "atleast_3d", "unstack", "flip", "fliplr", "flipud", "rot90", "concatenate",
           "concat", "stack", "vstack", "hstack", "dstack", "column_stack", "row_stack", "block", "append",
           "array_split", "split", "hsplit", "vsplit", "dsplit", "tile", "repeat", "roll", "delete", "insert",
           "trim_zeros", "meshgrid", "require", "asarray_chkfinite"]
