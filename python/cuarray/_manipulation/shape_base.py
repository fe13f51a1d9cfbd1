"""apply_along_axis and apply_over_axes: the user's function is Python, so it is called once per
1-D slice (or per axis) from the host, as in NumPy and CuPy; each call's arrays stay on the device."""
import numpy as _np

from .._core import ndarray
from .._creation.creation import asarray, empty
from .._math.functions import expand_dims

__all__ = ["apply_along_axis", "apply_over_axes"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to the 1-D slices of arr along axis; its result's dimensions replace axis."""
    arr = asarray(arr)
    nd = arr.ndim
    axis = _np.lib.array_utils.normalize_axis_index(axis, nd)
    in_dims = list(range(nd))
    inarr_view = arr.transpose(in_dims[:axis] + in_dims[axis + 1:] + [axis])
    inds = (ind + (Ellipsis,) for ind in _np.ndindex(inarr_view.shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = asarray(func1d(inarr_view[ind0], *args, **kwargs))
    buff = empty(inarr_view.shape[:-1] + res.shape, res.dtype)
    buff_dims = list(range(buff.ndim))
    buff_permute = (buff_dims[0:axis] + buff_dims[buff.ndim - res.ndim:buff.ndim]
                    + buff_dims[axis:buff.ndim - res.ndim])
    buff[ind0] = res
    for ind in inds:
        buff[ind] = asarray(func1d(inarr_view[ind], *args, **kwargs))
    return buff.transpose(buff_permute)


def apply_over_axes(func, a, axes):
    """func(a, axis) applied over each axis in turn, keeping the dimensions (numpy.apply_over_axes)."""
    val = asarray(a)
    N = val.ndim
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        res = res if isinstance(res, ndarray) else asarray(res)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val
