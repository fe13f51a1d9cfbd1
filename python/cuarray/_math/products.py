"""Matrix and vector products with NumPy 2's signatures: matmul (a ufunc-like object, the `@`
operator), dot, vdot, inner, outer, tensordot, kron, cross, vecdot, matvec, vecmat.

matmul, dot and tensordot are C++ (cuarray/products.hpp, src/ops/linalg/products/,
docs/linalg.md): one planned GEMM on cuBLAS (float, complex) or cuarray's integer GEMM kernel
(bool, integers). The rest are compositions of them with views and elementwise ufuncs; this module
converts arguments and raises NumPy's errors for them.
"""
import operator
import warnings

import numpy as _np

from .. import _core
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import asarray
from .._ufunc.out import ufunc_out
from .._manipulation.manipulation import moveaxis


def _operand(x, name):
    """A cuarray array; scalars become 0-d arrays (which the products reject as NumPy does).
    Host arrays raise TypeError: host data never moves implicitly."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, (bool, int, float, complex, _np.generic)):
        return asarray(x)
    raise TypeError(f"Unsupported type {type(x)} for {name} (convert host data with cuarray.asarray)")


def _conj(x):
    return _ufuncs.conjugate(x) if x.dtype.kind == "c" else x


def _gufunc_types(name):
    """NumPy's loops of the gufunc (matmul's where this NumPy predates it) that cuarray has: no object,
    long double or datetime ones."""
    reference = getattr(_np, name, _np.matmul)
    return [t for t in reference.types if not set(t) & set("OgGmM")]


def _core_axes_last(arrays, axes, cores):
    """Moves each operand's core dims (axes= of a gufunc: one tuple per operand) to the end."""
    return [x if c == 0 else moveaxis(x, list(ax), list(range(-c, 0))) for x, ax, c in zip(arrays, axes, cores)]


class gufunc:
    """A NumPy generalized ufunc that cuarray computes as a product (np.matmul, np.vecdot,
    np.matvec, np.vecmat): called with NumPy's arguments, and reached from NumPy's own function
    through __array_ufunc__. Its methods (reduce, accumulate, ...) are NumPy's ValueError."""

    nin, nout, nargs = 2, 1, 3
    identity = None

    def __init__(self, name, signature, impl, doc):
        self.__name__ = name
        self.__qualname__ = name
        self.signature = signature
        self._impl = impl
        self.__doc__ = doc
        self.types = _gufunc_types(name)
        self.ntypes = len(self.types)

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __call__(self, x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True,
                 signature=None, axes=None, axis=None):
        out = ufunc_out(out)
        if signature is not None:
            dtype = _np.dtype(signature[-1] if isinstance(signature, (tuple, list)) else signature.split("->")[-1])
        x1, x2 = _operand(x1, self.__name__), _operand(x2, self.__name__)
        result = self._impl(x1, x2, out=out, casting=casting, dtype=dtype, axes=axes, axis=axis)
        if out is None and order in ("F", "A") and (order == "F" or (x1.flags.f_contiguous and x2.flags.f_contiguous)):
            from .._creation.creation import asfortranarray
            result = asfortranarray(result)
        return result

    def _unsupported(self, *args, **kwargs):
        raise ValueError(f"{self.__name__} does not support ufunc methods (its signature is {self.signature})")

    reduce = accumulate = reduceat = outer = at = _unsupported


def _matmul(x1, x2, out, casting, dtype, axes, axis):
    if axis is not None:
        raise TypeError("axis can only be used with a single shape-1 core dimension per operand; use axes for matmul")
    if axes is None:
        return _core.matmul(x1, x2, out, dtype, casting)
    if len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs "
                         "can only be omitted if none of them has core axes.")
    cores = [min(x.ndim, 2) for x in (x1, x2)]
    a, b = _core_axes_last([x1, x2], axes[:2], cores)
    result = _core.matmul(a, b, None, dtype, casting)
    out_core = min(result.ndim, 2 if x1.ndim > 1 and x2.ndim > 1 else 1)
    result = moveaxis(result, list(range(-out_core, 0)), list(axes[2])) if out_core else result
    if out is None:
        return result
    out[...] = result
    return out


def _vector_core(x1, x2, name, signature):
    for i, x in enumerate((x1, x2)):
        if x.ndim < 1:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                             f"signature {signature} requires 1)")
    if x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"{signature} (size {x2.shape[-1]} is different from {x1.shape[-1]})")


def _finish(result, out, casting, name):
    if out is None:
        return result
    if not _np.can_cast(result.dtype, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to {out.dtype!r} with casting "
                        f"rule '{casting}'")
    out[...] = result
    return out


def _vecdot(x1, x2, out, casting, dtype, axes, axis):
    """sum(conj(x1) * x2) over one axis, as a stack of (1, n) @ (n, 1) products."""
    if axes is not None:
        axis = None
        x1, x2 = _core_axes_last([x1, x2], [axes[0], axes[1]], [1, 1])
    elif axis is not None:
        x1, x2 = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)
    _vector_core(x1, x2, "vecdot", "(n),(n)->()")
    result = _core.matmul(_conj(x1)[..., None, :], x2[..., :, None], None, dtype, casting)[..., 0, 0]
    return _finish(result, out, casting, "vecdot")


def _matvec(x1, x2, out, casting, dtype, axes, axis):
    if x1.ndim < 2:
        raise ValueError(f"matvec: Input operand 0 does not have enough dimensions (has {x1.ndim}, gufunc core with "
                         "signature (m,n),(n)->(m) requires 2)")
    if x2.ndim >= 1 and x2.shape[-1] != x1.shape[-1]:
        raise ValueError(f"matvec: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(m,n),(n)->(m) (size {x2.shape[-1]} is different from {x1.shape[-1]})")
    if x2.ndim < 1:
        raise ValueError("matvec: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
                         "signature (m,n),(n)->(m) requires 1)")
    result = _core.matmul(x1, x2[..., :, None], None, dtype, casting)[..., 0]
    return _finish(result, out, casting, "matvec")


def _vecmat(x1, x2, out, casting, dtype, axes, axis):
    if x2.ndim < 2:
        raise ValueError(f"vecmat: Input operand 1 does not have enough dimensions (has {x2.ndim}, gufunc core with "
                         "signature (n),(n,m)->(m) requires 2)")
    if x1.ndim < 1:
        raise ValueError("vecmat: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
                         "signature (n),(n,m)->(m) requires 1)")
    if x1.shape[-1] != x2.shape[-2]:
        raise ValueError(f"vecmat: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n),(n,m)->(m) (size {x2.shape[-2]} is different from {x1.shape[-1]})")
    result = _core.matmul(_conj(x1)[..., None, :], x2, None, dtype, casting)[..., 0, :]
    return _finish(result, out, casting, "vecmat")


matmul = gufunc("matmul", "(n?,k),(k,m?)->(n?,m?)", _matmul,
                "Matrix product of two arrays (numpy.matmul): stacks broadcast, 1-D operands promoted.")
vecdot = gufunc("vecdot", "(n),(n)->()", _vecdot,
                "Vector dot product over the last axis (numpy.vecdot): sum(conj(x1) * x2).")
matvec = gufunc("matvec", "(m,n),(n)->(m)", _matvec, "Matrix-vector product (numpy.matvec).")
vecmat = gufunc("vecmat", "(n),(n,m)->(m)", _vecmat, "Vector-matrix product (numpy.vecmat): conj(x1) @ x2.")


def dot(a, b, out=None):
    """numpy.dot: the inner product of vectors, matmul of matrices, a sum over a's last and b's
    second-to-last axis otherwise; a 0-d operand multiplies."""
    result = _core.dot(_operand(a, "dot"), _operand(b, "dot"))
    if out is None:
        return result
    if out.shape != result.shape or out.dtype != result.dtype or not out.flags.c_contiguous:
        raise ValueError("output array is not acceptable (must have the right datatype, number of dimensions, "
                         "and be a C-Array)")
    out[...] = result
    return out


def vdot(a, b, /):
    """numpy.vdot: sum(conj(a.ravel()) * b.ravel())."""
    a, b = _operand(a, "vdot").ravel(), _operand(b, "vdot").ravel()
    if a.size != b.size:
        raise ValueError(f"cannot reshape array of size {b.size} into shape ({a.size},)")
    return _core.dot(_conj(a), b)


def inner(a, b, /):
    """numpy.inner: sums over the last axes of both."""
    a, b = _operand(a, "inner"), _operand(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return _ufuncs.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        b_shape = (b.shape[-1],) + b.shape[:-1]
        raise ValueError(f"shapes {a.shape} and {b_shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) != "
                         f"{b.shape[-1]} (dim 0)".replace(", ", ","))
    return _core.tensordot(a, b, [a.ndim - 1], [b.ndim - 1])


def outer(a, b, out=None):
    """numpy.outer: a.ravel()[:, None] * b.ravel()[None, :]."""
    a, b = _operand(a, "outer").ravel(), _operand(b, "outer").ravel()
    return _ufuncs.multiply(a[:, None], b[None, :], out=out)


def _tensordot_axes(a, b, axes):
    try:
        n = operator.index(axes)
    except TypeError:
        a_axes, b_axes = axes
        a_axes = [operator.index(x) for x in (a_axes if isinstance(a_axes, (list, tuple)) else [a_axes])]
        b_axes = [operator.index(x) for x in (b_axes if isinstance(b_axes, (list, tuple)) else [b_axes])]
        return a_axes, b_axes
    return list(range(-n, 0)), list(range(0, n))  # NumPy's lists (IndexError when n exceeds a dim count)


def tensordot(a, b, axes=2):
    """numpy.tensordot: sums products over a's and b's paired axes (an int n: a's last n with b's first n)."""
    a, b = _operand(a, "tensordot"), _operand(b, "tensordot")
    a_axes, b_axes = _tensordot_axes(a, b, axes)
    return _core.tensordot(a, b, a_axes, b_axes)


def kron(a, b):
    """numpy.kron: the Kronecker product, as a broadcast multiply of interleaved dims, reshaped."""
    a, b = _operand(a, "kron"), _operand(b, "kron")
    nd = max(a.ndim, b.ndim)
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    b = b.reshape((1,) * (nd - b.ndim) + b.shape)
    a_view = a.reshape(tuple(x for d in a.shape for x in (d, 1)))
    b_view = b.reshape(tuple(x for d in b.shape for x in (1, d)))
    return _ufuncs.multiply(a_view, b_view).reshape(tuple(x * y for x, y in zip(a.shape, b.shape)))


# NumPy 2.0 deprecated 2-component vectors in cross and 2.5 refuses them; follow the NumPy installed.
_CROSS_TAKES_2D = _np.lib.NumpyVersion(_np.__version__) < "2.5.0"


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 3-component vectors (and, before NumPy 2.5, 2-component ones: the z component)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(_operand(a, "cross"), axisa, -1), moveaxis(_operand(b, "cross"), axisb, -1)
    if not _CROSS_TAKES_2D and (a.shape[-1] != 3 or b.shape[-1] != 3):
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{a.shape[-1]} and {b.shape[-1]} dimensional instead.")
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    mul, sub = _ufuncs.multiply, _ufuncs.subtract
    z = sub(mul(a0, b1), mul(a1, b0))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    x = mul(a1, b2) if a2 is None else (_ufuncs.negative(mul(a2, b1)) if b2 is None else sub(mul(a1, b2), mul(a2, b1)))
    y = _ufuncs.negative(mul(a0, b2)) if a2 is None else (mul(a2, b0) if b2 is None else sub(mul(a2, b0), mul(a0, b2)))
    from .._manipulation.manipulation import stack
    return moveaxis(stack(_broadcast_all(x, y, z), axis=-1), -1, axisc)


def _broadcast_all(*arrays):
    from .._manipulation.manipulation import broadcast_arrays
    return broadcast_arrays(*arrays)


__all__ = ["matmul", "vecdot", "matvec", "vecmat", "dot", "vdot", "inner", "outer", "tensordot", "kron", "cross"]
