"""numpy.pad.

'constant', 'edge', 'wrap' and the even 'reflect' / 'symmetric' are one kernel pass
(cuarray/pad.hpp: each output element computes its source index per axis). 'linear_ramp', the
statistic modes, reflect_type='odd' and callable modes follow NumPy's own algorithm
(numpy/lib/_arraypad_impl.py) over device arrays, axis by axis, so that corners, rounding and
casts come out exactly as NumPy's. Arguments are normalized on the host as NumPy does.
"""
import typing

import numpy as _np

from .. import _core
from .._creation.creation import arange, asarray, empty
from .._statistics.reductions import amax, amin, mean
from .._sorting.sorting import median
from .._ufunc.ufuncs import floor, subtract

__all__ = ["pad"]

_ALLOWED_KWARGS = {
    "empty": [], "edge": [], "wrap": [],
    "constant": ["constant_values"],
    "linear_ramp": ["end_values"],
    "maximum": ["stat_length"],
    "mean": ["stat_length"],
    "median": ["stat_length"],
    "minimum": ["stat_length"],
    "reflect": ["reflect_type"],
    "symmetric": ["reflect_type"],
}
_STAT_FUNCTIONS = {"maximum": amax, "minimum": amin, "mean": mean, "median": median}


def _as_pairs(x, ndim, as_index=False):
    """NumPy's _as_pairs: `x` broadcast to ndim (before, after) pairs; negative indices raise."""
    if x is None:
        return ((None, None),) * ndim
    x = _np.array(x)
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return _np.broadcast_to(x, (ndim, 2)).tolist()


def _pad_widths(ndim, pad_width):
    """pad_width in every NumPy form (int, pair, per-axis pairs, dict) as ndim (before, after) ints."""
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            match width:
                case int(both):
                    seq[axis] = both, both
                case tuple((int(before), int(after))):
                    seq[axis] = before, after
                case _ as invalid:
                    typing.assert_never(invalid)
        pad_width = seq
    pad_width = _np.asarray(pad_width)
    if not pad_width.dtype.kind == "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _as_pairs(pad_width, ndim, as_index=True)]


def _constants(values, array):
    """constant_values as (before, after) Python values of array's dtype, cast by NumPy's setitem
    (which also raises NumPy's errors: a Python int out of range, a complex into a real dtype...)."""
    table = _np.empty((array.ndim, 2), dtype=array.dtype)
    for axis, (before, after) in enumerate(_as_pairs(values, array.ndim)):
        table[axis, 0] = before
        table[axis, 1] = after
    return table.tolist()


def _slice_at_axis(sl, axis):
    return (slice(None),) * axis + (sl,) + (...,)


def _view_roi(array, original_area_slice, axis):
    # The padded area of the axes after `axis` is not filled yet: leave it out.
    axis += 1
    return array[(slice(None),) * axis + original_area_slice[axis:]]


def _pad_simple(array, widths, fill_value=None):
    """The padded array (C order unless `array` is Fortran- and not C-contiguous) with `array` in
    its original area; the pad is `fill_value`, or undefined."""
    new_shape = tuple(before + size + after for size, (before, after) in zip(array.shape, widths))
    order = "F" if array._f_contiguous and not array._c_contiguous else "C"
    padded = empty(new_shape, dtype=array.dtype, order=order)
    if fill_value is not None:
        padded.fill(fill_value)
    original_area_slice = tuple(slice(before, before + size) for size, (before, after) in zip(array.shape, widths))
    padded[original_area_slice] = array
    return padded, original_area_slice


def _set_pad_area(padded, axis, width_pair, value_pair):
    padded[_slice_at_axis(slice(None, width_pair[0]), axis)] = value_pair[0]
    padded[_slice_at_axis(slice(padded.shape[axis] - width_pair[1], None), axis)] = value_pair[1]


def _get_edges(padded, axis, width_pair):
    left_index = width_pair[0]
    left_edge = padded[_slice_at_axis(slice(left_index, left_index + 1), axis)]
    right_index = padded.shape[axis] - width_pair[1]
    right_edge = padded[_slice_at_axis(slice(right_index - 1, right_index), axis)]
    return left_edge, right_edge


def _ramp(start, stop, num, dtype, axis):
    """numpy.linspace(start, stop, num, endpoint=False, dtype=dtype, axis=axis) for a scalar start
    and a device array stop, in NumPy's arithmetic (evaluated in result_type(start, stop, 0.0))."""
    dt = _np.result_type(start, stop.dtype, 0.0)
    delta = subtract(stop, start, dtype=dt)
    y = arange(0, num, dtype=_np.float64).astype(dt).reshape((-1,) + (1,) * delta.ndim)
    if num > 0:
        step = delta / num
        if bool((step == 0).any()):  # NumPy's special case for denormal steps
            y = (y / num) * delta
        else:
            y = y * step
    else:
        y = y * delta
    y = (y + start).astype(dt, copy=False)
    if axis != 0:
        y = y.transpose(tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, y.ndim)))
    if _np.issubdtype(dtype, _np.integer):
        y = floor(y)
    return y.astype(dtype, copy=False)


def _get_linear_ramps(padded, axis, width_pair, end_value_pair):
    edge_pair = _get_edges(padded, axis, width_pair)
    left_ramp, right_ramp = (
        _ramp(end_value, edge.squeeze(axis), width, padded.dtype, axis)
        for end_value, edge, width in zip(end_value_pair, edge_pair, width_pair))
    return left_ramp, right_ramp[_slice_at_axis(slice(None, None, -1), axis)]


def _round_if_needed(arr, dtype):
    # An integer array takes a statistic rounded half to even (then truncated by the cast).
    if _np.issubdtype(dtype, _np.integer) and arr.dtype.kind in "fc":
        arr.round(out=arr)


def _get_stats(padded, axis, width_pair, length_pair, mode):
    stat_func = _STAT_FUNCTIONS[mode]
    left_index = width_pair[0]
    right_index = padded.shape[axis] - width_pair[1]
    max_length = right_index - left_index
    left_length, right_length = length_pair
    if left_length is None or max_length < left_length:
        left_length = max_length
    if right_length is None or max_length < right_length:
        right_length = max_length
    if (left_length == 0 or right_length == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    left_chunk = padded[_slice_at_axis(slice(left_index, left_index + left_length), axis)]
    left_stat = stat_func(left_chunk, axis=axis, keepdims=True)
    _round_if_needed(left_stat, padded.dtype)
    if left_length == right_length == max_length:
        return left_stat, left_stat
    right_chunk = padded[_slice_at_axis(slice(right_index - right_length, right_index), axis)]
    right_stat = stat_func(right_chunk, axis=axis, keepdims=True)
    _round_if_needed(right_stat, padded.dtype)
    return left_stat, right_stat


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge=False):
    """One round of NumPy's reflection (as many values as the filled area holds); returns the
    widths still to pad."""
    left_pad, right_pad = width_pair
    old_length = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (original_period - 1) * (original_period - 1) + 1
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        start = stop + chunk_length
        left_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            left_chunk = 2 * padded[_slice_at_axis(slice(left_pad, left_pad + 1), axis)] - left_chunk
        padded[_slice_at_axis(slice(left_pad - chunk_length, left_pad), axis)] = left_chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        stop = start - chunk_length
        right_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            right_chunk = 2 * padded[_slice_at_axis(slice(-right_pad - 1, -right_pad), axis)] - right_chunk
        start = padded.shape[axis] - right_pad
        padded[_slice_at_axis(slice(start, start + chunk_length), axis)] = right_chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _pad_callable(array, widths, function, kwargs):
    # NumPy's protocol: function(vector, (before, after), axis, kwargs) edits each 1-D row of the
    # zero-padded array in place (here a device view; one call per row, so slow for many rows).
    padded, _ = _pad_simple(array, widths, fill_value=0)
    for axis in range(padded.ndim):
        view = padded.transpose(tuple(d for d in range(padded.ndim) if d != axis) + (axis,))
        for ind in _np.ndindex(view.shape[:-1]):
            function(view[ind + (Ellipsis,)], widths[axis], axis, kwargs)
    return padded


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad(array, pad_width, mode='constant', **kwargs): every NumPy mode and pad_width form."""
    array = asarray(array)
    widths = _pad_widths(array.ndim, pad_width)
    if callable(mode):
        return _pad_callable(array, widths, mode, kwargs)
    try:
        unsupported_kwargs = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    except KeyError:
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported_kwargs:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported_kwargs}")

    if mode == "constant":
        return _core.pad(array, widths, "constant", _constants(kwargs.get("constant_values", 0), array))
    if mode == "empty":
        return _pad_simple(array, widths)[0]
    if array.size == 0:
        for axis, width_pair in enumerate(widths):
            if array.shape[axis] == 0 and any(width_pair):
                raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'")
        return _pad_simple(array, widths)[0]  # (empty too)
    method = kwargs.get("reflect_type", "even")
    if mode in ("edge", "wrap") or (mode in ("reflect", "symmetric") and method != "odd"):
        return _core.pad(array, widths, mode, None)

    padded, original_area_slice = _pad_simple(array, widths)
    if mode == "linear_ramp":
        end_values = _as_pairs(kwargs.get("end_values", 0), padded.ndim)
        for axis, (width_pair, value_pair) in enumerate(zip(widths, end_values)):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, _get_linear_ramps(roi, axis, width_pair, value_pair))
    elif mode in _STAT_FUNCTIONS:
        lengths = _as_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for axis, (width_pair, length_pair) in enumerate(zip(widths, lengths)):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, _get_stats(roi, axis, width_pair, length_pair, mode))
    else:  # reflect / symmetric with reflect_type='odd'
        include_edge = mode == "symmetric"
        for axis, (left_index, right_index) in enumerate(widths):
            if array.shape[axis] == 1 and (left_index > 0 or right_index > 0):
                _set_pad_area(padded, axis, (left_index, right_index),
                              _get_edges(padded, axis, (left_index, right_index)))
                continue
            roi = _view_roi(padded, original_area_slice, axis)
            while left_index > 0 or right_index > 0:
                left_index, right_index = _set_reflect_both(roi, axis, (left_index, right_index), method,
                                                            array.shape[axis], include_edge)
    return padded
