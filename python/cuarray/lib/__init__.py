"""cuarray.lib: the parts of numpy.lib CuPy offers (stride_tricks)."""
from . import stride_tricks

__all__ = ["stride_tricks"]
