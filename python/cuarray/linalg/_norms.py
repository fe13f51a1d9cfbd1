"""numpy.linalg.norm over the reduction engine: the 2-norm and the Frobenius norm are one fused
pass (`_norm`: sqrt of the sum of |x|**2, no temporary); the other orders compose reductions."""
import operator

import numpy as _np

from .. import _core, _reductions, _ufuncs
from .._creation import asarray


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
        raise NotImplementedError(f"linalg.norm with ord={ord!r} needs singular values (cuarray.linalg.svd), "
                                  "which are not implemented yet")
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
