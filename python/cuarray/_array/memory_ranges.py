"""may_share_memory and shares_memory: NumPy's own overlap solver, run on the arrays' addresses.

NumPy decides overlap from each array's first address, shape, strides and itemsize alone, never
reading the memory. So each cuarray array is described to NumPy by a stand-in NumPy array with the
same address (its device address: unified addressing keeps every device's addresses distinct),
shape, strides and itemsize, and numpy.shares_memory / may_share_memory answer, with their max_work
rules (0: bounds only, -1: exact, a positive budget raising numpy.exceptions.TooHardError)
unchanged. The stand-ins are never read or written.
"""
import numpy as _np

from .. import _core
from .._core import ndarray

__all__ = ["may_share_memory", "shares_memory"]


class _AddressOnly:
    """An object NumPy views through __array_interface__: x's address and layout, no data."""

    def __init__(self, x):
        self.__array_interface__ = {
            "data": (_core.array_address(x) if x.size else 0, True),  # read-only, and never read
            "shape": x.shape, "strides": x.strides, "typestr": f"|V{x.itemsize}", "version": 3,
        }


def _operands(a, b):
    """Stand-ins for two cuarray arrays; None when only one is (device and host memory never overlap)."""
    on_device = isinstance(a, ndarray), isinstance(b, ndarray)
    if on_device == (True, True):
        return _np.asarray(_AddressOnly(a)), _np.asarray(_AddressOnly(b))
    if any(on_device):
        return None
    return a, b  # two host objects: NumPy's question as asked


def shares_memory(a, b, max_work=None):
    """Whether a and b share an element's memory (exactly, by default), as numpy.shares_memory."""
    operands = _operands(a, b)
    return False if operands is None else _np.shares_memory(*operands, max_work=max_work)


def may_share_memory(a, b, max_work=None):
    """Whether a's and b's memory bounds overlap (by default), as numpy.may_share_memory."""
    operands = _operands(a, b)
    return False if operands is None else _np.may_share_memory(*operands, max_work=max_work)
