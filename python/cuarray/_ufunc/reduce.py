"""ufunc.reduce with NumPy's semantics (axis=0 by default, tuples of axes, None, dtype=, out=,
keepdims=, initial=, where=).

The six ufuncs that have a reduction of their own run it: add is sum, multiply prod, maximum max,
minimum min, logical_and all and logical_or any (the reduction engine, docs/reductions.md). Every
other binary ufunc reduces through its accumulate (the scan engine, docs/scans.md), whose last
element along the reduced axis is the reduction in NumPy's order: the reduced axes are moved last
and merged into one (NumPy allows several only for the reorderable ufuncs, where order does not
matter), initial= goes in front, and where= puts the identity (or, for the idempotent ufuncs that
have none, initial) in place of each masked element.

As NumPy's, a reduction starts from the ufunc's identity when it has one and initial= is not given:
hypot.reduce([-2.0]) is hypot(0, -2.0) = 2.0 and gcd.reduce([-4]) is 4, not the element itself.
The ordered ufuncs (power, arctan2, ...) have none and fold left to right from the first element.
NumPy's own reduce of power and arctan2 along a contiguous axis on AVX-512 hosts does not: its SIMD
loops read every element before writing the running value and return a[0] op a[-1] (NumPy 2.4
and 2.5); cuarray gives the fold, which is NumPy's accumulate's last element.
"""
import math
import operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple

from .._statistics import reductions as _reductions
from .._core import ndarray, ufunc
from .._creation.creation import asarray, empty, full
from .._math.functions import where as _where
from .._manipulation.manipulation import concatenate, moveaxis
from .out import ufunc_out

# NumPy's reorderable binary ufuncs (numpy.<ufunc>.reduce accepts several axes for these only). Of
# them, maximum, minimum, fmax and fmin have no identity, and each is idempotent.
_REORDERABLE = frozenset(["add", "bitwise_and", "bitwise_or", "bitwise_xor", "fmax", "fmin", "gcd", "hypot",
                          "logaddexp", "logaddexp2", "logical_and", "logical_or", "logical_xor", "maximum",
                          "minimum", "multiply"])


# The ufuncs whose reduce is a reduction of their own: (function, whether it takes dtype=, whether it
# takes initial=). A call passing what the function does not take reduces through accumulate.
_OWN_REDUCTIONS = {
    "add": (_reductions.sum, True, True),
    "multiply": (_reductions.prod, True, True),
    "maximum": (_reductions.max, False, True),
    "minimum": (_reductions.min, False, True),
    "logical_and": (_reductions.all, False, False),
    "logical_or": (_reductions.any, False, False),
}


def _reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    """Reduces array's dimension(s) by applying the ufunc along them, as numpy.ufunc.reduce."""
    if self.nin != 2:
        raise ValueError("reduce only supported for binary functions")
    if self.nout != 1:
        raise ValueError("reduce only supported for functions returning a single value")
    out = ufunc_out(out)
    a = array if isinstance(array, ndarray) else asarray(array)
    initial = None if initial is _np._NoValue else initial  # NumPy reads None as "no initial" too
    own, takes_dtype, takes_initial = _OWN_REDUCTIONS.get(self.__name__, (None, False, False))
    if own is not None and (dtype is None or takes_dtype) and (initial is None or takes_initial):
        if takes_dtype:
            return own(a, axis, dtype, out, keepdims, initial, where)
        if takes_initial:
            return own(a, axis, out, keepdims, initial, where)
        return own(a, axis, out, keepdims, where=where)
    return _through_accumulate(self, a, axis, dtype, out, keepdims, initial, where)


def _through_accumulate(uf, a, axis, dtype, out, keepdims, initial, where):
    name = uf.__name__
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(
        axis if isinstance(axis, tuple) else operator.index(axis), a.ndim)
    reorderable = name in _REORDERABLE
    if len(axes) > 1 and not reorderable:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be specified")
    if dtype is None and out is not None:
        a = a.astype(out.dtype, copy=False)  # NumPy resolves the loop with out's dtype, casting as it must
    kept = tuple(n for i, n in enumerate(a.shape) if i not in axes)
    count = math.prod(a.shape[i] for i in axes)
    # The loop's result dtype, from accumulating an empty array of a's dtype: the accumulate's own
    # resolution (which raises NumPy's errors for a ufunc or dtype that cannot reduce), no kernel run.
    result_dtype = uf.accumulate(empty((0,), a.dtype), dtype=dtype).dtype
    # The identity taken as its bits in the loop's dtype (bitwise_and's -1 is all ones in any integer
    # dtype); initial= must fit the dtype instead (NEP 50's OverflowError, from full below).
    identity = None if uf.identity is None else _np.asarray(uf.identity).astype(result_dtype)[()]
    if where is not True:
        if not reorderable:
            raise NotImplementedError(f"cuarray: {name}.reduce with where= (a reduction that is not reorderable)")
        fill = identity if identity is not None else initial
        if fill is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one "
                             "has to specify 'initial'")
        a = a.astype(result_dtype, copy=False)  # the masked elements take the fill in the loop's dtype
        a = _where(asarray(where), a, _np.asarray(fill).astype(result_dtype)[()])
    start = initial if initial is not None else identity  # NumPy's reduction starts from the identity
    if count == 0:
        if start is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        result = full(kept, start, dtype=result_dtype)
    else:
        last = moveaxis(a, axes, tuple(range(-len(axes), 0))) if axes else a  # axis=(): each element alone
        rows = last.reshape(kept + (count,))
        if start is not None:
            rows = concatenate([full(kept + (1,), start, dtype=result_dtype), rows.astype(result_dtype)], axis=-1)
        result = uf.accumulate(rows, axis=-1, dtype=dtype)[..., -1].copy()  # not a view of the scan's output
    if keepdims:
        result = result.reshape(tuple(1 if i in axes else n for i, n in enumerate(a.shape)))
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"output parameter for reduction operation {name} has the wrong shape {out.shape}; "
                         f"expected {result.shape}")
    out[...] = result
    return out


ufunc.reduce = _reduce
