"""numpy.einsum and numpy.einsum_path.

Parsing, planning (NumPy's greedy/optimal paths) and the contractions (batched GEMMs, reductions,
views) are C++ (cuarray/einsum.hpp, src/ops/linalg/einsum/, docs/einsum.md). This module turns
the interleaved form ``einsum(op0, sublist0, op1, sublist1, ..., [sublistout])`` into a subscript
string, checks keywords as NumPy does and moves host operands to the device.
"""
import operator

import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray

__all__ = ["einsum", "einsum_path"]

_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_EINSUM_KWARGS = ("dtype", "order", "casting")


def _sublist_text(sublist):
    text = ""
    for s in sublist:
        if s is Ellipsis:
            text += "..."
            continue
        try:
            s = operator.index(s)
        except TypeError as e:
            raise TypeError("For this input type lists must contain either int or Ellipsis") from e
        if not 0 <= s < len(_SYMBOLS):
            raise ValueError("subscript is not within the valid range [0, 52)")
        text += _SYMBOLS[s]
    return text


def _subscripts_and_operands(operands, optimize):
    """(subscripts, operands) from either of NumPy's calling forms."""
    if len(operands) == 0:
        if optimize is False:
            raise ValueError("must specify the einstein sum subscripts string and at least one operand, "
                             "or at least one operand and its corresponding subscripts list")
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    ops, terms = list(operands[0::2]), [_sublist_text(s) for s in operands[1::2]]
    subscripts = ",".join(terms)
    if len(operands) % 2:  # a trailing sublist is the output
        ops.pop()
        subscripts = ",".join(terms) + "->" + _sublist_text(operands[-1])
    return subscripts, ops


def einsum(*operands, out=None, optimize=False, **kwargs):
    """numpy.einsum: Einstein summation on the GPU; products run as (batched) GEMMs."""
    unknown = [k for k in kwargs if k not in _EINSUM_KWARGS]
    if unknown:
        if optimize is False:
            raise TypeError(f"einsum() got an unexpected keyword argument '{unknown[0]}'")
        raise TypeError(f"Did not understand the following kwargs: {unknown}")
    subscripts, ops = _subscripts_and_operands(operands, optimize)
    ops = [x if isinstance(x, ndarray) else asarray(x) for x in ops]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    return _core.einsum(subscripts, ops, kwargs.get("dtype"), kwargs.get("casting", "safe"),
                        kwargs.get("order", "K"), out, optimize)


def einsum_path(*operands, optimize="greedy"):
    """numpy.einsum_path: the contraction order NumPy's greedy or optimal search picks, and its report."""
    subscripts, ops = _subscripts_and_operands(operands, None)
    shapes = [x.shape if isinstance(x, ndarray) else _np.shape(x) for x in ops]
    return _core.einsum_path(subscripts, shapes, optimize)
