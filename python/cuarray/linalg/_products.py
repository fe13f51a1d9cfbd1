"""cuarray.linalg's products with NumPy 2's signatures: multi_dot (the optimal order),
matrix_power, and the array-API names matmul, outer, tensordot, matrix_transpose, diagonal, trace,
cross and vecdot. They build on cuarray's matmul (cuarray/products.hpp, docs/linalg.md)."""
import operator

import numpy as _np

from .._math import products as _products
from .._statistics import statistics as _statistics
from .._creation.creation import eye


def matmul(x1, x2, /):
    """numpy.linalg.matmul: matmul of two arrays."""
    return _products.matmul(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    """numpy.linalg.tensordot."""
    return _products.tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """numpy.linalg.vecdot: sum(conj(x1) * x2) over `axis`."""
    return _products.vecdot(x1, x2, axis=axis)


def outer(x1, x2, /):
    """numpy.linalg.outer: the outer product of two 1-D arrays."""
    x1, x2 = _products._operand(x1, "outer"), _products._operand(x2, "outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and "
                         f"x2.ndim={x2.ndim}.")
    return _products.outer(x1, x2)


def cross(x1, x2, /, *, axis=-1):
    """numpy.linalg.cross: the cross product of 3-component vectors."""
    x1, x2 = _products._operand(x1, "cross"), _products._operand(x2, "cross")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return _products.cross(x1, x2, axis=axis)


def matrix_transpose(x, /):
    """numpy.linalg.matrix_transpose: swaps the last two axes (a view)."""
    x = _products._operand(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.swapaxes(-1, -2)


def diagonal(x, /, *, offset=0):
    """numpy.linalg.diagonal: the diagonals of the last two axes (a view)."""
    return _statistics.diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """numpy.linalg.trace: sums of the diagonals of the last two axes."""
    return _statistics.trace(x, offset, -2, -1, dtype)


def _assert_stacked_square(a):
    if a.ndim < 2:
        raise _np.linalg.LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise _np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def matrix_power(a, n):
    """numpy.linalg.matrix_power: a @ a @ ... (n times) by repeated squaring; n == 0 the identity,
    n < 0 powers of inv(a)."""
    a = _products._operand(a, "matrix_power")
    _assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        result = eye(a.shape[-1], dtype=a.dtype)
        return result if a.ndim == 2 else _broadcast_copy(result, a.shape)
    if n < 0:
        from . import inv  # cuSOLVER's inverse (the solvers' part of cuarray.linalg)
        a = inv(a)
        n = -n
    if n == 1:
        return a
    result, square = None, a
    while True:
        if n & 1:
            result = square if result is None else _products._core.matmul(result, square, None, None, "same_kind")
        n >>= 1
        if not n:
            return result
        square = _products._core.matmul(square, square, None, None, "same_kind")


def _broadcast_copy(x, shape):
    from .._math.functions import broadcast_to
    return broadcast_to(x, shape).copy()


def _chain_order(shapes):
    """NumPy's matrix-chain dynamic program: split[i][j] is where the optimal product of
    matrices i..j splits."""
    n = len(shapes)
    p = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain_product(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return _products._core.matmul(_chain_product(arrays, split, i, k), _chain_product(arrays, split, k + 1, j),
                                  None, None, "same_kind")


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot: the product of a chain of matrices in the order of fewest scalar
    multiplications; the first may be 1-D (a row) and the last 1-D (a column)."""
    arrays = [_products._operand(x, "multi_dot") for x in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(arrays) == 2:
        return _products.dot(arrays[0], arrays[1], out=out)
    first_vector, last_vector = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_vector:
        arrays[0] = arrays[0][None, :]
    if last_vector:
        arrays[-1] = arrays[-1][:, None]
    for x in arrays:
        if x.ndim != 2:
            raise _np.linalg.LinAlgError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    result = _chain_product(arrays, _chain_order([x.shape for x in arrays]), 0, len(arrays) - 1)
    if first_vector and last_vector:
        result = result[0, 0]
    elif first_vector:
        result = result[0]
    elif last_vector:
        result = result[:, 0]
    if out is None:
        return result
    out[...] = result
    return out


__all__ = ["matmul", "tensordot", "vecdot", "outer", "cross", "matrix_transpose", "diagonal", "trace",
           "matrix_power", "multi_dot"]
