"""numpy.linalg.norm, matrix_norm and vector_norm over the reduction engine: the 2-norm and the
Frobenius norm are one fused pass (`_norm`: sqrt of the sum of |x|**2, no temporary); the matrix
2-norm, -2-norm and nuclear norm take the singular values (cuSOLVER); the other orders compose
reductions."""
import operator

import numpy as _np

from .. import _core
from .._manipulation import manipulation as _manipulation
from .._statistics import reductions as _reductions
from .._ufunc import ufuncs as _ufuncs
from .._creation.creation import asarray


_NORM = _core.reductions["_norm"]


def _two_norm(x, axis, keepdims):
    return _NORM(x, axis, None, None, keepdims)


def _vector_norm(x, ord, axis, keepdims):
    if ord is None or ord == 2:
        return _two_norm(x, axis, keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    a = _ufuncs.absolute(x)
    if ord == _np.inf:
        return _reductions.max(a, axis=axis, keepdims=keepdims)
    if ord == -_np.inf:
        return _reductions.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _reductions.sum(_ufuncs.not_equal(x, 0), axis=axis, keepdims=keepdims, dtype=a.dtype)
    if ord == 1:
        return _reductions.sum(a, axis=axis, keepdims=keepdims)
    ord = float(ord)
    return _ufuncs.power(_reductions.sum(_ufuncs.power(a, ord), axis=axis, keepdims=keepdims), 1.0 / ord)


def _matrix_norm(x, ord, row_axis, col_axis, keepdims):
    if ord is None or ord == "fro":
        return _two_norm(x, (row_axis, col_axis), keepdims)
    if ord in (2, -2, "nuc"):
        return _singular_value_norm(x, ord, row_axis, col_axis, keepdims)
    if ord not in (1, -1, _np.inf, -_np.inf):
        raise ValueError("Invalid norm order for matrices.")
    a = _ufuncs.absolute(x)
    # 1-norms take column sums (over the row axis), inf-norms row sums (over the column axis).
    summed_axis, other_axis = (row_axis, col_axis) if ord in (1, -1) else (col_axis, row_axis)
    sums = _reductions.sum(a, axis=summed_axis, keepdims=True)
    pick = _reductions.max if ord in (1, _np.inf) else _reductions.min
    result = pick(sums, axis=other_axis, keepdims=True)
    if keepdims:
        return result
    return result.reshape(tuple(n for i, n in enumerate(result.shape) if i not in (row_axis, col_axis)))


def _singular_value_norm(x, ord, row_axis, col_axis, keepdims):
    # NumPy's _multi_svd_norm: max (initial 0), min, or sum (initial 0) of the singular values.
    s = _core.linalg.svd(_manipulation.moveaxis(x, (row_axis, col_axis), (-2, -1)), False, False, False)[1]
    if ord == 2:
        result = _reductions.max(s, axis=-1, initial=0)
    elif ord == -2:
        result = _reductions.min(s, axis=-1)
    else:
        result = _reductions.sum(s, axis=-1)
    if keepdims:
        shape = list(x.shape)
        shape[row_axis] = shape[col_axis] = 1
        result = result.reshape(tuple(shape))
    return result


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm, as numpy.linalg.norm (float results; ints compute in float64)."""
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    if axis is None:
        if ord is None or (ord in ("f", "fro") and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            return _two_norm(x, None, keepdims)
        if x.ndim not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
        axis = tuple(range(x.ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from None
    axis = tuple(_normalize(a, x.ndim) for a in axis)
    if len(axis) == 1:
        return _vector_norm(x, ord, axis[0], keepdims)
    if len(axis) == 2:
        if axis[0] == axis[1]:
            raise ValueError("Duplicate axes given.")
        return _matrix_norm(x, ord, axis[0], axis[1], keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _normalize(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norm over the last two axes, as numpy.linalg.matrix_norm."""
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm over any axes (flattened together), as numpy.linalg.vector_norm."""
    x = asarray(x)
    shape = list(x.shape)
    if axis is None:
        x = x.ravel()
        _axis = 0
    elif isinstance(axis, tuple):
        normalized = tuple(_normalize(a, x.ndim) for a in axis)
        rest = tuple(i for i in range(x.ndim) if i not in normalized)
        x = x.transpose(normalized + rest)
        count = 1
        for i in normalized:
            count *= shape[i]
        x = x.reshape((count, *[shape[i] for i in rest]))
        _axis = 0
    else:
        _axis = axis
    result = norm(x, axis=_axis, ord=ord)
    if keepdims:
        axes = range(len(shape)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        for i in axes:
            shape[_normalize(i, len(shape))] = 1
        result = result.reshape(tuple(shape))
    return result
