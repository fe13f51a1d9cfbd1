"""NumPy's finite differences and integrals: gradient and trapezoid, as NumPy's own expressions on
views of the array (each step one elementwise kernel, written into slices of the result)."""
import numpy as _np

from .._statistics import reductions as _reductions
from .._statistics import scans as _scans
from .._core import ndarray
from .._creation.creation import asarray, empty

__all__ = ["gradient", "trapezoid"]


def _spacing(distances, length):
    """A 1-D spacing argument as NumPy reduces it: its differences, or one scalar when they are
    all equal (NumPy's shortcut decides which formula runs: one small read)."""
    distances = asarray(distances)
    if distances.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if distances.shape[0] != length:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if distances.dtype.kind in "iu":
        distances = distances.astype(_np.float64)
    diffx = _scans.diff(distances)
    if diffx.size and bool((diffx == diffx[0]).all()):
        return diffx[0]  # a 0-d array: the uniform formulas
    return diffx


def _is_scalar(d):
    return _np.ndim(d) == 0 if not isinstance(d, ndarray) else d.ndim == 0


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order one-sided ones at the
    boundaries (numpy.gradient)."""
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    f = asarray(f)
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, N)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and _np.ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = [d if _is_scalar(d) else _spacing(d, f.shape[axes[i]]) for i, d in enumerate(varargs)]
    else:
        raise TypeError("invalid number of arguments")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_np.float64)
        otype = _np.dtype(_np.float64)

    def at(axis, index):
        key = [slice(None)] * N
        key[axis] = index
        return tuple(key)

    outvals = []
    for axis, ax_dx in zip(axes, dx):
        if f.shape[axis] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        out = empty(f.shape, otype)
        uniform = _is_scalar(ax_dx)
        if uniform:
            out[at(axis, slice(1, -1))] = (f[at(axis, slice(2, None))] - f[at(axis, slice(None, -2))]) / (2. * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            shape = [1] * N
            shape[axis] = -1
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[at(axis, slice(1, -1))] = (a * f[at(axis, slice(None, -2))] + b * f[at(axis, slice(1, -1))]
                                           + c * f[at(axis, slice(2, None))])
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            out[at(axis, 0)] = (f[at(axis, 1)] - f[at(axis, 0)]) / dx_0
            dx_n = ax_dx if uniform else ax_dx[-1]
            out[at(axis, -1)] = (f[at(axis, -1)] - f[at(axis, -2)]) / dx_n
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[at(axis, 0)] = a * f[at(axis, 0)] + b * f[at(axis, 1)] + c * f[at(axis, 2)]
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(axis, -1)] = a * f[at(axis, -3)] + b * f[at(axis, -2)] + c * f[at(axis, -1)]
        outvals.append(out)
    if len(axes) == 1:
        return outvals[0]
    return tuple(outvals)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral along `axis` by the composite trapezoidal rule (numpy.trapezoid)."""
    y = asarray(y)
    if x is None:
        d = dx
    else:
        x = asarray(x)
        if x.ndim == 1:
            d = _scans.diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = _scans.diff(x, axis=axis)
    nd = y.ndim
    slice1 = [slice(None)] * nd
    slice2 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    return _reductions.sum(d * (y[tuple(slice1)] + y[tuple(slice2)]) / 2.0, axis)
